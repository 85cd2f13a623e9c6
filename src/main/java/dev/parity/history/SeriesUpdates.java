package dev.parity.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.parity.run.Role;
import dev.parity.run.Run;
import dev.parity.run.RunId;
import dev.parity.run.RunRepository;
import dev.parity.run.RunStored;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.event.TransactionPhase;
import org.springframework.transaction.event.TransactionalEventListener;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Keeps series up to date as runs arrive: after a new run's upload has committed (never inside it), the run joins
 * the series of its key and that one series — no other — is analysed again, and its alerts reconciled. The analysis
 * is a function of the series' runs in series order, so runs uploaded out of order give the same result.
 */
@Service
public class SeriesUpdates {

	private static final Logger log = LoggerFactory.getLogger(SeriesUpdates.class);

	private final RunRepository runs;

	private final SeriesRepository series;

	private final HistorySettings settings;

	private final Alerts alerts;

	private final TransactionTemplate transaction;

	private final SeriesAnalyser analyser = new SeriesAnalyser();

	private final JsonMapper json = SeriesRepository.mapper();

	SeriesUpdates(RunRepository runs, SeriesRepository series, HistorySettings settings, Alerts alerts,
			PlatformTransactionManager transactions) {
		this.runs = runs;
		this.series = series;
		this.settings = settings;
		this.alerts = alerts;
		this.transaction = new TransactionTemplate(transactions);
		this.transaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
	}

	/** After the upload's commit: a failure here is logged, and never reaches the uploader. */
	@TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT)
	void runStored(RunStored stored) {
		try {
			update(stored.id());
		}
		catch (RuntimeException ex) {
			log.error("history: cannot update the series of run {}", stored.id(), ex);
		}
	}

	/** Puts the run in its series (a measured run only) and analyses that series again; returns the series id. */
	public java.util.Optional<String> update(RunId id) {
		return transaction.execute(status -> {
			Run run = runs.find(id).orElse(null);
			if (run == null || run.role() != Role.MEASURED) {
				return java.util.Optional.<String>empty();
			}
			SeriesKey key = SeriesKey.of(run.provenance(), settings.defaultBranch());
			series.join(key, id.value());
			reanalyse(key.id());
			return java.util.Optional.of(key.id());
		});
	}

	/** Analyses one series again from its runs, stores the analysis and reconciles its alerts (in the caller's transaction). */
	public SeriesAnalysis reanalyse(String seriesId) {
		series.lock(seriesId);
		List<String> ids = series.runIds(seriesId);
		Map<RunId, Run> loaded = runs.findAll(ids.stream().map(RunId::new).toList());
		List<Run> ordered = new ArrayList<>(ids.size());
		ids.forEach(runId -> ordered.add(loaded.get(new RunId(runId))));
		SeriesSettings seriesSettings = series.settings(seriesId, settings.seriesDefaults());
		SeriesAnalysis analysis = analyser.analyse(ordered, series.retracted(ids), seriesSettings);
		series.saveAnalysis(seriesId, ids.size(), ids.isEmpty() ? null : ids.get(ids.size() - 1),
				json.writeValueAsString(analysis));
		alerts.reconcile(seriesId, analysis, seriesSettings);
		return analysis;
	}

	/** The stored analysis of a series. */
	public java.util.Optional<SeriesAnalysis> analysis(String seriesId) {
		java.util.Optional<String> stored = series.analysisJson(seriesId);
		// A series restored from a backup has no analysis (it is computed again, not kept); one of whose runs was
		// retracted since has a stale one.
		if (stored.isEmpty() ? series.key(seriesId).isPresent() : series.retractedSinceAnalysis(seriesId)) {
			return java.util.Optional.ofNullable(transaction.execute(status -> reanalyse(seriesId)));
		}
		return stored.map(text -> json.readValue(text, SeriesAnalysis.class));
	}

}
