package dev.parity.compare;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

import dev.parity.run.Cell;

/**
 * {@code output-length-differs}: the matched cells' median output tokens per request
 * differ by more than the output tolerance, so the two sides did different work. Greys
 * the output-length-sensitive metrics; TTFT and prefill stay comparable.
 */
final class OutputLengthDiffers implements CellPairRule, Remedy {

	static final String ID = "output-length-differs";

	/** The declared fields that say how much a request generates. */
	private static final List<String> DECLARED = List.of("workload.request_params", "workload.reasoning",
			"workload.output_tokens");

	@Override
	public String id() {
		return ID;
	}

	/**
	 * The other side's declared request parameters (and reasoning, and output tokens,
	 * where they differ), with a check of the output tokens per request the control must
	 * measure; when the declarations already agree, the measured output length itself.
	 */
	@Override
	public void settle(Settling plan) {
		List<String> anchors = plan.cells(ID, null);
		if (anchors.isEmpty()) {
			return;
		}
		if (!plan.canRerun()) {
			plan.cannot(ID, "the two references did different work per request in " + anchors.size()
					+ " cells, and neither is rerun");
			return;
		}
		ControlCheck check = plan.outputCheck(anchors);
		String target = check == null ? "" : " (" + Figures.number(check.target())
				+ " output tokens per request, within ±" + Figures.tolerance(check.tolerance()) + ")";
		boolean declared = false;
		for (String field : DECLARED) {
			Object from = plan.value(plan.side(), field);
			Object to = plan.value(plan.otherSide(), field);
			if (!Objects.equals(from, to)) {
				declared = true;
				plan.change(ID, field, from, to, "match the work per request" + target + ": set " + field + " to "
						+ plan.name(plan.otherSide()) + "'s, then send one request per prompt length and check the "
						+ "output tokens per request before measuring — a setting accepted is not a setting obeyed",
						check);
			}
		}
		if (!declared) {
			List<Double> measured = anchors.stream()
				.flatMap(anchor -> plan.cell(plan.side(), anchor).flatMap(CellMeasures::medianOutputTokens).stream())
				.toList();
			plan.change(ID, "cells[].output_tokens",
					measured.isEmpty() ? null : Math.round(SampleStatistics.median(measured)),
					check == null ? null : Math.round(check.target()),
					"the declarations agree, yet the measured output per request differs" + target
							+ ": find what makes the engine generate more or less (a reasoning mode counted as output?) "
							+ "and check the output tokens per request before measuring",
					check);
		}
	}

	@Override
	public List<Flag> check(Cell baseline, Cell contender, ComparisonContext context) {
		Optional<Double> base = CellMeasures.medianOutputTokens(baseline);
		Optional<Double> other = CellMeasures.medianOutputTokens(contender);
		if (base.isEmpty() || other.isEmpty() || base.get() <= 0) {
			return List.of();
		}
		double change = other.get() / base.get() - 1;
		double tolerance = context.settings().outputTolerance();
		if (!Thresholds.differsByMoreThan(other.get(), base.get(), tolerance)) {
			return List.of();
		}
		return List.of(Flag.greying(ID, Figures.number(base.get()) + " vs " + Figures
			.number(other.get()) + " tokens/request", "median output tokens per request " + Figures.number(base.get())
					+ " vs " + Figures.number(other.get()) + " (" + Figures.change(change) + ", beyond ±"
					+ Figures.tolerance(tolerance)
					+ "): different work per request distorts the output-length-sensitive metrics — match output length, e.g. disable thinking",
				context.metrics().outputSensitive()));
	}

}
