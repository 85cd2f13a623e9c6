package dev.parity.ingest;

import java.util.List;
import java.util.stream.Collectors;

import dev.parity.web.Problem;

/**
 * An upload that cannot be stored, with every problem found in it (not only the first).
 */
public class RunFileRejected extends RuntimeException {

	private final List<Problem> problems;

	public RunFileRejected(List<Problem> problems) {
		super(problems.stream().map(Problem::toString).collect(Collectors.joining("; ")));
		this.problems = List.copyOf(problems);
	}

	public RunFileRejected(String path, String message) {
		this(List.of(new Problem(path, message)));
	}

	public List<Problem> problems() {
		return problems;
	}

}
