package dev.parity.compare;

import java.util.List;

import dev.parity.run.Cell;
import org.jspecify.annotations.Nullable;

/**
 * {@code all-failed}: no cell has a completed request, and some failed or were cancelled.
 * Greys everything.
 */
final class AllFailed implements RunRule, Remedy {

	static final String ID = "all-failed";

	@Override
	public String id() {
		return ID;
	}

	/**
	 * The rerun side's requests made to complete; a side no control reruns whose requests
	 * all failed stays.
	 */
	@Override
	public void settle(Settling plan) {
		if (plan.canRerun() && plan.on(ID, plan.side())) {
			int unsuccessful = plan.rerun().cells().stream().mapToInt(cell -> cell.requests().unsuccessful()).sum();
			plan.change(ID, "cells[].requests.failed", unsuccessful, 0, "every request failed while the server looked "
					+ "healthy: send one request with these settings, fix what it returns (a parameter the engine "
					+ "refuses?), and measure only once requests complete");
		}
		plan.cannotOnOtherSide(ID, "every request failed");
	}

	@Override
	public List<Flag> check(RunContext context) {
		List<Cell> cells = context.run().cells();
		int failed = cells.stream().mapToInt(cell -> orZero(cell.requests().failed())).sum();
		int cancelled = cells.stream().mapToInt(cell -> orZero(cell.requests().cancelled())).sum();
		if (failed + cancelled == 0 || cells.stream().anyMatch(CellMeasures::completedRequests)) {
			return List.of();
		}
		String outcomes = failed == 0 ? Figures.number(cancelled) + " cancelled"
				: cancelled == 0 ? Figures.number(failed) + " failed"
						: Figures.number(failed) + " failed, " + Figures.number(cancelled) + " cancelled";
		return List.of(Flag.greying(ID, "every request failed (" + outcomes + ")", "every request failed (" + outcomes
				+ ", none completed in " + cells.size() + (cells.size() == 1 ? " cell" : " cells")
				+ "): a healthy server is not a working run — send one request with these settings and fix what it returns before measuring",
				context.metrics().all()));
	}

	private static int orZero(@Nullable Integer count) {
		return count == null ? 0 : count;
	}

}
