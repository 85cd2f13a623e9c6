package dev.parity.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.parity.audit.AuditTrail;
import dev.parity.run.Role;
import dev.parity.run.Run;
import dev.parity.run.RunId;
import dev.parity.run.RunRepository;
import dev.parity.run.JobWorker;
import dev.parity.run.RunStored;
import jakarta.annotation.PreDestroy;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.util.RawValue;

import org.springframework.context.event.EventListener;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.event.TransactionPhase;
import org.springframework.transaction.event.TransactionalEventListener;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Keeps series up to date as runs arrive, incrementally and apart from the upload:
 * <ul>
 * <li>in the upload's transaction, a new measured run joins the series of its key and a
 * job asks for that series' update (so that no update is lost, and the run is in its
 * series the moment it is stored);</li>
 * <li>after the commit, a worker of this instance — or of any other on the same database:
 * jobs are claimed {@code FOR UPDATE SKIP LOCKED}, so each is done once — updates that
 * series, and no other;</li>
 * <li>an update computes the facts of the runs it has not seen (one, for a new run) and
 * the comparison checks of the pairs whose baseline changed (one, for a run appended; two
 * for a run inserted out of order), and keeps both; then the segments, points and change
 * points follow from those facts, without reloading any document;</li>
 * <li>when the runs are those of the analysis kept here with runs appended at the end
 * (the same retractions and settings), the update goes on from where that analysis ended
 * — its pass over the points, the change points of the segments no new point joins,
 * E-Divisive's split of the one they join — and ends in the same analysis; any other
 * change (a run inserted before the end, a retraction, new settings, a restart) analyses
 * the series from the start;</li>
 * <li>a read of a series (page, API, verdict) first does what is waiting for it, so it
 * never shows a series without its newest run.</li>
 * </ul>
 * The analysis is a function of the series' runs in series order, so runs uploaded out of
 * order give the same result.
 */
@Service
public class SeriesUpdates {

	private static final Logger log = LoggerFactory.getLogger(SeriesUpdates.class);

	/**
	 * How long a series update takes, from the claim of its jobs to the commit of its
	 * analysis.
	 */
	private static final io.micrometer.core.instrument.Timer UPDATE_TIME = io.micrometer.core.instrument.Timer
		.builder("parity.series.update")
		.description("Series updates: claim of the series' jobs to the commit of its new analysis")
		.register(io.micrometer.core.instrument.Metrics.globalRegistry);

	/**
	 * Series updates that went on from the analysis kept before them (runs appended
	 * only), the others from the start.
	 */
	private static final io.micrometer.core.instrument.Counter CONTINUED = io.micrometer.core.instrument.Counter
		.builder("parity.series.update.continued")
		.description("Series updates that went on from the kept analysis (runs appended at the end only)")
		.register(io.micrometer.core.instrument.Metrics.globalRegistry);

	/**
	 * What facts and pairs are computed under: the analyser's version and what the
	 * settings change in them.
	 */
	private static final String FACTS_VERSION = "1";

	private final RunRepository runs;

	private final SeriesRepository series;

	private final HistorySettings settings;

	private final Alerts alerts;

	private final TransactionTemplate transaction;

	private final SeriesAnalyser analyser = new SeriesAnalyser();

	private final JsonMapper json = SeriesRepository.mapper();

	/**
	 * Facts by run id and key: runs never change, so an entry is never stale; bounded by
	 * the metrics it holds.
	 */
	private final Cache<String, RunFacts> facts = Caffeine.newBuilder()
		.maximumWeight(2_000_000)
		.weigher((String key, RunFacts value) -> 1 + value.cells().stream().mapToInt(c -> c.metrics().size()).sum())
		.build();

	private final Cache<String, RunPair> pairs = Caffeine.newBuilder().maximumSize(200_000).build();

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
	 * An analysis and its version, and — when this instance computed it — where it ended,
	 * for the next analysis of the series to go on from when runs are only appended.
	 */
	private record Kept(long version, SeriesAnalysis analysis, SeriesAnalyser.@Nullable Continuation continuation,
			StoredAnalysis.@Nullable Text text) {

		/**
		 * Its points; half as many again with what an update goes on from (each point's
		 * value kept for detection).
		 */
		int points() {
			int points = analysis.cells()
				.stream()
				.flatMap(c -> c.metrics().values().stream())
				.mapToInt(List::size)
				.sum();
			return continuation == null ? points : points + points / 2;
		}

	}

	private final JobWorker worker = new JobWorker("series-updates", this::drain);

	private final AuditTrail audit;

	SeriesUpdates(RunRepository runs, SeriesRepository series, HistorySettings settings, Alerts alerts,
			PlatformTransactionManager transactions, AuditTrail audit) {
		this.audit = audit;
		this.runs = runs;
		this.series = series;
		this.settings = settings;
		this.alerts = alerts;
		this.transaction = new TransactionTemplate(transactions);
		this.transaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
	}

	/**
	 * In the upload's transaction: the run joins its series, and the series' update is
	 * asked for. A confirmation rerun ({@code context.confirms}) is not a point of its
	 * series and joins none.
	 */
	@EventListener
	void runStored(RunStored stored) {
		if (stored.role() != Role.MEASURED || series.isRerun(stored.id().value())) {
			return;
		}
		SeriesKey key = SeriesKey.of(stored.provenance(), settings.defaultBranch());
		series.join(key, stored.id().value());
		series.enqueue(key.id(), stored.id().value(), "run-joined");
	}

	/**
	 * After the upload's commit: the worker starts on the waiting updates; the uploader
	 * does not wait for it.
	 */
	@TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT)
	void runCommitted(RunStored stored) {
		wake();
	}

	/**
	 * Every few seconds: updates left by a failure, a restart or another instance that
	 * stopped.
	 */
	@Scheduled(fixedDelayString = "${parity.history.poll:PT10S}", initialDelayString = "${parity.history.poll:PT10S}")
	void poll() {
		wake();
	}

	private void wake() {
		worker.wake();
	}

	@PreDestroy
	void stop() {
		worker.stop();
	}

	/**
	 * Does every due update, series by series, until none is left; returns how many
	 * series it updated.
	 */
	public int drain() {
		int updated = 0;
		while (doNext(null)) {
			updated++;
		}
		return updated;
	}

	/**
	 * Claims the waiting jobs of one series (of {@code seriesId}, or the oldest) and
	 * updates it in one transaction; false when nothing was claimable.
	 */
	private boolean doNext(@Nullable String seriesId) {
		SeriesRepository.Job[] claimed = new SeriesRepository.Job[1];
		try {
			long started = System.nanoTime();
			boolean done = Boolean.TRUE.equals(transaction.execute(status -> {
				Optional<SeriesRepository.Job> job = series.claim(seriesId);
				if (job.isEmpty()) {
					return false;
				}
				claimed[0] = job.get();
				reanalyse(job.get().seriesId());
				series.done(job.get());
				return true;
			}));
			if (done) {
				UPDATE_TIME.record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
			}
			return done;
		}
		catch (RuntimeException ex) {
			if (claimed[0] == null) {
				throw ex;
			}
			log.error("history: cannot update series {} (attempt {})", claimed[0].seriesId(), claimed[0].attempts() + 1,
					ex);
			transaction.executeWithoutResult(status -> series.failed(claimed[0], String.valueOf(ex)));
			return seriesId == null; // a worker goes on with other series; a reader stops
										// here
		}
	}

	/**
	 * Does what is waiting for this series before it is read; jobs a worker (here or on
	 * another instance) is doing are waited for.
	 */
	void catchUp(String seriesId) {
		if (!series.pending(seriesId)) {
			return;
		}
		try {
			for (int attempt = 0; attempt < 3 && doNext(seriesId); attempt++) {
				// one transaction per claim; a job that fails is left to the worker's
				// back-off
			}
		}
		catch (RuntimeException ex) {
			log.error("history: cannot bring series {} up to date before reading it", seriesId, ex);
		}
	}

	/**
	 * Does what is waiting for every series (a list or the alerts are about to be read).
	 */
	public void catchUp() {
		series.pending().forEach(this::catchUp);
	}

	/**
	 * Puts a stored run in its series (a measured run only) and brings that series up to
	 * date now; returns the series id. For runs that joined no series when they were
	 * stored (restored ones) and for tools.
	 */
	public Optional<String> update(RunId id) {
		Optional<String> seriesId = transaction.execute(status -> {
			Run run = runs.find(id).orElse(null);
			if (run == null || run.role() != Role.MEASURED || series.isRerun(id.value())) {
				return Optional.<String>empty();
			}
			SeriesKey key = SeriesKey.of(run.provenance(), settings.defaultBranch());
			series.join(key, id.value());
			series.enqueue(key.id(), id.value(), "update");
			return Optional.of(key.id());
		});
		seriesId.ifPresent(this::catchUp);
		return seriesId;
	}

	/**
	 * Analyses one series from its runs' facts and pairs — computing those it lacks —
	 * stores the analysis and reconciles its alerts (in the caller's transaction).
	 */
	public SeriesAnalysis reanalyse(String seriesId) {
		series.lock(seriesId);
		SeriesSettings seriesSettings = series.settings(seriesId, settings.seriesDefaults());
		String key = factsKey(seriesSettings);
		List<String> ids = series.runIds(seriesId);
		Set<String> retracted = series.retracted(ids);
		// The last analysis computed here, when these runs are its runs and more after
		// them (the same retractions and
		// settings): the new one goes on from it, with the facts and pairs of the runs
		// appended only.
		Kept kept = analyses.getIfPresent(seriesId);
		SeriesAnalyser.Continuation from = kept == null ? null : kept.continuation();
		if (from != null && !from.continues(ids, retracted, seriesSettings)) {
			from = null;
		}
		int known = from == null ? 0 : from.runs().size();
		// A new run is loaded once, for its facts and for its pair.
		Map<RunId, Run> loaded = new HashMap<>();
		List<RunFacts> ordered = new ArrayList<>(ids.size());
		if (from != null) {
			ordered.addAll(from.runs());
		}
		ordered.addAll(facts(ids.subList(known, ids.size()), key, seriesSettings, loaded));
		Map<String, RunPair> needed = pairs(ordered, known, retracted, key, seriesSettings, loaded);
		SeriesAnalyser.Analysed analysed = analyser.analyse(ordered, needed, retracted, seriesSettings, from);
		SeriesAnalysis analysis = analysed.analysis();
		if (known > 0 && analysed.from() == known) {
			CONTINUED.increment();
		}
		// Gone on from the kept analysis, the runs and events it stored are the first of
		// these: their text is kept.
		StoredAnalysis.Text text = StoredAnalysis.write(json, analysis, retracted,
				known > 0 && analysed.from() == known ? kept.text() : null);
		long version = series.saveAnalysis(seriesId, ids.size(), ids.isEmpty() ? null : ids.get(ids.size() - 1),
				text.json());
		alerts.reconcile(seriesId, analysis, seriesSettings);
		// Kept under the version it was stored with once that is committed: should this
		// transaction roll back, no
		// read finds that version and no update goes on from it.
		Kept next = new Kept(version, analysis, analysed.continuation(), text);
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
					(old, fresh) -> fresh.continuation() != null || fresh.version() > old.version() ? fresh : old);
	}

	/**
	 * The analysis of a series, brought up to date first: the one kept in memory while it
	 * is the one stored, else the stored one with its points rebuilt from the runs'
	 * facts.
	 */
	public Optional<SeriesAnalysis> analysis(String seriesId) {
		catchUp(seriesId);
		Optional<SeriesRepository.AnalysisState> state = series.analysisState(seriesId);
		// A series restored from a backup has no analysis (it is computed again, not
		// kept); one of whose runs was
		// retracted since has a stale one.
		if (state.isEmpty() ? series.key(seriesId).isPresent() : state.get().retractedSince()) {
			String reason = state.isEmpty() ? "no-analysis" : "retraction";
			transaction.executeWithoutResult(status -> series.enqueue(seriesId, null, reason));
			catchUp(seriesId);
			state = series.analysisState(seriesId);
		}
		if (state.isEmpty()) {
			return Optional.empty();
		}
		Kept kept = analyses.getIfPresent(seriesId);
		if (kept != null && kept.version() == state.get().version()) {
			return Optional.of(kept.analysis());
		}
		return series.analysisJson(seriesId).map(stored -> {
			SeriesAnalysis analysis = stored(seriesId, stored.json());
			keep(seriesId, new Kept(stored.version(), analysis, null, null));
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
		List<RunFacts> ordered = transaction
			.execute(status -> facts(kept.runIds(), factsKey(seriesSettings), seriesSettings, new HashMap<>()));
		return kept.withPoints(ordered);
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
		catchUp(seriesId);
		return effective;
	}

	private static String describe(SeriesRepository.Overrides o) {
		return "window=" + o.window() + ", max_pvalue=" + o.maxPvalue() + ", alert_magnitude=" + o.alertMagnitude()
				+ ", confirm_after=" + o.confirmAfter() + ", vary=" + o.vary() + ", alert_improvements="
				+ o.alertImprovements() + " (null: the server's default)";
	}

	/**
	 * The facts of these runs, in their order: from memory, else PostgreSQL, else
	 * computed from the run and kept.
	 */
	private List<RunFacts> facts(List<String> ids, String key, SeriesSettings seriesSettings, Map<RunId, Run> kept) {
		Map<String, RunFacts> found = new HashMap<>();
		List<String> missing = new ArrayList<>();
		for (String id : ids) {
			RunFacts cached = facts.getIfPresent(id + "|" + key);
			if (cached != null) {
				found.put(id, cached);
			}
			else {
				missing.add(id);
			}
		}
		if (!missing.isEmpty()) {
			series.factsJson(missing, key).forEach((id, text) -> found.put(id, json.readValue(text, RunFacts.class)));
			List<RunId> toCompute = missing.stream().filter(id -> !found.containsKey(id)).map(RunId::new).toList();
			for (int from = 0; from < toCompute.size(); from += 50) {
				Map<RunId, Run> loaded = runs.findAll(toCompute.subList(from, Math.min(toCompute.size(), from + 50)));
				if (toCompute.size() <= 2) {
					kept.putAll(loaded); // a run or two that joined: their pairs need
											// them next
				}
				for (Run run : loaded.values()) {
					RunFacts computed = analyser.facts(run, seriesSettings);
					series.saveFacts(computed.id(), key, json.writeValueAsString(computed));
					found.put(computed.id(), computed);
				}
			}
			missing.forEach(id -> {
				RunFacts value = found.get(id);
				if (value != null) {
					facts.put(id + "|" + key, value);
				}
			});
		}
		List<RunFacts> ordered = new ArrayList<>(ids.size());
		for (String id : ids) {
			RunFacts value = found.get(id);
			if (value == null) {
				throw new IllegalStateException("run " + id + " of the series is not stored");
			}
			ordered.add(value);
		}
		return ordered;
	}

	/**
	 * Each run's pair with its baseline in the series, from run {@code from} on: kept
	 * ones, and those whose baseline is new computed now.
	 */
	private Map<String, RunPair> pairs(List<RunFacts> ordered, int from, Set<String> retracted, String key,
			SeriesSettings seriesSettings, Map<RunId, Run> kept) {
		Map<String, String> baselines = new HashMap<>();
		for (int i = Math.max(1, from); i < ordered.size(); i++) {
			baselines.put(ordered.get(i).id(), ordered.get(SeriesAnalyser.baselineOf(ordered, retracted, i)).id());
		}
		Map<String, RunPair> found = new HashMap<>();
		List<String> missing = new ArrayList<>();
		baselines.forEach((run, baseline) -> {
			RunPair cached = pairs.getIfPresent(run + "|" + baseline + "|" + key);
			if (cached != null) {
				found.put(run, cached);
			}
			else {
				missing.add(run);
			}
		});
		if (!missing.isEmpty()) {
			for (String text : series.pairsJson(missing, key)) {
				RunPair pair = json.readValue(text, RunPair.class);
				if (pair.baseline().equals(baselines.get(pair.run()))) {
					found.put(pair.run(), pair);
				}
			}
			List<String> toCompute = missing.stream().filter(run -> !found.containsKey(run)).toList();
			Set<String> wanted = new HashSet<>(toCompute);
			toCompute.forEach(run -> wanted.add(baselines.get(run)));
			Map<RunId, Run> loaded = new HashMap<>();
			List<RunId> toLoad = new ArrayList<>();
			for (String run : wanted) {
				Run known = kept.get(new RunId(run));
				if (known != null) {
					loaded.put(known.id(), known);
				}
				else {
					toLoad.add(new RunId(run));
				}
			}
			if (!toLoad.isEmpty()) {
				loaded.putAll(runs.findAll(toLoad));
			}
			for (String run : toCompute) {
				RunPair pair = analyser.pair(loaded.get(new RunId(baselines.get(run))), loaded.get(new RunId(run)),
						seriesSettings);
				series.savePair(run, pair.baseline(), key, json.writeValueAsString(pair));
				found.put(run, pair);
			}
			missing.forEach(run -> pairs.put(run + "|" + baselines.get(run) + "|" + key, found.get(run)));
		}
		return found;
	}

	private static String factsKey(SeriesSettings seriesSettings) {
		return FACTS_VERSION + ";vary=" + seriesSettings.vary();
	}

	/**
	 * What is kept of an analysis: its segments, events and change points, the ids of its
	 * runs in order with the segment of each (the rest of a run's entry is in its facts),
	 * and what the points need besides their facts — the runs retracted at the time and
	 * the cells whose output length differed. Analyses stored before {@code run_ids}
	 * existed kept the runs' whole entries in {@code summary.runs}; they read the same.
	 */
	record StoredAnalysis(SeriesAnalysis summary, @Nullable List<String> runIds, @Nullable List<Integer> runSegments,
			List<String> retracted, Map<String, List<String>> lengthDiffers) {

		static StoredAnalysis of(SeriesAnalysis analysis, Set<String> retracted) {
			Map<String, List<String>> differs = new java.util.TreeMap<>();
			for (SeriesAnalysis.CellPoints cell : analysis.cells()) {
				for (List<SeriesAnalysis.Point> points : cell.metrics().values()) {
					for (int i = 0; i < points.size(); i++) {
						List<String> greyedBy = points instanceof Track track ? track.greyedBy(i)
								: points.get(i).greyedBy();
						if (greyedBy.contains(SeriesAnalyser.OUTPUT_LENGTH_DIFFERS)) {
							String run = points instanceof Track track ? track.runId(i) : points.get(i).run();
							List<String> anchors = differs.computeIfAbsent(run, k -> new ArrayList<>());
							if (!anchors.contains(cell.anchor())) {
								anchors.add(cell.anchor());
							}
						}
					}
				}
			}
			return new StoredAnalysis(
					new SeriesAnalysis(List.of(), analysis.segments(), analysis.events(), List.of(),
							analysis.changePoints()),
					analysis.runs().stream().map(SeriesAnalysis.RunEntry::id).toList(),
					analysis.runs().stream().map(SeriesAnalysis.RunEntry::segment).toList(),
					new ArrayList<>(new java.util.TreeSet<>(retracted)), differs);
		}

		/**
		 * The JSON of an analysis as stored, and the text of what only grows while runs
		 * are appended (the run ids, their segments, the events), for the next analysis
		 * that goes on from this one.
		 *
		 * @param runs how many runs {@code runIds} and {@code runSegments} hold (their
		 * JSON array's elements)
		 * @param events how many events {@code events} holds
		 */
		record Text(String json, int runs, String runIds, String runSegments, int events, String eventsText) {
		}

		/**
		 * {@link StoredAnalysis#of} as JSON, with {@code runs[]}, {@code events[]} etc.
		 * written as they are.
		 */
		private record Written(Summary summary, RawValue runIds, RawValue runSegments, List<String> retracted,
				Map<String, List<String>> lengthDiffers) {
		}

		private record Summary(List<Object> runs, List<SeriesAnalysis.Segment> segments, RawValue events,
				List<Object> cells, List<SeriesAnalysis.ChangePoint> changePoints) {
		}

		/**
		 * The analysis' JSON as stored ({@link #of}), the text of its runs and events
		 * going on from {@code before}'s when given.
		 * @param before the text of an analysis whose runs and events are the first of
		 * this one's (with the same segments), or null
		 */
		static Text write(JsonMapper json, SeriesAnalysis analysis, Set<String> retracted, @Nullable Text before) {
			StoredAnalysis stored = of(analysis, retracted);
			int runs = analysis.runs().size();
			int events = analysis.events().size();
			boolean goesOn = before != null && before.runs() <= runs && before.events() <= events;
			String runIds = elements(json, goesOn ? before.runIds() : "",
					stored.runIds().subList(goesOn ? before.runs() : 0, runs));
			String runSegments = elements(json, goesOn ? before.runSegments() : "",
					stored.segments().subList(goesOn ? before.runs() : 0, runs));
			String eventsText = elements(json, goesOn ? before.eventsText() : "",
					analysis.events().subList(goesOn ? before.events() : 0, events));
			Written written = new Written(
					new Summary(List.of(), analysis.segments(), new RawValue("[" + eventsText + "]"), List.of(),
							analysis.changePoints()),
					new RawValue("[" + runIds + "]"), new RawValue("[" + runSegments + "]"), stored.retracted(),
					stored.lengthDiffers());
			return new Text(json.writeValueAsString(written), runs, runIds, runSegments, events, eventsText);
		}

		/** The elements of a JSON array: those written before, then these. */
		private static String elements(JsonMapper json, String before, List<?> more) {
			if (more.isEmpty()) {
				return before;
			}
			String array = json.writeValueAsString(more);
			String elements = array.substring(1, array.length() - 1);
			return before.isEmpty() ? elements : before + "," + elements;
		}

		@Override
		public List<String> runIds() {
			return runIds != null ? runIds : summary.runs().stream().map(SeriesAnalysis.RunEntry::id).toList();
		}

		List<Integer> segments() {
			return runSegments != null ? runSegments
					: summary.runs().stream().map(SeriesAnalysis.RunEntry::segment).toList();
		}

		/**
		 * The analysis, its runs' entries and points from the runs' facts (in the order
		 * of {@link #runIds}).
		 */
		SeriesAnalysis withPoints(List<RunFacts> ordered) {
			List<Integer> segments = segments();
			List<SeriesAnalysis.RunEntry> entries = new ArrayList<>(ordered.size());
			for (int i = 0; i < ordered.size(); i++) {
				RunFacts run = ordered.get(i);
				entries.add(new SeriesAnalysis.RunEntry(run.id(), run.recordedAt(), run.uploadedAt(),
						run.engineVersion(), run.engineCommit(), segments.get(i)));
			}
			return new SeriesAnalysis(java.util.Collections.unmodifiableList(entries), summary.segments(),
					summary.events(), SeriesAnalyser.cells(ordered, segments, Set.copyOf(retracted), lengthDiffers),
					summary.changePoints());
		}

	}

}
