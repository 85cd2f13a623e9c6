package dev.parity.compare;

import java.util.List;

import dev.parity.run.Cell;
import dev.parity.run.RequestCounts;

/**
 * {@code outcomes-unknown}: the harness did not record how many requests failed or were
 * cancelled. Annotates the cell; {@code failures} counts the unknown as 0.
 */
final class OutcomesUnknown implements CellRule {

	static final String ID = "outcomes-unknown";

	@Override
	public List<Flag> check(Cell cell, RunContext context) {
		RequestCounts requests = cell.requests();
		if (!requests.outcomesUnknown()) {
			return List.of();
		}
		String unknown = requests.failed() == null && requests.cancelled() == null ? "failed and cancelled counts were"
				: requests.failed() == null ? "failed count was" : "cancelled count was";
		return List.of(Flag.annotation(ID, "outcomes not recorded", "the " + unknown
				+ " not recorded, so they count as 0 here — use a harness that records request outcomes"));
	}

}
