package dev.parity.run;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * One point of a run's grid.
 *
 * @param params grid coordinates, unique within the run
 * @param order 1-based execution order; {@code null} when unknown
 * @param requests how the cell's requests ended
 * @param outputTokens measured output tokens per request (reasoning included);
 * {@code null} when not measured
 * @param reasoningTokens measured reasoning tokens per request, where the harness
 * separates them
 * @param metrics metric values by name; a metric written as {@code null} is absent
 * @param samples per-request or per-repetition values, in completion order; none when
 * read without them
 * @param statistics what the checks read of the samples, as stored at ingest, when the
 * cell was read without its samples
 * ({@link RunRepository#findAll(java.util.Collection, String)}); {@code null} when read
 * with them
 */
public record Cell(Params params, @Nullable Integer order, RequestCounts requests, @Nullable TokenStats outputTokens,
		@Nullable TokenStats reasoningTokens, Map<String, MetricValue> metrics, List<Sample> samples,
		@Nullable SampleSummary statistics) {

	public Cell {
		metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
		samples = List.copyOf(samples);
	}

	/** A cell with its samples. */
	public Cell(Params params, @Nullable Integer order, RequestCounts requests, @Nullable TokenStats outputTokens,
			@Nullable TokenStats reasoningTokens, Map<String, MetricValue> metrics, List<Sample> samples) {
		this(params, order, requests, outputTokens, reasoningTokens, metrics, samples, null);
	}

	public String anchor() {
		return params.anchor();
	}

	public Optional<MetricValue> metric(String name) {
		return Optional.ofNullable(metrics.get(name));
	}

	/** The measured median output tokens per request, if measured. */
	public Optional<Double> medianOutputTokens() {
		return Optional.ofNullable(outputTokens).map(TokenStats::median);
	}

	/**
	 * A metric's values over the completed samples that record it, in completion order.
	 */
	public double[] sampleValues(String metric) {
		return samples.stream()
			.filter(Sample::ok)
			.map(sample -> sample.metrics().get(metric))
			.filter(Objects::nonNull)
			.mapToDouble(Double::doubleValue)
			.toArray();
	}

}
