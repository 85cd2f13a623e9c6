package dev.parity.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.parity.run.Run;
import dev.parity.run.RunId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The analyses of series: one computed from its runs' facts and pairs (going on from the
 * analysis kept here when runs were only appended), stored with its series' alerts
 * reconciled; and the latest of each series kept in memory while it is the one stored.
 */
@Component
class SeriesAnalyses {

	/**
	 * Series updates that went on from the analysis kept before them (runs appended
	 * only), the others from the start.
	 */
	private static final Counter CONTINUED = Counter.builder("parity.series.update.continued")
		.description("Series updates that went on from the kept analysis (runs appended at the end only)")
		.register(Metrics.globalRegistry);

	private final SeriesRepository series;

	private final HistorySettings settings;

	private final Alerts alerts;

	private final SeriesFacts facts;

	private final TransactionTemplate transaction;

	private final SeriesAnalyser analyser = new SeriesAnalyser();

	private final JsonMapper json = SeriesRepository.mapper();

	/**
	 * The latest analysis of each series read or computed here, with its points, by
	 * series id and served while the stored analysis has the same version (a new run, a
	 * retraction or new settings store a new one, here or on another instance); bounded
	 * by the points it holds.
	 */
	private final Cache<String, Kept> analyses = Caffeine.newBuilder()
		.maximumWeight(2_000_000)
		.weigher((String key, Kept value) -> 1 + value.points())
		.build();

	/**
	 * An analysis and its version, and — when this instance computed it — what the next
	 * analysis of the series can go on from when runs are only appended: where this one
	 * ended, then where the few before it ended, the newest first. A run uploaded a
	 * moment before another but stored after it (CI jobs end in any order) goes before
	 * the end of its series, and the update goes on from the analysis that ended before
	 * it rather than from the start.
	 */
	private record Kept(long version, SeriesAnalysis analysis, List<Ended> goesOnFrom) {

		/** An analysis read, not computed here: nothing to go on from. */
		Kept(long version, SeriesAnalysis analysis) {
			this(version, analysis, List.of());
		}

		/**
		 * Its points; half as many again for each analysis an update can go on from (each
		 * point's value kept for detection).
		 */
		int points() {
			int points = analysis.cells()
				.stream()
				.flatMap(c -> c.metrics().values().stream())
				.mapToInt(List::size)
				.sum();
			return points + points / 2 * goesOnFrom.size();
		}

	}

	/** Where an analysis computed here ended, and its stored text. */
	private record Ended(SeriesAnalyser.Continuation continuation, StoredAnalysis.Text text) {
	}

	/** How many analyses before the latest are kept to go on from. */
	private static final int EARLIER = 4;

	SeriesAnalyses(SeriesRepository series, HistorySettings settings, Alerts alerts, SeriesFacts facts,
			PlatformTransactionManager transactions) {
		this.series = series;
		this.settings = settings;
		this.alerts = alerts;
		this.facts = facts;
		this.transaction = new TransactionTemplate(transactions);
		this.transaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
	}

	/**
	 * Analyses one series from its runs' facts and pairs — computing those it lacks —
	 * stores the analysis and reconciles its alerts (in the caller's transaction).
	 */
	SeriesAnalysis reanalyse(String seriesId) {
		series.lock(seriesId);
		SeriesSettings seriesSettings = series.settings(seriesId, settings.seriesDefaults());
		String key = SeriesFacts.factsKey(seriesSettings);
		List<String> ids = series.runIds(seriesId);
		Set<String> retracted = series.retracted(ids);
		// The last analysis computed here, when these runs are its runs and more after
		// them (the same retractions and
		// settings): the new one goes on from it, with the facts and pairs of the runs
		// appended only.
		Kept kept = analyses.getIfPresent(seriesId);
		Ended goesOn = kept == null ? null
				: kept.goesOnFrom()
					.stream()
					.filter(ended -> ended.continuation().continues(ids, retracted, seriesSettings))
					.findFirst()
					.orElse(null);
		SeriesAnalyser.Continuation from = goesOn == null ? null : goesOn.continuation();
		int known = from == null ? 0 : from.runs().size();
		// A new run is loaded once, for its facts and for its pair.
		Map<RunId, Run> loaded = new HashMap<>();
		List<RunFacts> ordered = new ArrayList<>(ids.size());
		if (from != null) {
			ordered.addAll(from.runs());
		}
		ordered.addAll(facts.facts(ids.subList(known, ids.size()), key, seriesSettings, loaded));
		Map<String, RunPair> needed = facts.pairs(ordered, known, retracted, key, seriesSettings, loaded);
		SeriesAnalyser.Analysed analysed = analyser.analyse(ordered, needed, retracted, seriesSettings, from);
		SeriesAnalysis analysis = analysed.analysis();
		if (known > 0 && analysed.from() == known) {
			CONTINUED.increment();
		}
		// Gone on from the kept analysis, the runs and events it stored are the first of
		// these: their text is kept.
		StoredAnalysis.Text text = StoredAnalysis.write(json, analysis, retracted,
				known > 0 && analysed.from() == known ? goesOn.text() : null);
		long version = series.saveAnalysis(seriesId, ids.size(), ids.isEmpty() ? null : ids.get(ids.size() - 1),
				text.json());
		alerts.reconcile(seriesId, analysis, seriesSettings);
		// Kept under the version it was stored with once that is committed: should this
		// transaction roll back, no
		// read finds that version and no update goes on from it.
		List<Ended> goesOnFrom = new ArrayList<>();
		if (analysed.continuation() != null) {
			goesOnFrom.add(new Ended(analysed.continuation(), text));
			if (kept != null) {
				kept.goesOnFrom().stream().limit(EARLIER).forEach(goesOnFrom::add);
			}
		}
		Kept next = new Kept(version, analysis, List.copyOf(goesOnFrom));
		if (TransactionSynchronizationManager.isSynchronizationActive()) {
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
				@Override
				public void afterCommit() {
					keep(seriesId, next);
				}
			});
		}
		else {
			keep(seriesId, next);
		}
		return analysis;
	}

	/**
	 * Keeps an analysis: an update's always (updates of a series are one at a time), a
	 * read's unless it is not newer than the one kept (a read that rebuilt the stored
	 * analysis while the update that stored it, or a later one, was committing would
	 * replace what the next update can go on from).
	 */
	private void keep(String seriesId, Kept next) {
		analyses.asMap()
			.merge(seriesId, next,
					(old, fresh) -> !fresh.goesOnFrom().isEmpty() || fresh.version() > old.version() ? fresh : old);
	}

	/**
	 * The analysis of a series stored under this version: the one kept in memory while it
	 * is that one, else the stored one with its points rebuilt from the runs' facts.
	 */
	Optional<SeriesAnalysis> current(String seriesId, long version) {
		Kept kept = analyses.getIfPresent(seriesId);
		if (kept != null && kept.version() == version) {
			return Optional.of(kept.analysis());
		}
		return series.analysisJson(seriesId).map(stored -> {
			SeriesAnalysis analysis = stored(seriesId, stored.json());
			keep(seriesId, new Kept(stored.version(), analysis));
			return analysis;
		});
	}

	/**
	 * The stored analysis of a series as it is stored, with its points rebuilt from the
	 * runs' facts; not kept.
	 */
	Optional<SeriesAnalysis> stored(String seriesId) {
		return series.analysisJson(seriesId).map(stored -> stored(seriesId, stored.json()));
	}

	private SeriesAnalysis stored(String seriesId, String text) {
		StoredAnalysis kept = json.readValue(text, StoredAnalysis.class);
		SeriesSettings seriesSettings = series.settings(seriesId, settings.seriesDefaults());
		List<RunFacts> ordered = transaction.execute(status -> facts.facts(kept.runIds(),
				SeriesFacts.factsKey(seriesSettings), seriesSettings, new HashMap<>()));
		return kept.withPoints(ordered);
	}

}
