package dev.parity.compare;

import java.util.List;

import dev.parity.run.Cell;

/**
 * {@code output-length-unknown}: both sides completed requests in the cell, and either did not measure output tokens
 * per request. Greys the output-length-sensitive metrics: a declared length is not a measurement.
 */
final class OutputLengthUnknown implements CellPairRule {

	static final String ID = "output-length-unknown";

	@Override
	public List<Flag> check(Cell baseline, Cell contender, ComparisonContext context) {
		if (!CellMeasures.completedRequests(baseline) || !CellMeasures.completedRequests(contender)) {
			return List.of();
		}
		boolean baseUnknown = CellMeasures.medianOutputTokens(baseline).isEmpty();
		boolean otherUnknown = CellMeasures.medianOutputTokens(contender).isEmpty();
		if (!baseUnknown && !otherUnknown) {
			return List.of();
		}
		String which = baseUnknown && otherUnknown ? "neither side measured" : baseUnknown ? "the baseline did not measure"
				: "the contender did not measure";
		return List.of(Flag.greying(ID, "output tokens not measured", which
				+ " output tokens per request in this cell, so equal work cannot be shown (a declared length is not a measurement) — record output tokens per request",
				context.metrics().outputSensitive()));
	}

}
