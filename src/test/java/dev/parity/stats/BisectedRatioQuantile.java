package dev.parity.stats;

import java.util.Optional;

/**
 * The within-run interval's ends as rules before 2026-12-04.2 found them: bisection on
 * the ratio, on a log scale, until within 10⁻¹² of it (relative). Kept as the reference
 * {@link RatioLaw} is checked and timed against ({@code RatioLawTests}, the benchmark's
 * {@code intervals} section).
 */
public final class BisectedRatioQuantile {

	private BisectedRatioQuantile() {
	}

	/**
	 * The smallest ratio r, to within 10⁻¹² relative (at or above it), with P(contender ≤
	 * r · baseline) ≥ q.
	 */
	public static double quantile(MedianLaw baseline, MedianLaw contender, double q) {
		double low = contender.smallest() / baseline.largest();
		double high = contender.largest() / baseline.smallest();
		if (Noise.ratioAtOrBelow(baseline, contender, low, false) >= q) {
			return low;
		}
		while (high - low > 1e-12 * high) {
			double mid = Math.sqrt(low * high);
			if (mid <= low || mid >= high) {
				break;
			}
			if (Noise.ratioAtOrBelow(baseline, contender, mid, false) >= q) {
				high = mid;
			}
			else {
				low = mid;
			}
		}
		return high;
	}

	/** {@link Noise#overSampleLaws} with its ends bisected. */
	public static Optional<RatioInterval> overSampleLaws(MedianLaw baseline, MedianLaw contender) {
		if (!baseline.positive() || !contender.positive()) {
			return Optional.empty();
		}
		return Optional.of(Noise.interval(quantile(baseline, contender, 0.025), quantile(baseline, contender, 0.975),
				baseline, contender));
	}

}
