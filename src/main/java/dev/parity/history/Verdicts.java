package dev.parity.history;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.parity.compare.BootstrapMedians;
import dev.parity.compare.CompareSettings;
import dev.parity.compare.ComparedCell;
import dev.parity.compare.ComparedMetric;
import dev.parity.compare.Comparison;
import dev.parity.compare.ComparisonBuilder;
import dev.parity.compare.Flag;
import dev.parity.compare.SampleSummaries;
import dev.parity.run.Run;
import dev.parity.run.RunId;
import dev.parity.run.RunNotFoundException;
import dev.parity.run.RunRepository;
import org.apache.commons.statistics.distribution.TDistribution;
import jakarta.annotation.PreDestroy;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The CI verdict of a run against its baseline (src/docs/design/HISTORY.md):
 * {@code not-comparable} when a check greys the whole comparison, {@code no-baseline},
 * {@code regression} when a comparable cell × metric is worse by at least
 * {@code alert_magnitude} and significant (or worse with no noise estimate),
 * {@code inconclusive} when worse but not significant, else {@code pass}. The noise of a
 * cell × metric is the spread (1.4826 × MAD of the logs) of the last 10 non-greyed points
 * of the baseline's segment, up to the baseline; fewer than 5 points give no estimate.
 */
@Service
public class Verdicts {

	static final int NOISE_POINTS = 10;

	static final int NOISE_MIN = 5;

	private final RunRepository runs;

	private final SeriesRepository series;

	private final SeriesUpdates updates;

	private final HistorySettings settings;

	private final ComparisonBuilder comparisons = new ComparisonBuilder();

	/**
	 * Verdicts already given, by what they depend on: the run, its baseline, the series'
	 * settings and the series' analysis — the very instance {@link SeriesUpdates} keeps
	 * for the analysis' stored version, so that a new run, a retraction or new settings
	 * (each a new analysis) is never answered from here. Runs themselves never change.
	 */
	private final Cache<Given, Verdict> given = Caffeine.newBuilder()
		.maximumSize(2_000)
		.expireAfterAccess(Duration.ofMinutes(30))
		.build();

	/** What a verdict depends on; the analysis by identity. */
	private record Given(String run, String baseline, SeriesSettings settings, Same<SeriesAnalysis> analysis) {
	}

	/** A value compared by identity, not by its (deep) equality. */
	private record Same<T>(T value) {

		@Override
		public boolean equals(Object other) {
			return other instanceof Same<?> same && same.value == this.value;
		}

		@Override
		public int hashCode() {
			return System.identityHashCode(value);
		}

	}

	/**
	 * Reads a verdict's comparison while its series is brought up to date: four threads,
	 * shut down with the context; beyond 16 waiting, a verdict reads it itself.
	 */
	private final ThreadPoolExecutor reading = new ThreadPoolExecutor(4, 4, 0, TimeUnit.MILLISECONDS,
			new ArrayBlockingQueue<>(16), runnable -> {
				Thread thread = new Thread(runnable, "verdict-reading");
				thread.setDaemon(true);
				return thread;
			});

	private final PairComparisons recentPairs;

	/**
	 * The 97.5 % quantile of Student's t by degrees of freedom, once each: the inverse is
	 * found by a root search (tens of microseconds), and a 400-cell verdict asks for it
	 * for every cell × metric that is worse, with a handful of distinct degrees.
	 */
	private static final AtomicReferenceArray<Double> T975 = new AtomicReferenceArray<>(1024);

	Verdicts(RunRepository runs, SeriesRepository series, SeriesUpdates updates, HistorySettings settings,
			PairComparisons recentPairs) {
		this.recentPairs = recentPairs;
		this.runs = runs;
		this.series = series;
		this.updates = updates;
		this.settings = settings;
	}

	@PreDestroy
	void stop() throws InterruptedException {
		reading.shutdownNow();
		reading.awaitTermination(5, TimeUnit.SECONDS);
	}

	/** A comparable cell × metric worse than the baseline. */
	public record Regression(Map<String, Object> params, String anchor, String metric, double ratio,
			boolean significant, @Nullable Double spread, int noisePoints) {
	}

	/** Why a comparison is not comparable. */
	public record Reason(String rule, String message) {
	}

	/**
	 * @param status {@code pass}, {@code inconclusive}, {@code regression},
	 * {@code no-baseline} or {@code not-comparable}
	 * @param baseline the baseline run, when there is one
	 * @param regressions the cells × metrics worse by at least the alert magnitude
	 * (significant or not)
	 * @param reasons the checks that grey the whole comparison
	 */
	public record Verdict(String status, @Nullable String baseline, List<Regression> regressions, List<Reason> reasons,
			double alertMagnitude) {
	}

	/**
	 * The id of the series a run's verdict compares it with: the series of its key on the
	 * default branch (for a run on the default branch, its own series; for a pull-request
	 * run, its base branch's).
	 */
	@Transactional(readOnly = true)
	public String baseSeries(String runId) {
		return baseSeries(header(runId)).id();
	}

	/** The key of the run's series on the default branch. */
	private SeriesKey baseSeries(Run run) {
		SeriesKey own = SeriesKey.of(run.provenance(), settings.defaultBranch());
		return new SeriesKey(own.system(), own.model(), own.engine(), own.harness(), settings.defaultBranch(),
				own.workload());
	}

	/** Whether the baseline is left to the verdict: none given, or "auto". */
	private static boolean auto(@Nullable String baselineId) {
		return baselineId == null || baselineId.isBlank() || baselineId.equals("auto");
	}

	/**
	 * The verdict of {@code runId}; {@code baselineId} forces the baseline ({@code null}
	 * or "auto" picks it). Not one transaction: the series is brought up to date first
	 * ({@link SeriesUpdates#analysis}), perhaps after waiting for another reader's update
	 * of it, and no connection is held while it waits.
	 */
	public Verdict verdict(String runId, @Nullable String baselineId) {
		// The run's row is all the lookup needs: its cells are read only for a verdict
		// not given yet.
		Run run = header(runId);
		SeriesKey own = SeriesKey.of(run.provenance(), settings.defaultBranch());
		SeriesKey main = baseSeries(run);
		SeriesSettings seriesSettings = series.settings(main.id(), settings.seriesDefaults());
		// While the series is brought up to date (its update may be under way), its
		// comparison with the baseline it will most likely have is read on another
		// thread: used if that is the baseline.
		String likely = null;
		CompletableFuture<Comparison> early = null;
		// A run of the default branch is compared with the run before it by its series'
		// update (kept for this verdict: PairComparisons); a run of another branch is
		// not.
		if (!own.id().equals(main.id()) && series.pending(main.id())) {
			likely = likely(run, main, baselineId);
			early = likely == null || !RunId.isValid(likely) ? null : ahead(run, likely, seriesSettings);
		}
		SeriesAnalysis history = updates.analysis(main.id()).orElse(SeriesAnalysis.empty());
		String baselineRunId = auto(baselineId) ? autoBaseline(run, history).orElse(null) : baselineId;
		if (baselineRunId == null) {
			return new Verdict("no-baseline", null, List.of(), List.of(), seriesSettings.alertMagnitude());
		}
		Given key = new Given(runId, baselineRunId, seriesSettings, new Same<>(history));
		Verdict known = given.getIfPresent(key);
		if (known != null) {
			return known;
		}
		Comparison read = early != null && baselineRunId.equals(likely) ? joined(early) : null;
		Verdict verdict = verdict(read != null ? read : comparison(run, baselineRunId, seriesSettings), baselineRunId,
				seriesSettings, history);
		given.put(key, verdict);
		return verdict;
	}

	/**
	 * The baseline {@link #verdict} will most likely pick, known before the series is
	 * brought up to date: the one given, or the latest run before this one in the series'
	 * analysis as it is stored now (a run is never its own baseline, so an analysis not
	 * updated for it yet usually names the same). For starting the verdict's comparison
	 * early; the verdict's own baseline decides. {@code null} when none.
	 */
	public @Nullable String likelyBaseline(String runId, @Nullable String baselineId) {
		Run run = header(runId);
		return likely(run, baseSeries(run), baselineId);
	}

	/** {@link #likelyBaseline} of a run whose default-branch series is {@code main}. */
	private @Nullable String likely(Run run, SeriesKey main, @Nullable String baselineId) {
		if (!auto(baselineId)) {
			return baselineId;
		}
		return series.runBefore(main.id(), run.id().value()).orElse(null);
	}

	/**
	 * The comparison of the run with this baseline read on another thread; {@code null}
	 * when every such thread is busy.
	 */
	private @Nullable CompletableFuture<Comparison> ahead(Run header, String baselineRunId,
			SeriesSettings seriesSettings) {
		try {
			return CompletableFuture.supplyAsync(() -> comparison(header, baselineRunId, seriesSettings), reading);
		}
		catch (RejectedExecutionException ex) {
			return null;
		}
	}

	static double studentT975(int degrees) {
		if (degrees >= T975.length()) {
			return TDistribution.of(degrees).inverseCumulativeProbability(0.975);
		}
		Double quantile = T975.get(degrees);
		if (quantile == null) {
			quantile = TDistribution.of(degrees).inverseCumulativeProbability(0.975);
			T975.set(degrees, quantile);
		}
		return quantile;
	}

	/**
	 * What was read ahead; {@code null} if that failed (read again, the same way, it
	 * fails as it should).
	 */
	private static @Nullable Comparison joined(CompletableFuture<Comparison> read) {
		try {
			return read.join();
		}
		catch (CompletionException | CancellationException ex) {
			return null;
		}
	}

	/**
	 * The comparison a verdict reads: both runs in one read, without their samples where
	 * the statistics stored at ingest stand for them; no interval is drawn (a verdict
	 * reads ratios, flags and the series' noise, never a comparison's intervals).
	 */
	private Comparison comparison(Run header, String baselineRunId, SeriesSettings seriesSettings) {
		CompareSettings compare = SeriesAnalyser.compareSettings(seriesSettings);
		// The series update this verdict waited for compared the same two runs the same
		// way when the baseline is the run before it (what a verdict on the default
		// branch has, unless told otherwise).
		Comparison updated = recentPairs.of(baselineRunId, header.id().value(), compare.asMap());
		if (updated != null) {
			return updated;
		}
		RunId baselineId = validId(baselineRunId);
		Map<RunId, Run> loaded = runs.findAll(List.of(baselineId, header.id()),
				SampleSummaries.readableUnder(compare, compare));
		Run baseline = loaded.get(baselineId);
		Run run = loaded.get(header.id());
		if (baseline == null) {
			throw new RunNotFoundException(baselineRunId);
		}
		if (run == null) {
			throw new RunNotFoundException(header.id().value());
		}
		return comparisons.compare(List.of(baseline), List.of(run), compare, BootstrapMedians.NONE);
	}

	private Verdict verdict(Comparison comparison, String baselineRunId, SeriesSettings seriesSettings,
			SeriesAnalysis history) {
		List<Reason> reasons = new ArrayList<>();
		List<Flag> whole = new ArrayList<>(comparison.flags());
		whole.addAll(comparison.baselineChecks().run());
		whole.addAll(comparison.contenderChecks().run());
		for (Flag flag : whole) {
			if (!flag.isAnnotation() && flag.greys().containsAll(comparison.metrics())) {
				reasons.add(new Reason(flag.rule(), flag.message()));
			}
		}
		if (!reasons.isEmpty()) {
			return new Verdict("not-comparable", baselineRunId, List.of(), reasons, seriesSettings.alertMagnitude());
		}
		List<Regression> regressions = new ArrayList<>();
		BaselineNoise noise = new BaselineNoise(history, baselineRunId);
		boolean significantOrUnknown = false;
		int compared = 0;
		for (ComparedCell cell : comparison.cells()) {
			for (ComparedMetric metric : cell.metrics()) {
				if (!metric.comparable() || metric.ratio() == null) {
					continue;
				}
				compared++;
				double ratio = metric.ratio();
				boolean worse = metric.definition().higherIsBetter() ? ratio <= 1 - seriesSettings.alertMagnitude()
						: ratio >= 1 + seriesSettings.alertMagnitude();
				if (!worse) {
					continue;
				}
				double[] points = noise.of(cell.anchor(), metric.metric());
				Double spread = points.length >= NOISE_MIN ? spread(points) : null;
				boolean significant = spread != null
						&& Math.abs(Math.log(ratio)) > studentT975(points.length - 1) * spread;
				significantOrUnknown |= significant || spread == null;
				regressions.add(new Regression(SeriesAnalyser.plain(cell.params().values()), cell.anchor(),
						metric.metric(), ratio, significant, spread, points.length));
			}
		}
		if (compared == 0) {
			// Nothing compared is no pass: without a comparable cell × metric, nothing is
			// known of this run.
			return new Verdict("not-comparable", baselineRunId, List.of(),
					List.of(new Reason("no-comparable-cell", "no cell × metric of the two runs is comparable")),
					seriesSettings.alertMagnitude());
		}
		String status = regressions.isEmpty() ? "pass" : significantOrUnknown ? "regression" : "inconclusive";
		return new Verdict(status, baselineRunId, regressions, List.of(), seriesSettings.alertMagnitude());
	}

	/**
	 * The latest run recorded before this one in the series of its key on the default
	 * branch (for a run on the default branch: the run before it).
	 */
	private static Optional<String> autoBaseline(Run run, SeriesAnalysis history) {
		Instant at = run.document().recordedAt() != null ? run.document().recordedAt() : run.uploadedAt();
		Comparator<SeriesAnalysis.RunEntry> order = Comparator
			.comparing((SeriesAnalysis.RunEntry e) -> e.recordedAt() != null ? e.recordedAt() : e.uploadedAt())
			.thenComparing(SeriesAnalysis.RunEntry::uploadedAt)
			.thenComparing(SeriesAnalysis.RunEntry::id);
		SeriesAnalysis.RunEntry self = new SeriesAnalysis.RunEntry(run.id().value(), at, run.uploadedAt(), null, null,
				0);
		SeriesAnalysis.RunEntry best = null;
		for (SeriesAnalysis.RunEntry entry : history.runs()) {
			if (!entry.id().equals(run.id().value()) && order.compare(entry, self) < 0) {
				best = entry;
			}
		}
		return Optional.ofNullable(best).map(SeriesAnalysis.RunEntry::id);
	}

	/**
	 * The noise of a baseline's cells × metrics: the last 10 non-greyed values of each in
	 * the baseline's segment, up to the baseline. The segment of each run and the cells
	 * by anchor are read once, for all the cells × metrics a verdict asks about.
	 */
	private static final class BaselineNoise {

		private final String baselineId;

		private final Map<String, Integer> segmentOf = new HashMap<>();

		private final Map<String, SeriesAnalysis.CellPoints> cells = new HashMap<>();

		private final @Nullable Integer segment;

		BaselineNoise(SeriesAnalysis history, String baselineId) {
			this.baselineId = baselineId;
			history.runs().forEach(r -> segmentOf.put(r.id(), r.segment()));
			history.cells().forEach(c -> cells.putIfAbsent(c.anchor(), c));
			this.segment = segmentOf.get(baselineId);
		}

		double[] of(String anchor, String metric) {
			SeriesAnalysis.CellPoints cell = cells.get(anchor);
			if (segment == null || cell == null) {
				return new double[0];
			}
			List<Double> values = new ArrayList<>();
			for (SeriesAnalysis.Point point : cell.metrics().getOrDefault(metric, List.of())) {
				if (!point.greyed() && segment.equals(segmentOf.get(point.run())) && point.value() > 0) {
					values.add(point.value());
				}
				if (point.run().equals(baselineId)) {
					break;
				}
			}
			return values.subList(Math.max(0, values.size() - NOISE_POINTS), values.size())
				.stream()
				.mapToDouble(Double::doubleValue)
				.toArray();
		}

	}

	/** 1.4826 × the median absolute deviation of the logs. */
	static double spread(double[] values) {
		double[] logs = Arrays.stream(values).map(Math::log).toArray();
		double median = median(logs);
		double[] deviations = Arrays.stream(logs).map(v -> Math.abs(v - median)).toArray();
		return 1.4826 * median(deviations);
	}

	private static double median(double[] values) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		int middle = sorted.length / 2;
		return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	}

	/** The run's row, without its cells ({@link RunRepository#header}). */
	private Run header(String id) {
		return runs.header(validId(id)).orElseThrow(() -> new RunNotFoundException(id));
	}

	private static RunId validId(String id) {
		if (!RunId.isValid(id)) {
			throw new RunNotFoundException(id);
		}
		return new RunId(id);
	}

}
