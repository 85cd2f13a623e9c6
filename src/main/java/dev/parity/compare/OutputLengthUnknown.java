package dev.parity.compare;

import java.util.List;

import dev.parity.run.Cell;

/**
 * {@code output-length-unknown}: both sides completed requests in the cell, and either
 * did not measure output tokens per request. Greys the output-length-sensitive metrics: a
 * declared length is not a measurement.
 */
final class OutputLengthUnknown implements CellPairRule, Remedy {

	static final String ID = "output-length-unknown";

	@Override
	public String id() {
		return ID;
	}

	/**
	 * Output tokens per request recorded by the rerun side; a side no control reruns that
	 * did not measure them stays.
	 */
	@Override
	public void settle(Settling plan) {
		List<String> anchors = plan.cells(ID, null);
		if (anchors.isEmpty()) {
			return;
		}
		List<String> sides = plan.canRerun() ? List.of(plan.otherSide(), plan.side())
				: List.of(Flag.BASELINE, Flag.CONTENDER);
		for (String side : sides) {
			long unmeasured = anchors.stream()
				.filter(anchor -> plan.cell(side, anchor).flatMap(CellMeasures::medianOutputTokens).isEmpty())
				.count();
			if (unmeasured == 0) {
				continue;
			}
			if (!plan.reruns(side)) {
				plan.cannot(ID,
						plan.name(side) + " did not measure output tokens per request in " + unmeasured
								+ (unmeasured == 1 ? " cell" : " cells")
								+ ": no rerun of the other side shows both did the same work");
				continue;
			}
			ControlCheck check = plan.outputCheck(anchors);
			plan.change(ID, "cells[].output_tokens", null, check == null ? null : Math.round(check.target()),
					"record output tokens per request in every cell (median, min, max: the completion tokens the engine "
							+ "reports), so that equal work can be shown",
					check);
		}
	}

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
		String which = baseUnknown && otherUnknown ? "neither side measured"
				: baseUnknown ? "the baseline did not measure" : "the contender did not measure";
		return List.of(Flag.greying(ID, "output tokens not measured", which
				+ " output tokens per request in this cell, so equal work cannot be shown (a declared length is not a measurement) — record output tokens per request",
				context.metrics().outputSensitive()));
	}

}
