package dev.parity.compare;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import dev.parity.run.Cell;
import dev.parity.run.Sample;
import dev.parity.run.SampleSummary;

/**
 * What a cell measured about its requests, read the same way by every rule.
 */
final class CellMeasures {

	private CellMeasures() {
	}

	/**
	 * The median output tokens per request: the cell's own median, else the interpolated
	 * median of its completed samples. Never the mean, never the declared length.
	 */
	static Optional<Double> medianOutputTokens(Cell cell) {
		Optional<Double> stated = cell.medianOutputTokens();
		if (stated.isPresent()) {
			return stated;
		}
		SampleSummary stored = cell.statistics();
		if (stored != null) {
			return stored.outputTokens() == null ? Optional.empty() : Optional.of(stored.outputTokens().median());
		}
		List<Double> perRequest = outputTokensPerRequest(cell);
		return perRequest.isEmpty() ? Optional.empty() : Optional.of(SampleStatistics.median(perRequest));
	}

	/**
	 * As {@link #medianOutputTokens(Cell)}, with the cell's sample statistics at hand.
	 */
	static Optional<Double> medianOutputTokens(Cell cell, SampleSummary summary) {
		Optional<Double> stated = cell.medianOutputTokens();
		if (stated.isPresent()) {
			return stated;
		}
		return summary.outputTokens() == null ? Optional.empty() : Optional.of(summary.outputTokens().median());
	}

	/**
	 * The output tokens of each completed sample that records them, in completion order.
	 */
	static List<Double> outputTokensPerRequest(Cell cell) {
		return cell.samples().stream().filter(Sample::ok).map(Sample::outputTokens).filter(Objects::nonNull).toList();
	}

	/**
	 * The metrics a cell's samples record (of any status), in order of first appearance.
	 */
	static Collection<String> sampleMetrics(Cell cell) {
		SampleSummary stored = cell.statistics();
		if (stored != null) {
			return stored.metricNames();
		}
		Set<String> names = new LinkedHashSet<>();
		cell.samples().forEach(sample -> names.addAll(sample.metrics().keySet()));
		return names;
	}

	/**
	 * Whether requests completed: the count says so, or, when the count is unknown,
	 * metric values exist.
	 */
	static boolean completedRequests(Cell cell) {
		Integer completed = cell.requests().completed();
		return completed == null ? !cell.metrics().isEmpty() : completed > 0;
	}

}
