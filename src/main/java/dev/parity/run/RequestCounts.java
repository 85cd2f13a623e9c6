package dev.parity.run;

import org.jspecify.annotations.Nullable;

/**
 * How a cell's requests ended. A {@code null} count is unknown (the harness does not
 * record it), never zero.
 */
public record RequestCounts(@Nullable Integer completed, @Nullable Integer failed, @Nullable Integer cancelled) {

	/** Completed requests, 0 when unknown. */
	public int completedOrZero() {
		return completed == null ? 0 : completed;
	}

	/** Failed plus cancelled, counting unknown as 0. */
	public int unsuccessful() {
		return (failed == null ? 0 : failed) + (cancelled == null ? 0 : cancelled);
	}

	/** Completed plus failed plus cancelled, counting an unknown count as 0. */
	public int knownTotal() {
		return completedOrZero() + unsuccessful();
	}

	/** Whether the failed or the cancelled count is unknown. */
	public boolean outcomesUnknown() {
		return failed == null || cancelled == null;
	}

}
