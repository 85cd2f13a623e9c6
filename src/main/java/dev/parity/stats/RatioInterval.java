package dev.parity.stats;

import org.jspecify.annotations.Nullable;

/**
 * A 95 % interval of a ratio contender / baseline, how it was obtained, and the two-sided
 * p-value of "no change" by the same method.
 *
 * @param low the lower end, a ratio
 * @param high the upper end, a ratio
 * @param confidence the confidence level, {@code 0.95}
 * @param method how: {@link #WELCH}, {@link #BOOTSTRAP_RUNS} or
 * {@link #BOOTSTRAP_SAMPLES}
 * @param pValue the p-value of ratio = 1; {@code null} when the method gives none
 */
public record RatioInterval(double low, double high, double confidence, String method, @Nullable Double pValue) {

	/** Welch's t on the log of each run's value (3–7 runs per side). */
	public static final String WELCH = "welch-t-log";

	/** Percentile bootstrap over runs (8 or more runs per side). */
	public static final String BOOTSTRAP_RUNS = "bootstrap-runs";

	/**
	 * Percentile bootstrap over one run's per-request samples on each side: within-run
	 * noise only.
	 */
	public static final String BOOTSTRAP_SAMPLES = "bootstrap-samples";

	/** What a reader must be told about an interval from samples. */
	public static final String WITHIN_RUN_ONLY = "within-run noise only: run-to-run drift not measured";

	/**
	 * Whether the interval says only how noisy the requests of one run were, not how runs
	 * drift.
	 */
	public boolean withinRunOnly() {
		return BOOTSTRAP_SAMPLES.equals(method);
	}

	/**
	 * The caution that goes with the interval wherever it is shown; {@code null} when
	 * none is needed.
	 */
	public @Nullable String caution() {
		return withinRunOnly() ? WITHIN_RUN_ONLY : null;
	}

}
