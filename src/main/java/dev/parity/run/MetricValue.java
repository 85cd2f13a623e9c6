package dev.parity.run;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * One metric of one cell: a single number (the median over the cell's requests, or the
 * one aggregate value for throughputs) or a statistics object
 * ({@code median, mean, std, min, max,
 * p1 … p99}).
 *
 * @param statistics the statistics by name; a single number is held as {@code median}
 * @param single whether the document gave a single number rather than an object
 */
public record MetricValue(Map<String, Double> statistics, boolean single) {

	public static final String MEDIAN = "median";

	public MetricValue {
		statistics = Collections.unmodifiableMap(new LinkedHashMap<>(statistics));
	}

	public static MetricValue of(double value) {
		return new MetricValue(Map.of(MEDIAN, value), true);
	}

	/**
	 * The value of a statistic; {@code median} and {@code p50} are the same statistic. A
	 * mean is never returned for a median, nor the other way round.
	 */
	public OptionalDouble statistic(String name) {
		Double value = statistics.get(name);
		if (value == null && (MEDIAN.equals(name) || "p50".equals(name))) {
			value = statistics.getOrDefault(MEDIAN, statistics.get("p50"));
		}
		return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
	}

	public OptionalDouble median() {
		return statistic(MEDIAN);
	}

	public OptionalDouble mean() {
		return statistic("mean");
	}

}
