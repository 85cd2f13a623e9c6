package dev.parity.compare;

/**
 * What to check before measuring a control run, and what Parity then checks of it: a
 * setting accepted is not a setting obeyed.
 *
 * @param measure what is measured, e.g. {@code output tokens per request}
 * @param target the value to reach
 * @param tolerance how far from the target still counts, a fraction of it
 */
public record ControlCheck(String measure, double target, double tolerance) {

	public static final String OUTPUT_TOKENS = "output tokens per request";

	/** Whether a measured value is within the tolerance of the target. */
	public boolean met(double measured) {
		return target > 0 && !Thresholds.differsByMoreThan(measured, target, tolerance);
	}

}
