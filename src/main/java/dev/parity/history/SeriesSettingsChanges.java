package dev.parity.history;

import dev.parity.audit.AuditTrail;

import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A series' own settings, changed by a user and recorded in the audit trail; the series
 * is analysed again under them.
 */
@Service
public class SeriesSettingsChanges {

	private final SeriesRepository series;

	private final HistorySettings settings;

	private final SeriesUpdates updates;

	private final AuditTrail audit;

	private final TransactionTemplate transaction;

	SeriesSettingsChanges(SeriesRepository series, HistorySettings settings, SeriesUpdates updates, AuditTrail audit,
			PlatformTransactionManager transactions) {
		this.series = series;
		this.settings = settings;
		this.updates = updates;
		this.audit = audit;
		this.transaction = new TransactionTemplate(transactions);
		this.transaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
	}

	/**
	 * Changes a series' settings (null fields: the server's defaults), records who did
	 * it, and analyses the series again under them before answering. Alerts follow: those
	 * whose change points are gone are withdrawn.
	 * @throws IllegalArgumentException naming the setting that is out of range; nothing
	 * is stored then
	 */
	public SeriesSettings changeSettings(String seriesId, SeriesRepository.Overrides overrides, String by) {
		SeriesSettings effective = overrides.over(settings.seriesDefaults());
		transaction.executeWithoutResult(status -> {
			series.lock(seriesId);
			SeriesRepository.Overrides before = series.overrides(seriesId);
			series.saveOverrides(seriesId, overrides, by);
			audit.done("series.settings", seriesId, "from " + describe(before) + " to " + describe(overrides));
			series.enqueue(seriesId, null, "settings");
		});
		updates.catchUp(seriesId);
		return effective;
	}

	private static String describe(SeriesRepository.Overrides o) {
		return "window=" + o.window() + ", max_pvalue=" + o.maxPvalue() + ", alert_magnitude=" + o.alertMagnitude()
				+ ", confirm_after=" + o.confirmAfter() + ", vary=" + o.vary() + ", alert_improvements="
				+ o.alertImprovements() + " (null: the server's default)";
	}

}
