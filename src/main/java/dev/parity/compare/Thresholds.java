package dev.parity.compare;

/**
 * Threshold tests as src/docs/design/PRODUCT.md states them ("more than", strictly),
 * immune to rounding: 563.2 / 512 − 1 is 0.10000000000000009 in binary floating point,
 * yet it is exactly 10 % and must not fire at a 10 % tolerance.
 */
final class Thresholds {

	/**
	 * Relative slack far below any meaningful difference and far above double rounding
	 * error.
	 */
	private static final double EPSILON = 1e-9;

	private Thresholds() {
	}

	/**
	 * {@code value > threshold}, a value equal to the threshold up to rounding not
	 * exceeding it.
	 */
	static boolean exceeds(double value, double threshold) {
		return value > threshold + slack(threshold);
	}

	/**
	 * {@code value < threshold}, a value equal to the threshold up to rounding not
	 * falling below it.
	 */
	static boolean below(double value, double threshold) {
		return value < threshold - slack(threshold);
	}

	/**
	 * "Differs by more than": |value / reference − 1| > tolerance, the reference
	 * (baseline or declared) as denominator.
	 */
	static boolean differsByMoreThan(double value, double reference, double tolerance) {
		return exceeds(Math.abs(value / reference - 1), tolerance);
	}

	private static double slack(double threshold) {
		return EPSILON * Math.max(1, Math.abs(threshold));
	}

}
