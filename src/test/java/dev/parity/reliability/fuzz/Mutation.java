package dev.parity.reliability.fuzz;

import java.util.List;

/**
 * A hostile variation of a valid input: the bytes, and the steps that made them (for a
 * failure report that a person can read and reproduce).
 *
 * @param bytes the mutated input
 * @param steps what was done, in order, e.g. {@code "$.cells[2].metrics.ttft_s := 1e400"}
 */
record Mutation(byte[] bytes, List<String> steps) {

	Mutation {
		steps = List.copyOf(steps);
	}

	String describe() {
		return String.join("; ", steps) + " (" + bytes.length + " bytes)";
	}

}
