package dev.parity.run;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What the checks and comparisons read of a cell's per-request samples, in a few numbers:
 * computed from the samples ({@code compare.SampleSummaries}) or read back as ingest
 * stored them ({@link CellStatistics}); both give the same numbers. Values are over the
 * completed samples, in completion order.
 *
 * @param samples how many samples the cell has, of any status
 * @param metrics one entry per metric the samples record (of any status), in order of
 * first appearance
 * @param outputTokens the completed samples' output tokens; {@code null} when none
 * records them
 * @param computedUnder the thresholds {@link Values#beyond} was counted under
 * ({@link CellStatistics#computedUnder})
 */
public record SampleSummary(int samples, List<Values> metrics, @Nullable Values outputTokens, String computedUnder) {

	public SampleSummary {
		metrics = List.copyOf(metrics);
	}

	/**
	 * One metric's (or the output tokens') values over the completed samples.
	 *
	 * @param name the metric
	 * @param okPosition the order of first appearance among the completed samples;
	 * {@code -1} when none has it
	 * @param count how many completed samples record it
	 * @param median the interpolated median; {@code NaN} with no value (as are the other
	 * statistics)
	 * @param mean the mean
	 * @param sd the population standard deviation (divided by n)
	 * @param mad the median absolute deviation from the median
	 * @param min the smallest value
	 * @param max the largest value
	 * @param worstIndex 1-based: for a metric, the first value furthest from the median
	 * in robust z, among the values; for output tokens, the first longest request among
	 * all samples (more than 0 tokens); {@code 0} when none
	 * @param worstValue that value
	 * @param worstZ its robust z (a metric only)
	 * @param beyond how many values lie beyond the outlier z (a metric only)
	 */
	public record Values(String name, int okPosition, int count, double median, double mean, double sd, double mad,
			double min, double max, int worstIndex, double worstValue, double worstZ, int beyond) {
	}

	/** The metrics' names in order of first appearance among the samples. */
	public List<String> metricNames() {
		return metrics.stream().map(Values::name).toList();
	}

}
