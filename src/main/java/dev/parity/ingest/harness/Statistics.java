package dev.parity.ingest.harness;

import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * The statistics of one metric in one cell, named as run documents name them
 * ({@code median,
 * mean, std, min, max, p1 … p99}), or a single aggregate value (a throughput).
 *
 * @param values statistic name to value, in the order given
 * @param single whether this is one aggregate value, written as a plain number
 */
record Statistics(Map<String, Double> values, boolean single) {

	private static final Pattern PERCENTILE = Pattern.compile("p(\\d{1,2}(\\.\\d+)?)");

	Statistics {
		values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
	}

	static Statistics single(double value) {
		return new Statistics(Map.of("median", value), true);
	}

	static Builder builder() {
		return new Builder();
	}

	boolean isEmpty() {
		return values.isEmpty();
	}

	@Nullable Double get(String statistic) {
		return values.get(statistic);
	}

	/**
	 * The value that stands for the metric in one number: the single value, else the
	 * median, else the mean.
	 */
	@Nullable Double representative() {
		Double median = values.get("median");
		return median != null ? median : values.get("mean");
	}

	/**
	 * The same statistics in the order documents write them: median, mean, std, min, max,
	 * then percentiles ascending.
	 */
	Statistics inDocumentOrder() {
		Map<String, Double> ordered = new LinkedHashMap<>();
		for (String name : List.of("median", "mean", "std", "min", "max")) {
			if (values.containsKey(name)) {
				ordered.put(name, values.get(name));
			}
		}
		values.keySet()
			.stream()
			.filter(name -> name.startsWith("p"))
			.sorted(Comparator.comparingDouble(name -> Double.parseDouble(name.substring(1))))
			.forEach(name -> ordered.put(name, values.get(name)));
		return new Statistics(ordered, single);
	}

	/**
	 * Collects statistics under their document names: {@code avg} is the mean,
	 * {@code p50} the median, {@code stddev}/{@code std_dev} the std; absent and
	 * non-finite values are skipped.
	 */
	static final class Builder {

		private final Map<String, Double> values = new LinkedHashMap<>();

		Builder put(String statistic, @Nullable Double value) {
			String name = name(statistic);
			if (name != null && value != null && Double.isFinite(value)) {
				values.putIfAbsent(name, value);
			}
			return this;
		}

		Statistics build() {
			return new Statistics(values, false);
		}

		/**
		 * The document name of a harness's statistic, or {@code null} when it has none.
		 */
		static @Nullable String name(String statistic) {
			return switch (statistic) {
				case "median", "p50" -> "median";
				case "mean", "avg", "average" -> "mean";
				case "std", "stddev", "std_dev" -> "std";
				case "min" -> "min";
				case "max" -> "max";
				default -> {
					var matcher = PERCENTILE.matcher(statistic);
					if (!matcher.matches() || Double.parseDouble(matcher.group(1)) < 1) {
						yield null;
					}
					yield "p" + matcher.group(1);
				}
			};
		}

	}

}
