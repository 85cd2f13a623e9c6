package dev.parity.history;

import java.util.List;

/**
 * How a series is analysed: E-Divisive's window and significance, when a change point
 * alerts, and what varies along the series (the engine build by default;
 * {@code checkpoint}, {@code flags} or {@code environment}).
 */
public record SeriesSettings(int window, double maxPvalue, double alertMagnitude, int confirmAfter, String vary,
		boolean alertImprovements) {

	/** What a series may vary. */
	public static final List<String> VARIES = List.of("engine", "checkpoint", "flags", "environment");

	public SeriesSettings {
		if (window < 2) {
			throw new IllegalArgumentException("window must be at least 2 points, not " + window);
		}
		if (!(maxPvalue > 0 && maxPvalue < 1)) {
			throw new IllegalArgumentException("max_pvalue must be between 0 and 1, not " + maxPvalue);
		}
		if (!(alertMagnitude >= 0) || Double.isInfinite(alertMagnitude)) {
			throw new IllegalArgumentException("alert_magnitude must be a number ≥ 0, not " + alertMagnitude);
		}
		if (confirmAfter < 0) {
			throw new IllegalArgumentException("confirm_after must be at least 0, not " + confirmAfter);
		}
		if (!VARIES.contains(vary)) {
			throw new IllegalArgumentException(
					"vary must be one of " + String.join(", ", VARIES) + ", not '" + vary + "'");
		}
	}

}
