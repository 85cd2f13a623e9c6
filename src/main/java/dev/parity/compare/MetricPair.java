package dev.parity.compare;

import dev.parity.run.MetricValue;
import org.jspecify.annotations.Nullable;

/**
 * One metric of a matched pair of cells, as each side reports it.
 *
 * @param metric the metric's name
 * @param baseline the baseline's value; {@code null} when it does not report the metric
 * @param contender the contender's value; {@code null} when it does not report the metric
 */
record MetricPair(String metric, @Nullable MetricValue baseline, @Nullable MetricValue contender) {

	/** The baseline's value of the compared statistic, if it reports it. */
	@Nullable Double baselineValue(String stat) {
		return value(baseline, stat);
	}

	/** The contender's value of the compared statistic, if it reports it. */
	@Nullable Double contenderValue(String stat) {
		return value(contender, stat);
	}

	/**
	 * Contender / baseline for the compared statistic; {@code null} without both values
	 * or with a zero baseline.
	 */
	@Nullable Double ratio(String stat) {
		Double base = baselineValue(stat);
		Double other = contenderValue(stat);
		return base == null || other == null || base == 0 ? null : other / base;
	}

	private static @Nullable Double value(@Nullable MetricValue value, String stat) {
		if (value == null) {
			return null;
		}
		var statistic = value.statistic(stat);
		return statistic.isPresent() ? statistic.getAsDouble() : null;
	}

}
