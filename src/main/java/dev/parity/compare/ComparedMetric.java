package dev.parity.compare;

import java.util.List;
import java.util.Set;

import dev.parity.run.MetricDefinition;
import dev.parity.stats.RatioInterval;
import dev.parity.stats.Verdict;
import org.jspecify.annotations.Nullable;

/**
 * One metric of a matched cell: both values of the compared statistic, their ratio,
 * whether it counts, and every flag a reader of this number must see.
 *
 * @param metric the metric's name
 * @param definition its unit and direction
 * @param baseline the baseline's value of the compared statistic; {@code null} when
 * absent
 * @param contender the contender's value of the compared statistic; {@code null} when
 * absent
 * @param ratio contender / baseline, raw, shown even when greyed; {@code null} without
 * both values
 * @param comparable whether the ratio counts: both values present and no flag greys this
 * metric here
 * @param flags every flag that greys or annotates this metric here: the comparison's,
 * both runs' (with their side), the cell's and the metric's own
 * @param interval the ratio's 95 % interval; {@code null} when the runs give none or the
 * value is not comparable
 * @param verdict the ratio against the band in the metric's direction; {@code null} when
 * not comparable
 * @param significant whether the Benjamini–Hochberg-adjusted p-value is ≤ 0.05 across the
 * comparison; {@code null} without a p-value
 */
public record ComparedMetric(String metric, MetricDefinition definition, @Nullable Double baseline,
		@Nullable Double contender, @Nullable Double ratio, boolean comparable, List<Flag> flags,
		@Nullable RatioInterval interval, @Nullable Verdict verdict, @Nullable Boolean significant) {

	private static final Set<String> TIME_UNITS = Set.of("s", "ms", "us", "µs", "ns", "min", "h");

	public ComparedMetric {
		flags = List.copyOf(flags);
	}

	/** A metric without interval, verdict or significance. */
	public ComparedMetric(String metric, MetricDefinition definition, @Nullable Double baseline,
			@Nullable Double contender, @Nullable Double ratio, boolean comparable, List<Flag> flags) {
		this(metric, definition, baseline, contender, ratio, comparable, flags, null, null, null);
	}

	/** This metric with its significance across the comparison. */
	ComparedMetric withSignificance(@Nullable Boolean significant) {
		return new ComparedMetric(metric, definition, baseline, contender, ratio, comparable, flags, interval, verdict,
				significant);
	}

	/**
	 * The verdict in words, e.g. {@code within the band}; {@code null} without a verdict.
	 */
	public @Nullable String verdictWords() {
		return verdict == null ? null : verdict.words();
	}

	/**
	 * The interval in the metric's words, e.g. {@code 95 % interval 0.962–1.018}; empty
	 * without one.
	 */
	public String intervalPhrase() {
		if (interval == null) {
			return "";
		}
		String caution = interval.caution();
		return "95 % interval " + Figures.ratio(interval.low()) + "–" + Figures.ratio(interval.high())
				+ (caution == null ? "" : " (" + caution + ")");
	}

	/** Whether a flag greys this number. */
	public boolean greyed() {
		return flags.stream().anyMatch(flag -> flag.greys(metric));
	}

	/**
	 * The ratio said in the metric's direction: {@code +6.4 %} / {@code −5.0 %} when
	 * higher is better; {@code 27 % less time (1.37× faster)} /
	 * {@code +12 % more time (1.12× slower)} for times; {@code −27 % (1.37×
	 * better)} for other lower-is-better metrics.
	 */
	public String ratioPhrase() {
		if (ratio == null) {
			return "no ratio";
		}
		if (ratio == 1) {
			return "no change";
		}
		double change = ratio - 1;
		if (definition.higherIsBetter() || ratio <= 0) {
			return Figures.change(change);
		}
		boolean time = TIME_UNITS.contains(definition.unit());
		if (ratio < 1) {
			String factor = Figures.factor(1 / ratio);
			return time ? Figures.percent(change) + " less time (" + factor + " faster)"
					: Figures.change(change) + " (" + factor + " better)";
		}
		String factor = Figures.factor(ratio);
		return time ? Figures.change(change) + " more time (" + factor + " slower)"
				: Figures.change(change) + " (" + factor + " worse)";
	}

}
