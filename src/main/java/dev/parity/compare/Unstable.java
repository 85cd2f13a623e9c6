package dev.parity.compare;

import java.util.List;

import dev.parity.run.Cell;
import dev.parity.run.SampleSummary;

/**
 * {@code unstable}: per-request output tokens (at least three samples) vary with a
 * coefficient of variation (population SD / mean) above the threshold. Greys the cell's
 * output-length-sensitive metrics.
 */
final class Unstable implements CellRule, Remedy {

	static final String ID = "unstable";

	private static final int MIN_SAMPLES = 3;

	@Override
	public String id() {
		return ID;
	}

	/**
	 * A fixed output length (min_tokens equal to max_tokens at what the other side
	 * generates), checked by measurement; unstable cells of a side no control reruns
	 * stay.
	 */
	@Override
	public void settle(Settling plan) {
		if (plan.canRerun() && plan.on(ID, plan.side())) {
			ControlCheck check = plan.outputCheck(List.of());
			Long target = check == null ? null : Math.round(check.target());
			String how = "fix the output length per request (min_tokens = max_tokens, or the harness's fixed output "
					+ "length) so that every request does the same work, and re-run "
					+ String.join(", ", plan.cells(ID, plan.side()));
			for (String field : List.of("workload.request_params.max_tokens", "workload.request_params.min_tokens")) {
				plan.change(ID, field, plan.value(plan.side(), field), target, how, check);
			}
		}
		plan.cannotOnOtherSide(ID, "output lengths varied widely");
	}

	@Override
	public List<Flag> check(Cell cell, RunContext context) {
		SampleSummary.Values tokens = context.summary(cell).outputTokens();
		if (tokens == null || tokens.count() < MIN_SAMPLES) {
			return List.of();
		}
		double mean = tokens.mean();
		double threshold = context.settings().unstableCv();
		if (mean <= 0) {
			return List.of();
		}
		double cv = tokens.sd() / mean;
		if (!Thresholds.exceeds(cv, threshold)) {
			return List.of();
		}
		String range = Figures.number(tokens.min()) + "–" + Figures.number(tokens.max());
		return List
			.of(Flag.greying(ID, range + " tokens over " + tokens.count() + " requests", "output tokens per request "
					+ Figures.number(tokens.min()) + "–" + Figures.number(tokens.max()) + " over " + tokens.count()
					+ " requests (CV " + Figures.ratio(cv) + ", over " + Figures.number(threshold)
					+ "): the output length is not under control — fix it per request, e.g. cap max_tokens or disable thinking",
					context.metrics().outputSensitive()));
	}

}
