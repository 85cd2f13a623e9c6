package dev.parity.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.parity.run.Cell;
import dev.parity.run.Sample;

/**
 * {@code outlier}: among at least five completed samples (requests or repetitions) of a metric, one lies further from
 * the median than the outlier z in robust standard deviations. Annotates that metric, naming the sample.
 */
final class Outlier implements CellRule {

	static final String ID = "outlier";

	private static final int MIN_VALUES = 5;

	@Override
	public List<Flag> check(Cell cell, RunContext context) {
		Map<String, List<Double>> byMetric = new LinkedHashMap<>();
		for (Sample sample : cell.samples()) {
			if (sample.ok()) {
				sample.metrics().forEach((metric, value) -> byMetric.computeIfAbsent(metric, m -> new ArrayList<>()).add(value));
			}
		}
		List<Flag> flags = new ArrayList<>();
		byMetric.forEach((metric, values) -> {
			if (values.size() >= MIN_VALUES) {
				check(metric, values, context).ifPresent(flags::add);
			}
		});
		return flags;
	}

	private static Optional<Flag> check(String metric, List<Double> values, RunContext context) {
		double median = SampleStatistics.median(values);
		double mad = SampleStatistics.medianAbsoluteDeviation(values);
		double threshold = context.settings().outlierZ();
		int worst = -1;
		double worstZ = 0;
		int beyond = 0;
		for (int i = 0; i < values.size(); i++) {
			double z = SampleStatistics.robustZ(values.get(i), median, mad);
			if (Thresholds.exceeds(z, threshold)) {
				beyond++;
				if (z > worstZ) {
					worstZ = z;
					worst = i;
				}
			}
		}
		if (worst < 0) {
			return Optional.empty();
		}
		String unit = context.metrics().definition(metric).unit();
		String more = beyond > 1 ? " (and " + (beyond - 1) + " more beyond z " + Figures.number(threshold) + ")" : "";
		return Optional.of(Flag.annotationOf(ID, metric, "run " + (worst + 1) + " of " + values.size() + ": "
				+ Figures.value(values.get(worst), unit) + " vs median " + Figures.value(median, unit), metric + ": run " + (worst + 1) + " of " + values.size()
				+ ": " + Figures.value(values.get(worst), unit) + " vs median " + Figures.value(median, unit)
				+ " (robust z " + Figures.number(worstZ) + ", over " + Figures.number(threshold) + ")" + more
				+ " — cold or cached? warm up before measuring and repeat the cell"));
	}

}
