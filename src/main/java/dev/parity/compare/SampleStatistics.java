package dev.parity.compare;

import java.util.Arrays;
import java.util.Collection;

/**
 * The few statistics the rules need: interpolated median, mean, population standard
 * deviation, median absolute deviation and the robust z built from it.
 */
final class SampleStatistics {

	/** MAD × 1.4826 estimates the standard deviation of normally distributed values. */
	private static final double MAD_TO_SD = 1.4826;

	private SampleStatistics() {
	}

	/**
	 * The median, interpolated between the two middle values of an even count; must not
	 * be empty.
	 */
	static double median(Collection<Double> values) {
		double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
		if (sorted.length == 0) {
			throw new IllegalArgumentException("no median of nothing");
		}
		int middle = sorted.length / 2;
		return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	}

	static double mean(Collection<Double> values) {
		return values.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
	}

	/** Standard deviation over the values themselves (divided by n, not n − 1). */
	static double populationSd(Collection<Double> values) {
		double mean = mean(values);
		return Math.sqrt(values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum() / values.size());
	}

	static double medianAbsoluteDeviation(Collection<Double> values) {
		double median = median(values);
		return median(values.stream().map(v -> Math.abs(v - median)).toList());
	}

	/**
	 * A metric's values summarised at once, as {@link #median}, {@link #mean},
	 * {@link #populationSd}, {@link #medianAbsoluteDeviation} and min and max of the same
	 * values give them, to the last bit (the sums in the same order), with one sort of
	 * the values and one of their deviations instead of a boxed copy and a sort each:
	 * ingest summarises every cell × metric of an upload.
	 */
	record Summary(double median, double mean, double populationSd, double mad, double min, double max) {

		/** Of {@code values} in their order; must not be empty. */
		static Summary of(double[] values) {
			if (values.length == 0) {
				throw new IllegalArgumentException("no median of nothing");
			}
			double[] sorted = values.clone();
			Arrays.sort(sorted);
			double median = middle(sorted);
			double mean = Arrays.stream(values).average().orElseThrow();
			double sd = Math.sqrt(Arrays.stream(values).map(v -> (v - mean) * (v - mean)).sum() / values.length);
			double[] deviations = new double[values.length];
			for (int i = 0; i < values.length; i++) {
				deviations[i] = Math.abs(values[i] - median);
			}
			Arrays.sort(deviations);
			return new Summary(median, mean, sd, middle(deviations), sorted[0], sorted[sorted.length - 1]);
		}

		private static double middle(double[] sorted) {
			int middle = sorted.length / 2;
			return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
		}

	}

	/**
	 * How far a value lies from the median in robust standard deviations: |x − median| /
	 * (1.4826 · max(MAD, 1 % of median)). The 1 % floor keeps near-identical repetitions
	 * from turning noise into outliers. {@code NaN} when the scale is 0.
	 */
	static double robustZ(double value, double median, double mad) {
		double scale = MAD_TO_SD * Math.max(mad, 0.01 * Math.abs(median));
		return scale == 0 ? Double.NaN : Math.abs(value - median) / scale;
	}

}
