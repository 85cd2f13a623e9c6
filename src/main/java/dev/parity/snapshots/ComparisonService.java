package dev.parity.snapshots;

import java.time.Duration;
import java.util.ArrayList;

import dev.parity.compare.ThresholdDefaults;
import dev.parity.record.Publication;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import java.util.stream.Stream;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.parity.caveat.Caveats;
import dev.parity.compare.BootstrapMedians;
import dev.parity.compare.CompareSettings;
import dev.parity.compare.Comparison;
import dev.parity.compare.ComparisonBuilder;
import dev.parity.compare.ComparisonSnapshot;
import dev.parity.compare.FixedParams;
import dev.parity.compare.Replicates;
import dev.parity.compare.SampleSummaries;
import dev.parity.run.CellBootstraps;
import dev.parity.run.Run;
import dev.parity.run.RunId;
import dev.parity.run.RunNotFoundException;
import dev.parity.run.RunRepository;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Service;
import org.springframework.transaction.event.TransactionPhase;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * Computes comparisons of stored runs: both runs loaded in a fixed number of queries, the
 * rules applied with the settings in force, the result as a snapshot a page or the API
 * shows.
 *
 * <p>
 * Runs are immutable, so a computed snapshot is a function of the two run ids and the
 * settings alone: it is kept as the typed {@link ComparisonSnapshot} (by id pair and
 * every setting, critical flags in order, weighed by an estimate of its size) and handed,
 * unchanged, to every page, export and API request until memory runs short. Computing one
 * is costly in memory, so only a few are computed at once ({@link ComparisonBudget}); a
 * request beyond them gets {@link ComparisonsBusy}. Caveats, hypothesis statuses and
 * retractions are not part of a snapshot (pages and the API read them on every request),
 * yet a change to the record of a run still drops that run's snapshots, and advances the
 * run's {@linkplain #recordVersions record version}, which every rendered view that shows
 * the record has in its key.
 */
@Service
public class ComparisonService {

	/**
	 * Snapshots kept, by an estimate of their size in memory (a 400-cell comparison is a
	 * few MB).
	 */
	private static final long SNAPSHOT_CACHE_BYTES = 96L * 1024 * 1024;

	/** Cells of the comparisons kept for a moment ({@link #recent}), in all. */
	private static final long RECENT_CELLS = 8_000;

	private final RunRepository runs;

	private final CellBootstraps bootstraps;

	private final ThresholdDefaults defaults;

	private final JsonMapper json;

	private final ComparisonBuilder builder = new ComparisonBuilder();

	private final ComparisonBudget budget;

	private final ComparisonMetrics metrics;

	private final Cache<Key, Kept> snapshots = Caffeine.newBuilder()
		.maximumWeight(SNAPSHOT_CACHE_BYTES)
		// The record and, once the API asked for it, its JSON text (about a third of the
		// record's estimate).
		.weigher((Key key, Kept kept) -> kept.snapshot().estimatedBytes() * 4 / 3)
		.expireAfterAccess(Duration.ofDays(1))
		// Upkeep on the thread that wrote, never on the common fork-join pool: a
		// comparison is computed inside the cache's lock of its entry and draws its
		// intervals on that pool, so upkeep waiting there for that lock would leave the
		// drawing no thread to run on (2 cores: the pool has one).
		.executor(Runnable::run)
		.build();

	/**
	 * A kept snapshot and its JSON text, written the first time the API asks for it and
	 * then served as it is.
	 */
	private static final class Kept {

		private final ComparisonSnapshot snapshot;

		private volatile byte @Nullable [] json;

		Kept(ComparisonSnapshot snapshot) {
			this.snapshot = snapshot;
		}

		ComparisonSnapshot snapshot() {
			return snapshot;
		}

		byte[] json(JsonMapper mapper) {
			byte[] text = json;
			if (text == null) {
				text = mapper.writeValueAsBytes(snapshot);
				json = text;
			}
			return text;
		}

	}

	/**
	 * The comparisons the latest snapshots were made from, by the same key, for a short
	 * while: a page's or an export's control section asks for the comparison its snapshot
	 * was just made from ({@link #comparison}), which is then not computed twice. Brief,
	 * and bounded by their cells (a comparison holds both runs, without their samples
	 * where the statistics stored at ingest stand for them): enough for a burst of CI
	 * verdicts, each asking for the comparison of its export's control section a moment
	 * after its snapshot (with four kept at most, most of a burst's were computed again).
	 */
	private final Cache<Key, Comparison> recent = Caffeine.newBuilder()
		.maximumWeight(RECENT_CELLS)
		.<Key, Comparison>weigher((key, comparison) -> 1 + comparison.cells().size())
		.expireAfterWrite(Duration.ofMinutes(1))
		.executor(Runnable::run)
		.build();

	/**
	 * Loads the second run of a comparison while the request's thread loads the first.
	 */
	private final ComparisonLoader loader;

	/** The runs' median laws, kept. */
	private final MedianLaws laws;

	/**
	 * How often the record (caveats, statuses, retractions) of each run has changed, in
	 * the database.
	 */
	private final RecordVersions recordVersions;

	ComparisonService(RunRepository runs, CellBootstraps bootstraps, ThresholdDefaults defaults, JsonMapper json,
			ComparisonBudget budget, ComparisonMetrics metrics, RecordVersions recordVersions, ComparisonLoader loader,
			MedianLaws laws) {
		this.loader = loader;
		this.laws = laws;
		this.metrics = metrics;
		this.recordVersions = recordVersions;
		this.runs = runs;
		this.bootstraps = bootstraps;
		this.budget = budget;
		this.defaults = defaults;
		this.json = json;
	}

	/**
	 * A baseline and a contender, as written in URLs: {@code baselineId...contenderId},
	 * or groups of replicates {@code a1+a2+a3...b1+b2}; either side may fix grid
	 * parameters after its ids ({@code r@concurrency=1...r@concurrency=8}, see
	 * {@link FixedParams}).
	 *
	 * @param baselineIds the baseline's runs, at least one, each once
	 * @param contenderIds the contender's runs, at least one, each once
	 * @param baselineFixed the parameters fixed on the baseline's side, often none
	 * @param contenderFixed the parameters fixed on the contender's side, often none
	 */
	public record Pair(List<String> baselineIds, List<String> contenderIds, FixedParams baselineFixed,
			FixedParams contenderFixed) {

		public Pair {
			baselineIds = List.copyOf(baselineIds);
			contenderIds = List.copyOf(contenderIds);
		}

		public Pair(List<String> baselineIds, List<String> contenderIds) {
			this(baselineIds, contenderIds, FixedParams.NONE, FixedParams.NONE);
		}

		public Pair(String baselineId, String contenderId) {
			this(List.of(baselineId), List.of(contenderId));
		}

		public static Pair parse(String text) {
			int dots = text.indexOf("...");
			if (dots < 0) {
				throw new RunNotFoundException(text);
			}
			String baseline = text.substring(0, dots);
			String contender = text.substring(dots + 3);
			return new Pair(group(ids(baseline)), group(ids(contender)), fixed(baseline), fixed(contender));
		}

		/** The side's run ids: what comes before its first {@code @}. */
		private static String ids(String side) {
			int at = side.indexOf('@');
			return at < 0 ? side : side.substring(0, at);
		}

		private static FixedParams fixed(String side) {
			int at = side.indexOf('@');
			try {
				return at < 0 ? FixedParams.NONE : FixedParams.parse(List.of(side.substring(at + 1).split("@", -1)));
			}
			catch (IllegalArgumentException ex) {
				throw new FixedParamsRejected(ex.getMessage());
			}
		}

		/**
		 * Whether a side fixes grid parameters: a comparison within a run, or against one
		 * slice of a grid.
		 */
		public boolean fixesParams() {
			return !baselineFixed.isEmpty() || !contenderFixed.isEmpty();
		}

		/**
		 * The groups a publication froze (its snapshot lists the runs of a group), else
		 * its two runs.
		 */
		public static Pair of(Publication publication, ComparisonSnapshot snapshot) {
			return new Pair(frozenGroup(snapshot.baseline(), publication.baselineId()),
					frozenGroup(snapshot.contender(), publication.contenderId()));
		}

		private static List<String> frozenGroup(ComparisonSnapshot.Side side, String first) {
			return side.replicates().isEmpty() ? List.of(first) : side.replicates();
		}

		private static List<String> group(String text) {
			List<String> ids = List.of(text.split("\\+", -1));
			for (String id : ids) {
				if (!RunId.isValid(id)) {
					throw new RunNotFoundException(id);
				}
			}
			if (Set.copyOf(ids).size() != ids.size()) {
				throw new IllegalArgumentException("a run appears twice in the group " + text);
			}
			return ids;
		}

		/**
		 * The first run of the baseline: the one caveats and publications of this
		 * comparison are filed under.
		 */
		public String baselineId() {
			return baselineIds.get(0);
		}

		/** The first run of the contender. */
		public String contenderId() {
			return contenderIds.get(0);
		}

		public boolean involves(String runId) {
			return baselineIds.contains(runId) || contenderIds.contains(runId);
		}

		public String path() {
			return String.join("+", baselineIds) + baselineFixed.path() + "..." + String.join("+", contenderIds)
					+ contenderFixed.path();
		}
	}

	/**
	 * A group whose runs are not replicates of each other: a 400 naming the differing
	 * field.
	 */
	public static final class NotReplicates extends RuntimeException {

		NotReplicates(String side, String first, String other, String field) {
			super("The " + side + " group is not a group of replicates: run " + other + " differs from run " + first
					+ " in " + field + ". Replicates have identical provenance.");
		}

	}

	/**
	 * What a snapshot is computed from: two immutable runs and every setting, as the
	 * snapshot writes them.
	 */
	private record Key(Pair pair, Map<String, Object> settings) {
	}

	/**
	 * The settings a request asks for: the configured defaults with its URL parameters
	 * applied.
	 */
	public CompareSettings settings(Map<String, String> query) {
		return defaults.settings(query);
	}

	public Map<String, Object> defaultSettings() {
		return defaults.settings().asMap();
	}

	/**
	 * The server's defaults: src/docs/design/PRODUCT.md's, as configured under
	 * {@code parity.thresholds.*}.
	 */
	public CompareSettings defaults() {
		return defaults.settings();
	}

	/**
	 * The comparison of two stored runs as a snapshot, computed now or kept from an
	 * earlier request. Snapshots are immutable: the same one may be handed to many
	 * requests.
	 * @throws RunNotFoundException when either run does not exist
	 * @throws IllegalArgumentException naming a bad URL parameter
	 * @throws ComparisonsBusy when it is not kept and no turn to compute it came in time
	 */
	public ComparisonSnapshot snapshot(Pair pair, CompareSettings settings) {
		return kept(pair, settings).snapshot();
	}

	/**
	 * What {@code then} makes of the snapshot {@link #snapshot} gives, both done on a
	 * thread of their own — the snapshot patiently (a turn waited for, as for a CI
	 * verdict) — while the caller does other work first; empty when too many are being
	 * done so already (the caller then does it itself).
	 */
	public <T> Optional<CompletableFuture<T>> snapshotAhead(Pair pair, CompareSettings settings,
			Function<ComparisonSnapshot, T> then) {
		try {
			return Optional.of(loader.ahead(() -> then.apply(budget.patiently(() -> snapshot(pair, settings)))));
		}
		catch (RejectedExecutionException ex) {
			return Optional.empty();
		}
	}

	/**
	 * The same snapshot as JSON text (UTF-8), written once per kept snapshot: what the
	 * API serves. The array must not be changed.
	 */
	public byte[] snapshotJson(Pair pair, CompareSettings settings) {
		return kept(pair, settings).json(json);
	}

	private Kept kept(Pair pair, CompareSettings settings) {
		Key key = new Key(pair, settings.asMap());
		Kept kept = snapshots.getIfPresent(key);
		metrics.snapshot(kept != null);
		if (kept != null) {
			return kept;
		}
		// A request for the same snapshot that is being computed waits for it (in the
		// cache), in a turn of its own.
		return budget.compute(() -> snapshots.get(key, k -> new Kept(compute(pair, settings))));
	}

	/**
	 * A published comparison's snapshot, read back from whichever format it was stored
	 * in.
	 */
	public ComparisonSnapshot published(Publication publication) {
		return ComparisonSnapshot.read(publication.result(), json);
	}

	/** A snapshot computed now, whatever is kept: what a publication freezes. */
	public ComparisonSnapshot freshSnapshot(Pair pair, CompareSettings settings) {
		return budget.compute(() -> snapshotOf(build(pair, settings), pair));
	}

	/**
	 * The comparison itself, computed now in a turn of the budget: what a control plan is
	 * built from (a snapshot keeps the numbers, not the two runs' provenance).
	 * @throws RunNotFoundException when either run does not exist
	 */
	public Comparison comparison(Pair pair, CompareSettings settings) {
		Key key = new Key(pair, settings.asMap());
		Comparison known = recent.getIfPresent(key);
		if (known != null) {
			return known;
		}
		return budget.compute(() -> remembered(key, build(pair, settings)));
	}

	/**
	 * The snapshot of the comparison, computed now; the comparison is kept a while for
	 * {@link #comparison}.
	 */
	private ComparisonSnapshot compute(Pair pair, CompareSettings settings) {
		Key key = new Key(pair, settings.asMap());
		Comparison known = recent.getIfPresent(key);
		return snapshotOf(known != null ? known : remembered(key, build(pair, settings)), pair);
	}

	/**
	 * Keeps a comparison computed outside the cache (never inside its lock: computing one
	 * takes long and uses the common fork-join pool).
	 */
	private Comparison remembered(Key key, Comparison comparison) {
		recent.put(key, comparison);
		return comparison;
	}

	private ComparisonSnapshot snapshotOf(Comparison comparison, Pair pair) {
		return ComparisonSnapshot.of(comparison, defaults.settings(), pair.baselineFixed(), pair.contenderFixed(),
				json);
	}

	private Comparison build(Pair pair, CompareSettings settings) {
		Loaded loaded = load(pair, settings);
		checkFixed(pair, loaded.baselines().get(0), loaded.contenders().get(0));
		return builder.compare(loaded.baselines(), loaded.contenders(), settings, loaded.medians(),
				pair.baselineFixed(), pair.contenderFixed());
	}

	/** The runs of both sides and their stored bootstrap medians. */
	private record Loaded(List<Run> baselines, List<Run> contenders, BootstrapMedians medians) {
	}

	/**
	 * Loads both sides: two runs at once (most of a large run is its samples, read and
	 * parsed on each side: three queries each), or every run of replicate groups, each
	 * group checked to be replicates; then their stored bootstrap medians.
	 */
	private Loaded load(Pair pair, CompareSettings settings) {
		if (pair.baselineIds().size() > 1 || pair.contenderIds().size() > 1) {
			List<RunId> ids = Stream.concat(pair.baselineIds().stream(), pair.contenderIds().stream())
				.distinct()
				.map(RunId::new)
				.toList();
			Map<RunId, Run> loaded = runs.findAll(ids, SampleSummaries.readableUnder(settings, defaults.settings()));
			List<Run> baselines = group(pair.baselineIds(), loaded, "baseline");
			List<Run> contenders = group(pair.contenderIds(), loaded, "contender");
			return new Loaded(baselines, contenders, laws.medians(bootstraps.find(ids)));
		}
		RunId baselineId = new RunId(pair.baselineId());
		RunId contenderId = new RunId(pair.contenderId());
		boolean oneRun = baselineId.equals(contenderId);
		// Under the default outlier z, without their samples: the statistics stored at
		// ingest stand for them.
		String statisticsUnder = SampleSummaries.readableUnder(settings, defaults.settings());
		CompletableFuture<Optional<Run>> loading = oneRun ? CompletableFuture.completedFuture(Optional.empty())
				: loader.supply(() -> runs.find(contenderId, statisticsUnder));
		Run baseline = runs.find(baselineId, statisticsUnder).orElse(null);
		Run contender = oneRun ? baseline : loading.join().orElse(null);
		if (baseline == null) {
			throw new RunNotFoundException(pair.baselineId());
		}
		if (contender == null) {
			throw new RunNotFoundException(pair.contenderId());
		}
		BootstrapMedians medians = laws
			.medians(bootstraps.find(List.of(baselineId, contenderId).stream().distinct().toList()));
		return new Loaded(List.of(baseline), List.of(contender), medians);
	}

	/**
	 * Parameters fixed on a side must select some of its run's cells: else a 400 saying
	 * what the run has.
	 */
	private static void checkFixed(Pair pair, Run baseline, Run contender) {
		pair.baselineFixed()
			.problemWith(baseline)
			.or(() -> pair.contenderFixed().problemWith(contender))
			.ifPresent(problem -> {
				throw new FixedParamsRejected(problem);
			});
	}

	/**
	 * Parameters fixed on a side that select none of its cells, or are written wrong: a
	 * 400 with the reason.
	 */
	public static final class FixedParamsRejected extends RuntimeException {

		public FixedParamsRejected(String message) {
			super(message);
		}

	}

	private static List<Run> group(List<String> ids, Map<RunId, Run> loaded, String side) {
		List<Run> group = new ArrayList<>();
		for (String id : ids) {
			Run run = loaded.get(new RunId(id));
			if (run == null) {
				throw new RunNotFoundException(id);
			}
			group.add(run);
		}
		for (Run run : group) {
			var field = Replicates.differingField(group.get(0), run);
			if (field.isPresent()) {
				throw new NotReplicates(side, group.get(0).id().value(), run.id().value(), field.get());
			}
		}
		return group;
	}

	/**
	 * How many changes to the records of a comparison's two first runs (caveats,
	 * hypothesis statuses, retractions) the database holds ({@link RecordVersions}), read
	 * at once: {@code [baseline, contender]}, the same on every instance. A view that
	 * shows the record and is kept must have these versions, read <em>before</em> the
	 * record itself, in its key: a view rendered from an older record is then never
	 * served after the change.
	 */
	public long[] recordVersions(Pair pair) {
		return recordVersions.of(pair.baselineId(), pair.contenderId());
	}

	/**
	 * Heard as soon as a change is recorded, still inside its transaction: the versions
	 * move on with it.
	 */
	@EventListener
	void recordChanging(Caveats.RecordChanged change) {
		recordVersions.moveOn(change.runIds());
		forget(change.runIds());
	}

	/**
	 * Heard again once the change is committed: this instance's snapshots of those runs
	 * are dropped again.
	 */
	@TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT)
	void recordChanged(Caveats.RecordChanged change) {
		forget(change.runIds());
	}

	private void forget(Set<String> runIds) {
		snapshots.asMap().keySet().removeIf(key -> runIds.stream().anyMatch(key.pair()::involves));
		recent.asMap().keySet().removeIf(key -> runIds.stream().anyMatch(key.pair()::involves));
	}

}
