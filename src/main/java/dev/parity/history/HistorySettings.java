package dev.parity.history;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The server's defaults for history ({@code parity.history.*}); a series may override the
 * analysis settings.
 *
 * @param defaultBranch the branch of a run that names none
 * @param window E-Divisive's sliding window, in points
 * @param maxPvalue the significance a change point must reach
 * @param alertMagnitude the relative change a regression must reach to alert
 * @param confirmAfter the non-greyed points after a change point before it alerts
 * @param alertImprovements whether improvements alert too
 */
@ConfigurationProperties("parity.history")
public record HistorySettings(@DefaultValue("main") String defaultBranch, @DefaultValue("50") int window,
		@DefaultValue("0.001") double maxPvalue, @DefaultValue("0.05") double alertMagnitude,
		@DefaultValue("3") int confirmAfter, @DefaultValue("false") boolean alertImprovements) {

	/** The analysis settings of a series without overrides. */
	public SeriesSettings seriesDefaults() {
		return new SeriesSettings(window, maxPvalue, alertMagnitude, confirmAfter, "engine", alertImprovements);
	}

}
