package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Gives cells their 1-based execution order when the files say it: by the timestamps the
 * harness wrote (sortable text such as vLLM's {@code 20260818-021333}, or epoch seconds),
 * only when every cell has one and no two are equal; otherwise the order stays unknown.
 */
final class ExecutionOrder {

	private ExecutionOrder() {
	}

	/**
	 * @param timestamps one per cell, comparable within the run (same format)
	 */
	static <T extends Comparable<T>> void byTimestamps(List<CellDraft> cells, List<@Nullable T> timestamps,
			RunDraft run) {
		if (cells.size() < 2) {
			return;
		}
		if (timestamps.size() != cells.size() || timestamps.stream().anyMatch(Objects::isNull)
				|| new HashSet<>(timestamps).size() != timestamps.size()) {
			run.note("execution order unknown: the files do not give every cell a distinct start time");
			return;
		}
		List<Integer> indexes = new ArrayList<>();
		for (int i = 0; i < cells.size(); i++) {
			indexes.add(i);
		}
		indexes.sort(Comparator.comparing(timestamps::get));
		for (int position = 0; position < indexes.size(); position++) {
			cells.get(indexes.get(position)).order(position + 1);
		}
	}

	/** Cells in the order the file lists them, which is the order they ran. */
	static void asListed(List<CellDraft> cells) {
		if (cells.size() < 2) {
			return;
		}
		for (int i = 0; i < cells.size(); i++) {
			cells.get(i).order(i + 1);
		}
	}

}
