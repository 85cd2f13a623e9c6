package dev.parity.compare;

import java.util.List;

import dev.parity.run.Cell;
import dev.parity.run.RequestCounts;

/**
 * {@code empty-cell}: a cell with no requests at all, or with completed requests but no
 * metric value. Greys the cell.
 */
final class EmptyCell implements CellRule, Remedy {

	static final String ID = "empty-cell";

	@Override
	public String id() {
		return ID;
	}

	/**
	 * The rerun side's empty cells measured; empty cells of a side no control reruns
	 * stay.
	 */
	@Override
	public void settle(Settling plan) {
		if (plan.canRerun() && plan.on(ID, plan.side())) {
			List<String> anchors = plan.cells(ID, plan.side());
			plan.change(ID, "cells[].metrics", null, "a value per metric", "re-run " + String.join(", ", anchors)
					+ " and check that the harness writes a value for every metric of every cell");
		}
		plan.cannotOnOtherSide(ID, "cells without a measurement");
	}

	@Override
	public List<Flag> check(Cell cell, RunContext context) {
		RequestCounts requests = cell.requests();
		boolean noRequests = requests.completed() != null && !requests.outcomesUnknown() && requests.knownTotal() == 0;
		if (noRequests) {
			return List.of(Flag.greying(ID, "no requests",
					"no requests in this cell (0 completed, 0 failed, 0 cancelled): any value it reports is not a measurement — re-run the cell",
					context.metrics().all()));
		}
		if (cell.metrics().isEmpty()
				&& (requests.completed() == null ? requests.unsuccessful() == 0 : requests.completed() > 0)) {
			String completed = requests.completed() == null ? "requests may have completed"
					: Figures.number(requests.completed()) + " requests completed";
			return List.of(Flag.greying(ID, "no metric value",
					completed + " but the cell records no metric value — check the harness output and re-run the cell",
					context.metrics().all()));
		}
		return List.of();
	}

}
