package dev.parity.compare;

import java.util.Collections;
import java.util.List;

import dev.parity.run.Cell;

/**
 * {@code unstable}: per-request output tokens (at least three samples) vary with a coefficient of variation
 * (population SD / mean) above the threshold. Greys the cell's output-length-sensitive metrics.
 */
final class Unstable implements CellRule {

	static final String ID = "unstable";

	private static final int MIN_SAMPLES = 3;

	@Override
	public List<Flag> check(Cell cell, RunContext context) {
		List<Double> tokens = CellMeasures.outputTokensPerRequest(cell);
		if (tokens.size() < MIN_SAMPLES) {
			return List.of();
		}
		double mean = SampleStatistics.mean(tokens);
		double threshold = context.settings().unstableCv();
		if (mean <= 0) {
			return List.of();
		}
		double cv = SampleStatistics.populationSd(tokens) / mean;
		if (!Thresholds.exceeds(cv, threshold)) {
			return List.of();
		}
		String range = Figures.number(Collections.min(tokens)) + "–" + Figures.number(Collections.max(tokens));
		return List.of(Flag.greying(ID, range + " tokens over " + tokens.size() + " requests", "output tokens per request " + Figures.number(Collections.min(tokens)) + "–"
				+ Figures.number(Collections.max(tokens)) + " over " + tokens.size() + " requests (CV "
				+ Figures.ratio(cv) + ", over " + Figures.number(threshold)
				+ "): the output length is not under control — fix it per request, e.g. cap max_tokens or disable thinking",
				context.metrics().outputSensitive()));
	}

}
