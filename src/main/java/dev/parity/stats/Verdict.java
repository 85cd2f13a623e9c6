package dev.parity.stats;

import org.jspecify.annotations.Nullable;

/**
 * What a ratio says against the band, in the metric's direction: from its interval when
 * it has one, else from the point ratio.
 */
public enum Verdict {

	/** The interval (or the ratio) lies inside ±band. */
	WITHIN_BAND("within-band", "within the band"),

	/** Entirely beyond the band on the better side. */
	BETTER("better", "better"),

	/** Entirely beyond the band on the worse side. */
	WORSE("worse", "worse"),

	/** The interval crosses an edge of the band: the runs cannot tell. */
	INCONCLUSIVE("inconclusive", "inconclusive: the interval crosses the band");

	private final String id;

	private final String words;

	Verdict(String id, String words) {
		this.id = id;
		this.words = words;
	}

	public String id() {
		return id;
	}

	public String words() {
		return words;
	}

	/**
	 * The verdict of a ratio contender / baseline.
	 * @param ratio the point ratio
	 * @param interval its interval, {@code null} when there is none
	 * @param band the band, a fraction (0.10 for ±10 %)
	 * @param higherIsBetter the metric's direction
	 */
	public static Verdict of(double ratio, @Nullable RatioInterval interval, double band, boolean higherIsBetter) {
		double low = interval == null ? ratio : interval.low();
		double high = interval == null ? ratio : interval.high();
		// Inclusive, as "within the band" is everywhere: |ratio − 1| ≤ band, up to
		// rounding (1.1 − 1 ≠ 0.1).
		double slack = 1e-9 * Math.max(1, band);
		double lowEdge = 1 - band - slack;
		double highEdge = 1 + band + slack;
		if (low >= lowEdge && high <= highEdge) {
			return WITHIN_BAND;
		}
		if (high < lowEdge) {
			return higherIsBetter ? WORSE : BETTER;
		}
		if (low > highEdge) {
			return higherIsBetter ? BETTER : WORSE;
		}
		return INCONCLUSIVE;
	}

}
