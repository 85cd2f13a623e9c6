package dev.parity.compare;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

import dev.parity.run.Cell;
import dev.parity.run.Sample;

/**
 * What a cell measured about its requests, read the same way by every rule.
 */
final class CellMeasures {

	private CellMeasures() {
	}

	/**
	 * The median output tokens per request: the cell's own median, else the interpolated median of its completed
	 * samples. Never the mean, never the declared length.
	 */
	static Optional<Double> medianOutputTokens(Cell cell) {
		Optional<Double> stated = cell.medianOutputTokens();
		if (stated.isPresent()) {
			return stated;
		}
		List<Double> perRequest = outputTokensPerRequest(cell);
		return perRequest.isEmpty() ? Optional.empty() : Optional.of(SampleStatistics.median(perRequest));
	}

	/** The output tokens of each completed sample that records them, in completion order. */
	static List<Double> outputTokensPerRequest(Cell cell) {
		return cell.samples().stream().filter(Sample::ok).map(Sample::outputTokens).filter(Objects::nonNull).toList();
	}

	/** Whether requests completed: the count says so, or, when the count is unknown, metric values exist. */
	static boolean completedRequests(Cell cell) {
		Integer completed = cell.requests().completed();
		return completed == null ? !cell.metrics().isEmpty() : completed > 0;
	}

}
