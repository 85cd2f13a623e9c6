package dev.parity.compare;

import java.util.List;

import dev.parity.run.Cell;
import dev.parity.run.RequestCounts;

/**
 * {@code failures}: more of a cell's requests failed or were cancelled than the failure
 * tolerance allows (unknown counts count as 0). Greys every metric of the cell: a ratio
 * against a failed probe is never a result.
 */
final class Failures implements CellRule, Remedy {

	static final String ID = "failures";

	@Override
	public String id() {
		return ID;
	}

	/**
	 * The rerun side's cells re-run until their requests complete; cells of a side no
	 * control reruns (a reference's cancelled probe) stay.
	 */
	@Override
	public void settle(Settling plan) {
		if (plan.canRerun() && plan.on(ID, plan.side())) {
			List<String> anchors = plan.cells(ID, plan.side());
			int unsuccessful = anchors.stream()
				.flatMap(anchor -> plan.cell(plan.side(), anchor).stream())
				.mapToInt(cell -> cell.requests().unsuccessful())
				.sum();
			plan.change(ID, "cells[].requests.failed", unsuccessful, 0, "re-run " + String.join(", ", anchors)
					+ " until every request completes: a ratio against a failed probe is never a result");
		}
		plan.cannotOnOtherSide(ID, "requests failed or were cancelled");
	}

	@Override
	public List<Flag> check(Cell cell, RunContext context) {
		RequestCounts requests = cell.requests();
		int unsuccessful = requests.unsuccessful();
		double tolerance = context.settings().failureTolerance();
		if (!Thresholds.exceeds(unsuccessful, tolerance * requests.knownTotal())) {
			return List.of();
		}
		String allowed = tolerance == 0 ? "" : " (tolerance " + Figures.tolerance(tolerance) + ")";
		return List.of(Flag.greying(ID, Figures.number(unsuccessful) + " of " + Figures
			.number(requests.knownTotal()) + " " + shortOutcome(requests), Figures.number(unsuccessful) + " of "
					+ Figures.number(requests.knownTotal()) + " requests " + outcome(requests) + allowed
					+ ": a ratio against a failed probe is never a result — re-run the cell until its requests complete",
				context.metrics().all()));
	}

	private static String shortOutcome(RequestCounts requests) {
		int failed = requests.failed() == null ? 0 : requests.failed();
		int cancelled = requests.cancelled() == null ? 0 : requests.cancelled();
		return cancelled == 0 ? "failed" : failed == 0 ? "cancelled" : "failed or cancelled";
	}

	private static String outcome(RequestCounts requests) {
		int failed = requests.failed() == null ? 0 : requests.failed();
		int cancelled = requests.cancelled() == null ? 0 : requests.cancelled();
		if (cancelled == 0) {
			return "failed";
		}
		if (failed == 0) {
			return "cancelled";
		}
		return "failed or were cancelled (" + failed + " failed, " + cancelled + " cancelled)";
	}

}
