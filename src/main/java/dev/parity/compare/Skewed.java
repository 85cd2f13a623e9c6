package dev.parity.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

import dev.parity.run.Cell;

/**
 * {@code skewed}: a metric whose statistics give a mean above the skew factor times its
 * median. Annotates that metric: a few requests dominate the mean. (Output tokens are not
 * a metric here: {@code runaway} covers them.)
 */
final class Skewed implements CellRule {

	static final String ID = "skewed";

	@Override
	public List<Flag> check(Cell cell, RunContext context) {
		double skew = context.settings().skew();
		List<Flag> flags = new ArrayList<>();
		cell.metrics().forEach((metric, value) -> {
			OptionalDouble mean = value.mean();
			OptionalDouble median = value.median();
			if (mean.isEmpty() || median.isEmpty() || median.getAsDouble() <= 0
					|| !Thresholds.exceeds(mean.getAsDouble(), skew * median.getAsDouble())) {
				return;
			}
			String unit = context.metrics().definition(metric).unit();
			flags.add(Flag.annotationOf(ID, metric,
					"mean " + Figures.value(mean.getAsDouble(), unit) + " vs median "
							+ Figures.value(median.getAsDouble(), unit),
					metric + ": mean " + Figures.value(mean.getAsDouble(), unit) + " vs median "
							+ Figures.value(median.getAsDouble(), unit) + " ("
							+ Figures.factor(mean.getAsDouble() / median.getAsDouble()) + ", over "
							+ Figures.factor(skew)
							+ "): a few requests dominate the mean — compare medians (stat=median), not means"));
		});
		return flags;
	}

}
