package dev.parity.compare;

import java.util.List;

import dev.parity.run.Cell;
import org.jspecify.annotations.Nullable;

/**
 * {@code all-failed}: no cell has a completed request, and some failed or were cancelled. Greys everything.
 */
final class AllFailed implements RunRule {

	static final String ID = "all-failed";

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
		return List.of(Flag.greying(ID, "every request failed (" + outcomes + ")", "every request failed (" + outcomes + ", none completed in " + cells.size()
				+ (cells.size() == 1 ? " cell" : " cells")
				+ "): a healthy server is not a working run — send one request with these settings and fix what it returns before measuring",
				context.metrics().all()));
	}

	private static int orZero(@Nullable Integer count) {
		return count == null ? 0 : count;
	}

}
