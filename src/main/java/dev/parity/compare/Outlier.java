package dev.parity.compare;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import dev.parity.run.Cell;
import dev.parity.run.SampleSummary;

/**
 * {@code outlier}: among at least five completed samples (requests or repetitions) of a
 * metric, one lies further from the median than the outlier z in robust standard
 * deviations. Annotates that metric, naming the sample.
 */
final class Outlier implements CellRule {

	static final String ID = "outlier";

	private static final int MIN_VALUES = 5;

	@Override
	public List<Flag> check(Cell cell, RunContext context) {
		// In order of first appearance among the completed samples.
		List<SampleSummary.Values> byMetric = context.summary(cell)
			.metrics()
			.stream()
			.filter(values -> values.okPosition() >= 0)
			.sorted(Comparator.comparingInt(SampleSummary.Values::okPosition))
			.toList();
		List<Flag> flags = new ArrayList<>();
		for (SampleSummary.Values values : byMetric) {
			if (values.count() >= MIN_VALUES && values.worstIndex() > 0) {
				flags.add(flag(values, context));
			}
		}
		return flags;
	}

	/**
	 * The value furthest beyond the outlier z, as the cell's sample statistics found it.
	 */
	private static Flag flag(SampleSummary.Values values, RunContext context) {
		String metric = values.name();
		double median = values.median();
		double threshold = context.settings().outlierZ();
		String unit = context.metrics().definition(metric).unit();
		int beyond = values.beyond();
		String more = beyond > 1 ? " (and " + (beyond - 1) + " more beyond z " + Figures.number(threshold) + ")" : "";
		return Flag.annotationOf(ID, metric,
				"run " + values.worstIndex() + " of " + values.count() + ": " + Figures.value(values.worstValue(), unit)
						+ " vs median " + Figures.value(median, unit),
				metric + ": run " + values.worstIndex() + " of " + values.count() + ": "
						+ Figures.value(values.worstValue(), unit) + " vs median " + Figures.value(median, unit)
						+ " (robust z " + Figures.number(values.worstZ()) + ", over " + Figures.number(threshold) + ")"
						+ more + " — cold or cached? warm up before measuring and repeat the cell");
	}

}
