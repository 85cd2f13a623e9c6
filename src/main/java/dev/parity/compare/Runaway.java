package dev.parity.compare;

import java.util.List;
import java.util.Optional;

import dev.parity.run.Cell;
import dev.parity.run.SampleSummary;
import dev.parity.run.TokenStats;

/**
 * {@code runaway}: a request's output tokens (or the cell's max) exceed the runaway
 * factor times the cell's median. Greys the cell's output-length-sensitive metrics: one
 * request dominates them.
 */
final class Runaway implements CellRule, Remedy {

	static final String ID = "runaway";

	@Override
	public String id() {
		return ID;
	}

	/**
	 * Output tokens per request capped (max_tokens) at what the other side generates,
	 * checked by measurement; a runaway on a side no control reruns stays.
	 */
	@Override
	public void settle(Settling plan) {
		if (plan.canRerun() && plan.on(ID, plan.side())) {
			List<String> anchors = plan.cells(ID, plan.side());
			ControlCheck check = plan.outputCheck(List.of());
			String field = "workload.request_params.max_tokens";
			plan.change(ID, field, plan.value(plan.side(), field), check == null ? null : Math.round(check.target()),
					"cap output tokens per request (max_tokens) so that no request runs away, and re-run "
							+ String.join(", ", anchors),
					check);
		}
		plan.cannotOnOtherSide(ID, "a request ran away");
	}

	@Override
	public List<Flag> check(Cell cell, RunContext context) {
		SampleSummary summary = context.summary(cell);
		Optional<Double> median = CellMeasures.medianOutputTokens(cell, summary);
		if (median.isEmpty() || median.get() <= 0) {
			return List.of();
		}
		double factor = context.settings().runaway();
		String longest = null;
		double tokens = 0;
		SampleSummary.Values perRequest = summary.outputTokens();
		if (perRequest != null && perRequest.worstIndex() > 0) {
			tokens = perRequest.worstValue();
			longest = "request " + perRequest.worstIndex() + " of " + summary.samples();
		}
		TokenStats stats = cell.outputTokens();
		if (stats != null && stats.max() != null && stats.max() > tokens) {
			tokens = stats.max();
			longest = "the longest request";
		}
		if (longest == null || !Thresholds.exceeds(tokens, factor * median.get())) {
			return List.of();
		}
		return List.of(Flag
			.greying(ID, Figures.number(tokens) + " vs median " + Figures.number(median.get()) + " tokens", longest
					+ " produced " + Figures.number(tokens) + " output tokens against a median of "
					+ Figures.number(median.get()) + " (" + Figures.factor(tokens / median.get()) + ", over "
					+ Figures.factor(factor)
					+ "): one request dominates the output-length-sensitive metrics — cap output tokens per request (max_tokens) and re-run the cell",
					context.metrics().outputSensitive()));
	}

}
