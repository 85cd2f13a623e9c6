package dev.parity.history;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.parity.compare.CompareSettings;
import dev.parity.compare.BootstrapMedians;
import dev.parity.compare.SampleSummaries;
import dev.parity.compare.Comparison;
import dev.parity.compare.ComparisonBuilder;
import dev.parity.compare.Flag;
import dev.parity.compare.ProvenanceDifference;
import dev.parity.compare.RunChecks;
import dev.parity.compare.RunFlags;
import dev.parity.run.Cell;
import dev.parity.run.MetricCatalogue;
import dev.parity.run.MetricDefinition;
import dev.parity.run.Run;
import org.jspecify.annotations.Nullable;

/**
 * Analyses one series: segments, greyed points and change points, from its runs in series
 * order. Pure: the same runs (and retractions) give the same analysis whatever order they
 * arrived in. The confounds are Parity's own rules — {@link RunChecks} grey points, the
 * comparison checks of {@link ComparisonBuilder} between consecutive runs break segments
 * or annotate — and detection is {@link EDivisive}, over the points no rule greys.
 */
public final class SeriesAnalyser {

	static final String CHECKPOINT_UNKNOWN = "checkpoint-unknown";

	static final String RETRACTED = "retracted";

	static final String OUTPUT_LENGTH_DIFFERS = "output-length-differs";

	/**
	 * Points of a cell's output-length history in its segment, and how many must exist
	 * before the check.
	 */
	private static final int HISTORY = 10;

	private static final int HISTORY_MIN = 3;

	/** Consecutive points that differ the same way and so make a new normal. */
	private static final int NEW_NORMAL = 3;

	private final ComparisonBuilder comparisons = new ComparisonBuilder();

	/**
	 * The analysis of runs already loaded: their facts, and the pair of each with the run
	 * before it. What {@link SeriesUpdates} does incrementally, from facts and pairs it
	 * keeps, in one call (tests, small series).
	 * @param runs the series' runs in series order (recorded_at, else upload time; upload
	 * time; id)
	 * @param retracted the ids of runs retracted or superseded
	 */
	public SeriesAnalysis analyse(List<Run> runs, Set<String> retracted, SeriesSettings settings) {
		List<RunFacts> facts = runs.stream().map(run -> facts(run, settings)).toList();
		Map<String, RunPair> pairs = new HashMap<>();
		for (int i = 1; i < runs.size(); i++) {
			Run run = runs.get(i);
			pairs.put(run.id().value(), pair(runs.get(baselineOf(facts, retracted, i)), run, settings));
		}
		return analyse(facts, pairs, retracted, settings);
	}

	/**
	 * What the series needs of one run: its cells' values and the run checks that grey
	 * them.
	 */
	public RunFacts facts(Run run, SeriesSettings settings) {
		CompareSettings compare = compareSettings(settings);
		RunFlags flags = RunChecks.check(run.document(), compare);
		MetricCatalogue catalogue = run.provenance().catalogue();
		List<RunFacts.CellFacts> cells = new ArrayList<>();
		for (Cell cell : run.cells()) {
			String anchor = cell.anchor();
			List<RunFacts.MetricFacts> metrics = new ArrayList<>();
			for (String metric : cell.metrics().keySet()) {
				Set<String> rules = new LinkedHashSet<>();
				for (Flag flag : flags.run()) {
					if (flag.greys(metric)) {
						rules.add(flag.rule());
					}
				}
				for (Flag flag : flags.forCell(anchor)) {
					if (flag.greys(metric)) {
						rules.add(flag.rule());
					}
				}
				MetricDefinition definition = catalogue.find(metric).orElse(null);
				var value = cell.metrics().get(metric).statistic(compare.stat());
				metrics.add(new RunFacts.MetricFacts(metric, value.isPresent() ? value.getAsDouble() : null,
						List.copyOf(rules), definition == null || definition.outputSensitive(),
						definition == null || !definition.higherIsBetter()));
			}
			cells.add(new RunFacts.CellFacts(anchor, plain(cell.params().values()),
					cell.medianOutputTokens().orElse(null), metrics));
		}
		return new RunFacts(run.id().value(), run.document().recordedAt(), run.uploadedAt(),
				run.provenance().engine().version(),
				run.provenance().engine().commit() == null ? null : run.provenance().engine().commit().value(),
				run.provenance().model().pinned(), cells);
	}

	/**
	 * The comparison checks between a run and its baseline in the series: what breaks the
	 * segment, what annotates.
	 */
	public RunPair pair(Run baseline, Run run, SeriesSettings settings) {
		return pair(comparison(baseline, run, settings));
	}

	/**
	 * The comparison behind {@link #pair}: the series' settings, only the flags read, so
	 * no interval is resampled.
	 */
	Comparison comparison(Run baseline, Run run, SeriesSettings settings) {
		return comparisons.compare(List.of(baseline), List.of(run), compareSettings(settings), BootstrapMedians.NONE);
	}

	/** The pair {@link #pair} finds in the comparison of the run with its baseline. */
	RunPair pair(Comparison comparison) {
		Run baseline = comparison.baseline();
		Run run = comparison.contender();
		List<SeriesAnalysis.Reason> reasons = new ArrayList<>();
		List<SeriesAnalysis.Event> events = new ArrayList<>();
		for (Flag flag : comparison.flags()) {
			if (flag.rule().equals(CHECKPOINT_UNKNOWN)) {
				continue; // an unpinned run is a greyed point; it breaks nothing
			}
			String change = change(comparison.provenance(), flag.rule());
			if (flag.isAnnotation()) {
				events.add(new SeriesAnalysis.Event(run.id().value(), flag.rule(),
						change.isEmpty() ? flag.message() : change));
			}
			else {
				reasons.add(new SeriesAnalysis.Reason(flag.rule(), change.isEmpty() ? flag.message() : change));
			}
		}
		return new RunPair(run.id().value(), baseline.id().value(), reasons, events);
	}

	/**
	 * The analysis from the runs' facts and pairs.
	 * @param runs the facts of the series' runs in series order
	 * @param pairs by run id, for every run but the first: its pair with the run
	 * {@link #baselineOf} names
	 * @param retracted the ids of runs retracted or superseded
	 */
	public SeriesAnalysis analyse(List<RunFacts> runs, Map<String, RunPair> pairs, Set<String> retracted,
			SeriesSettings settings) {
		return analyse(runs, pairs, retracted, settings, null).analysis();
	}

	/**
	 * An analysis, and where it ended: what the analysis of the same runs with more after
	 * them can go on from.
	 *
	 * @param from the first run whose points this analysis' pass went through (those
	 * before it were kept)
	 */
	record Analysed(SeriesAnalysis analysis, @Nullable Continuation continuation, int from) {
	}

	/**
	 * The analysis from the runs' facts and pairs, going on from where the analysis of
	 * the first of these runs ended when {@code from} {@link Continuation#continues
	 * continues} into them (runs appended at the end, the same retractions and settings):
	 * the same analysis as one from the start, for the work of the runs appended.
	 * @param pairs by run id, the pair of every run but the first — when going on from
	 * {@code from}, of the runs it has not seen only
	 */
	Analysed analyse(List<RunFacts> runs, Map<String, RunPair> pairs, Set<String> retracted, SeriesSettings settings,
			@Nullable Continuation from) {
		if (runs.isEmpty()) {
			return new Analysed(SeriesAnalysis.empty(), null, 0);
		}
		CompareSettings compare = compareSettings(settings);
		int n = runs.size();
		boolean continuing = from != null
				&& from.continues(runs.stream().map(RunFacts::id).toList(), retracted, settings);
		// The first run the kept pass has not seen.
		int known = continuing ? from.runs.size() : 0;

		// Segments from the comparison checks between each run and the one before it.
		List<List<SeriesAnalysis.Reason>> breaks = new ArrayList<>(n);
		List<SeriesAnalysis.Event> events = new ArrayList<>();
		if (continuing) {
			breaks.addAll(from.breaks);
			events.addAll(from.events);
		}
		else {
			breaks.add(List.of());
		}
		for (int i = Math.max(1, known); i < n; i++) {
			RunPair pair = pairs.get(runs.get(i).id());
			String baseline = runs.get(baselineOf(runs, retracted, i)).id();
			if (pair == null || !pair.baseline().equals(baseline)) {
				throw new IllegalArgumentException("run " + runs.get(i).id() + " needs its pair with " + baseline);
			}
			events.addAll(pair.events());
			breaks.add(pair.breaks());
		}

		// Points, with output-length-differs against the segment; three alike make a new
		// normal and a new segment.
		// Going on, the kept pass has found every new normal of the runs it saw: one
		// among the runs appended starts
		// it again from where it was kept, one that begins among the runs it saw (a
		// streak that goes on into the
		// runs appended) from the first run.
		Map<Integer, List<SeriesAnalysis.Reason>> newNormals = new HashMap<>(continuing ? from.newNormals : Map.of());
		Pass pass;
		while (true) {
			pass = continuing ? from.pass.continued(runs) : new Pass(runs);
			points(pass, continuing ? known : 0, runs, retracted, breaks, newNormals, compare.outputTolerance());
			if (pass.newNormal == null) {
				break;
			}
			if (pass.newNormal < known) {
				continuing = false;
			}
			newNormals.put(pass.newNormal,
					List.of(new SeriesAnalysis.Reason(OUTPUT_LENGTH_DIFFERS, pass.newNormalMessage)));
		}

		List<SeriesAnalysis.RunEntry> entries = new ArrayList<>(n);
		for (int i = 0; i < n; i++) {
			RunFacts run = runs.get(i);
			entries.add(new SeriesAnalysis.RunEntry(run.id(), run.recordedAt(), run.uploadedAt(), run.engineVersion(),
					run.engineCommit(), pass.segment[i]));
		}
		List<SeriesAnalysis.Segment> segments = new ArrayList<>();
		for (int begin = 0, i = 1; i <= n; i++) {
			if (i == n || pass.segment[i] != pass.segment[i - 1]) {
				List<SeriesAnalysis.Reason> because = new ArrayList<>(breaks.get(begin));
				because.addAll(newNormals.getOrDefault(begin, List.of()));
				segments.add(new SeriesAnalysis.Segment(pass.segment[begin], runs.get(begin).id(), runs.get(i - 1).id(),
						because));
				begin = i;
			}
		}
		List<SeriesAnalysis.ChangePoint> changePoints = changePoints(pass, settings);
		// Kept in memory and shared by the requests that read it: nothing in it can
		// change.
		SeriesAnalysis analysis = new SeriesAnalysis(List.copyOf(entries), List.copyOf(segments), List.copyOf(events),
				pass.cells(), List.copyOf(changePoints));
		return new Analysed(analysis, new Continuation(runs, retracted, settings, breaks, events, newNormals, pass),
				continuing ? known : 0);
	}

	/**
	 * Where an analysis ended: its runs, what it was made under (retractions, settings),
	 * each run's breaks and the events, the new normals it found, and its pass over the
	 * points as it ended — the tracks (the analysis' own, shared with its readers), each
	 * cell's output lengths and streak, and per track × metric the change points of each
	 * segment with where E-Divisive's split can go on from. Never changed once made: an
	 * analysis that goes on from it works on copies.
	 */
	static final class Continuation {

		private final List<RunFacts> runs;

		private final Set<String> retracted;

		private final SeriesSettings settings;

		private final List<List<SeriesAnalysis.Reason>> breaks;

		private final List<SeriesAnalysis.Event> events;

		private final Map<Integer, List<SeriesAnalysis.Reason>> newNormals;

		private final Pass pass;

		private Continuation(List<RunFacts> runs, Set<String> retracted, SeriesSettings settings,
				List<List<SeriesAnalysis.Reason>> breaks, List<SeriesAnalysis.Event> events,
				Map<Integer, List<SeriesAnalysis.Reason>> newNormals, Pass pass) {
			this.runs = List.copyOf(runs);
			this.retracted = Set.copyOf(retracted);
			this.settings = settings;
			this.breaks = List.copyOf(breaks);
			this.events = List.copyOf(events);
			this.newNormals = Map.copyOf(newNormals);
			this.pass = pass;
		}

		/** The facts of the runs analysed, in series order. */
		List<RunFacts> runs() {
			return runs;
		}

		/**
		 * Whether an analysis of runs {@code ids} can go on from here: they begin with
		 * the runs analysed here (in the same order), and the retractions and settings
		 * are the same.
		 */
		boolean continues(List<String> ids, Set<String> retracted, SeriesSettings settings) {
			if (ids.size() < runs.size() || !settings.equals(this.settings) || !retracted.equals(this.retracted)) {
				return false;
			}
			for (int i = 0; i < runs.size(); i++) {
				if (!runs.get(i).id().equals(ids.get(i))) {
					return false;
				}
			}
			return true;
		}

	}

	/**
	 * The run a run is compared with: the one before it, passing over retracted runs and,
	 * while an earlier one is pinned, unpinned ones (which cannot say whether the
	 * checkpoint moved).
	 */
	static int baselineOf(List<RunFacts> runs, Set<String> retracted, int index) {
		for (int j = index - 1; j >= 0; j--) {
			RunFacts candidate = runs.get(j);
			if (!retracted.contains(candidate.id()) && candidate.pinned()) {
				return j;
			}
		}
		return index - 1;
	}

	/**
	 * "kv-cache-dtype auto → fp8": the provenance rows behind a rule, old value to new.
	 */
	private static String change(List<ProvenanceDifference> rows, String rule) {
		List<String> changes = new ArrayList<>();
		for (ProvenanceDifference row : rows) {
			if (rule.equals(row.rule())) {
				String field = row.field().startsWith("engine.flags.") ? row.field().substring("engine.flags.".length())
						: row.field();
				changes.add(field + " " + (row.baseline() == null ? "(unset)" : row.baseline()) + " → "
						+ (row.contender() == null ? "(unset)" : row.contender()));
			}
		}
		return String.join("; ", changes);
	}

	/**
	 * What the runs of a series may be read under without their samples
	 * ({@link dev.parity.run.RunRepository#findAll(java.util.Collection, String)}): the
	 * statistics stored at ingest under the outlier z its checks use stand for the
	 * samples, as in a comparison.
	 */
	static @Nullable String statisticsUnder(SeriesSettings settings) {
		CompareSettings compare = compareSettings(settings);
		return SampleSummaries.readableUnder(compare, compare);
	}

	/**
	 * The settings of the comparisons of a series' runs: the defaults, the series' vary.
	 */
	static CompareSettings compareSettings(SeriesSettings settings) {
		String vary = CompareSettings.VARIES.contains(settings.vary()) ? settings.vary() : "engine";
		return CompareSettings.defaults().withOverrides(Map.of("vary", vary));
	}

	/**
	 * One pass over the runs from run {@code from} on (the pass has seen those before
	 * it): segments, and every point with its reasons; stops at the first new normal.
	 */
	private static void points(Pass pass, int from, List<RunFacts> runs, Set<String> retracted,
			List<List<SeriesAnalysis.Reason>> breaks, Map<Integer, List<SeriesAnalysis.Reason>> newNormals,
			double tolerance) {
		int n = runs.size();
		int segment = pass.current;
		for (int i = from; i < n; i++) {
			if (i > 0 && (!breaks.get(i).isEmpty() || newNormals.containsKey(i))) {
				segment++;
			}
			pass.segment[i] = segment;
			pass.current = segment;
			RunFacts run = runs.get(i);
			List<String> runReasons = runReasons(run, retracted);
			for (RunFacts.CellFacts cell : run.cells()) {
				CellTrack track = pass.track(cell.anchor(), cell.params());
				OutputLength output = track.output;
				if (output.segment != segment) {
					output.restart(segment);
				}
				boolean cellGreyed = !runReasons.isEmpty();
				for (RunFacts.MetricFacts metric : cell.metrics()) {
					cellGreyed |= !metric.greyedBy().isEmpty();
				}
				Double tokens = cell.outputTokens();
				boolean differs = false;
				if (!cellGreyed && tokens != null) {
					if (output.count >= HISTORY_MIN) {
						double median = output.median();
						double change = tokens / median - 1;
						if (median > 0 && Math.abs(change) > tolerance) {
							differs = true;
							int direction = change > 0 ? 1 : -1;
							if (direction != output.streakDirection) {
								output.streak = 0;
								output.streakDirection = direction;
							}
							if (output.streak++ == 0) {
								output.streakFirst = i;
							}
							if (output.streak >= NEW_NORMAL) {
								pass.newNormal = output.streakFirst;
								pass.newNormalMessage = cell.anchor() + ": median output tokens "
										+ (direction > 0 ? "longer" : "shorter") + " than the segment's "
										+ Numbers.plain(median) + " in " + NEW_NORMAL + " runs in a row: a new normal";
								return;
							}
						}
					}
					if (!differs) {
						output.streak = 0;
						output.streakDirection = 0;
						output.add(tokens);
					}
				}
				addPoints(pass, track, i, segment, runReasons, cell, differs);
			}
		}
	}

	/**
	 * A cell's output lengths in the current segment, as the pass needs them: the last
	 * {@value #HISTORY} (their median is the segment's normal) and the streak of runs
	 * that differ from it the same way.
	 */
	private static final class OutputLength {

		int segment = -1;

		final double[] last = new double[HISTORY];

		/**
		 * Every length of the segment so far; the last {@value #HISTORY} are in
		 * {@link #last}, round-robin.
		 */
		int count;

		/** 1 longer, -1 shorter, 0 none. */
		int streakDirection;

		int streak;

		int streakFirst;

		/** A copy, for a pass that goes on from where this one's was kept. */
		OutputLength copy() {
			OutputLength copy = new OutputLength();
			copy.segment = segment;
			System.arraycopy(last, 0, copy.last, 0, HISTORY);
			copy.count = count;
			copy.streakDirection = streakDirection;
			copy.streak = streak;
			copy.streakFirst = streakFirst;
			return copy;
		}

		void restart(int segment) {
			this.segment = segment;
			count = 0;
			streak = 0;
			streakDirection = 0;
		}

		void add(double tokens) {
			last[count % HISTORY] = tokens;
			count++;
		}

		/**
		 * The median of the last {@value #HISTORY} lengths (in any order: the median does
		 * not depend on it).
		 */
		double median() {
			int size = Math.min(count, HISTORY);
			double[] sorted = new double[size];
			for (int k = 0; k < size; k++) {
				double value = last[k];
				int j = k;
				for (; j > 0 && Double.compare(sorted[j - 1], value) > 0; j--) {
					sorted[j] = sorted[j - 1];
				}
				sorted[j] = value;
			}
			int middle = size / 2;
			return size % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
		}

	}

	/** The rules that grey every point of a run: an unknown checkpoint, a retraction. */
	private static List<String> runReasons(RunFacts run, Set<String> retracted) {
		boolean unpinned = !run.pinned();
		boolean isRetracted = retracted.contains(run.id());
		if (unpinned && isRetracted) {
			return List.of(CHECKPOINT_UNKNOWN, RETRACTED);
		}
		return unpinned ? List.of(CHECKPOINT_UNKNOWN) : isRetracted ? List.of(RETRACTED) : List.of();
	}

	/** The points of one cell of one run, with the rules that grey each. */
	private static void addPoints(Pass pass, CellTrack track, int index, int segment, List<String> runReasons,
			RunFacts.CellFacts cell, boolean differs) {
		List<RunFacts.MetricFacts> metrics = cell.metrics();
		for (int position = 0; position < metrics.size(); position++) {
			RunFacts.MetricFacts metric = metrics.get(position);
			if (metric.value() == null) {
				continue;
			}
			boolean lengthDiffers = differs && metric.outputSensitive();
			List<String> rules = List.of();
			if (!runReasons.isEmpty() || !metric.greyedBy().isEmpty() || lengthDiffers) {
				List<String> all = new ArrayList<>(runReasons);
				for (String rule : metric.greyedBy()) {
					if (!all.contains(rule)) {
						all.add(rule);
					}
				}
				if (lengthDiffers) {
					all.add(OUTPUT_LENGTH_DIFFERS);
				}
				rules = List.copyOf(all);
			}
			track.metric(position, metric.metric(), pass.runIds)
				.add(index, metric.value(), rules, segment, metric.lowerIsBetter());
		}
	}

	/**
	 * The points of a series analysed before, rebuilt from its runs' facts: the same
	 * points its analysis had, given the segments it found, the runs retracted then and
	 * the cells whose output length differed.
	 */
	static List<SeriesAnalysis.CellPoints> cells(List<RunFacts> runs, List<Integer> segments, Set<String> retracted,
			Map<String, List<String>> lengthDiffers) {
		Pass pass = new Pass(runs);
		for (int i = 0; i < runs.size(); i++) {
			RunFacts run = runs.get(i);
			List<String> runReasons = runReasons(run, retracted);
			List<String> differing = lengthDiffers.getOrDefault(run.id(), List.of());
			for (RunFacts.CellFacts cell : run.cells()) {
				addPoints(pass, pass.track(cell.anchor(), cell.params()), i, segments.get(i), runReasons, cell,
						differing.contains(cell.anchor()));
			}
		}
		return pass.cells();
	}

	/**
	 * Per segment, per cell × metric, E-Divisive over the points no rule greys. A track
	 * that goes on from a kept pass keeps the change points of the segments no new point
	 * joined (the same points find the same change points), and the split of the segment
	 * new points join goes on from its first window that they change.
	 */
	private static List<SeriesAnalysis.ChangePoint> changePoints(Pass pass, SeriesSettings settings) {
		List<Located> found = new ArrayList<>();
		for (CellTrack track : pass.tracks.values()) {
			for (Map.Entry<String, Track> metric : track.points.entrySet()) {
				Track points = metric.getValue();
				Detections kept = track.previous.get(metric.getKey());
				Detections detections = detections(track, metric.getKey(), points, kept, settings);
				track.detections.put(metric.getKey(), detections);
				for (Detection detection : detections.segments()) {
					for (int k = 0; k < detection.runs().length; k++) {
						found.add(new Located(detection.runs()[k], detection.changePoints().get(k)));
					}
				}
			}
			track.previous = Map.of();
		}
		found.sort(Comparator.comparingInt(Located::run)
			.thenComparing((Located located) -> located.changePoint().anchor())
			.thenComparing((Located located) -> located.changePoint().metric()));
		List<SeriesAnalysis.ChangePoint> sorted = new ArrayList<>(found.size());
		for (Located located : found) {
			sorted.add(located.changePoint());
		}
		return sorted;
	}

	/** A change point and the index of its run in the series. */
	private record Located(int run, SeriesAnalysis.ChangePoint changePoint) {
	}

	/**
	 * The change points of one cell × metric, segment by segment.
	 *
	 * @param covered how many of the track's points the detections saw
	 * @param segments one per segment with points no rule greys, in order
	 */
	private record Detections(int covered, List<Detection> segments) {
	}

	/**
	 * The change points of one cell × metric in one segment.
	 *
	 * @param kept the points no rule greys (indexes into the track), whose values
	 * E-Divisive saw
	 * @param runs the index of the run of each change point (as {@code changePoints})
	 */
	private record Detection(int segment, int[] kept, double[] values, List<SeriesAnalysis.ChangePoint> changePoints,
			int[] runs, EDivisive.Resume resume) {
	}

	/**
	 * The detections of a track, going on from those kept for its first
	 * {@code kept.covered()} points.
	 */
	private static Detections detections(CellTrack track, String metric, Track points, @Nullable Detections kept,
			SeriesSettings settings) {
		List<Detection> segments = new ArrayList<>(kept == null ? List.of() : kept.segments());
		int size = points.size();
		int[] fresh = new int[size - (kept == null ? 0 : kept.covered())];
		int count = 0;
		// Segments never decrease along a track: each is one stretch of the points kept.
		for (int p = kept == null ? 0 : kept.covered(); p <= size; p++) {
			boolean ends = p == size
					|| (!points.greyed(p) && count > 0 && points.segment(p) != points.segment(fresh[0]));
			if (ends && count > 0) {
				int segment = points.segment(fresh[0]);
				Detection last = segments.isEmpty() ? null : segments.get(segments.size() - 1);
				if (last != null && last.segment() == segment) {
					// New points join the last segment: its split goes on from where they
					// change it.
					int[] joined = Arrays.copyOf(last.kept(), last.kept().length + count);
					System.arraycopy(fresh, 0, joined, last.kept().length, count);
					segments.set(segments.size() - 1,
							detect(track, metric, points, segment, joined, last.values(), last.resume(), settings));
				}
				else {
					segments.add(detect(track, metric, points, segment, Arrays.copyOf(fresh, count), new double[0],
							null, settings));
				}
				count = 0;
			}
			if (p < size && !points.greyed(p)) {
				fresh[count++] = p;
			}
		}
		return new Detections(size, List.copyOf(segments));
	}

	/**
	 * The change points of the points {@code kept} of a segment.
	 * @param known the values of the first of them (those a detection before this one
	 * saw)
	 */
	private static Detection detect(CellTrack track, String metric, Track points, int segment, int[] kept,
			double[] known, EDivisive.@Nullable Resume resume, SeriesSettings settings) {
		double[] values = Arrays.copyOf(known, kept.length);
		for (int k = known.length; k < kept.length; k++) {
			values[k] = points.value(kept[k]);
		}
		EDivisive.Found found = EDivisive.changePoints(values, settings.window(), settings.maxPvalue(), 0.0, resume);
		List<SeriesAnalysis.ChangePoint> changePoints = new ArrayList<>(found.changePoints().size());
		int[] runs = new int[found.changePoints().size()];
		List<EDivisive.ChangePoint> all = found.changePoints();
		for (int c = 0; c < all.size(); c++) {
			EDivisive.ChangePoint cp = all.get(c);
			int first = kept[cp.index()];
			double before = cp.stats().meanBefore();
			double after = cp.stats().meanAfter();
			boolean worse = points.lowerIsBetter(first) ? after > before : after < before;
			AgainstNoise against = AgainstNoise.of(values, c == 0 ? 0 : all.get(c - 1).index(), cp.index(),
					c == all.size() - 1 ? values.length : all.get(c + 1).index());
			runs[changePoints.size()] = points.run(first);
			changePoints.add(new SeriesAnalysis.ChangePoint(points.runId(first), segment, track.params, track.anchor,
					metric, worse ? "regression" : "improvement", before == 0 ? 0 : Math.abs(after / before - 1),
					cp.stats().magnitude(), before, after, cp.stats().pvalue(), values.length - cp.index(),
					against.spread(), against.scanPvalue()));
		}
		return new Detection(segment, kept, values, List.copyOf(changePoints), runs, found.resume());
	}

	/**
	 * Params as JSON numbers people read: whole numbers without a fraction or exponent
	 * (8192, not 8.192E+3, however the document or the database wrote them), others as
	 * doubles; text as it is.
	 */
	public static Map<String, Object> plain(Map<String, Object> params) {
		Map<String, Object> plain = new LinkedHashMap<>();
		params.forEach((name, value) -> {
			if (value instanceof BigDecimal number) {
				BigDecimal stripped = number.stripTrailingZeros();
				plain.put(name,
						stripped.scale() <= 0 ? (Object) stripped.toBigIntegerExact() : (Object) number.doubleValue());
			}
			else {
				plain.put(name, value);
			}
		});
		return plain;
	}

	/** What one pass found. */
	private static final class Pass {

		final String[] runIds;

		final int[] segment;

		final Map<String, CellTrack> tracks = new LinkedHashMap<>();

		/** The segment of the last run the pass saw. */
		int current;

		Integer newNormal;

		String newNormalMessage = "";

		Pass(List<RunFacts> runs) {
			runIds = new String[runs.size()];
			for (int i = 0; i < runIds.length; i++) {
				runIds[i] = runs.get(i).id();
			}
			segment = new int[runs.size()];
		}

		/**
		 * A pass over {@code runs} that has seen the runs this one saw (the first of
		 * {@code runs}) and goes on from where this one ended, on copies: this pass,
		 * whose tracks an analysis shares with its readers, is left as it is.
		 */
		Pass continued(List<RunFacts> runs) {
			Pass pass = new Pass(runs);
			System.arraycopy(segment, 0, pass.segment, 0, segment.length);
			pass.current = current;
			tracks.forEach((anchor, track) -> pass.tracks.put(anchor, track.continued(pass.runIds)));
			return pass;
		}

		CellTrack track(String anchor, Map<String, Object> params) {
			return tracks.computeIfAbsent(anchor, a -> new CellTrack(a, params));
		}

		List<SeriesAnalysis.CellPoints> cells() {
			List<SeriesAnalysis.CellPoints> cells = new ArrayList<>();
			for (CellTrack track : new TreeSet<>(tracks.keySet()).stream().map(tracks::get).toList()) {
				cells.add(new SeriesAnalysis.CellPoints(track.anchor, track.params,
						Collections.unmodifiableMap(new LinkedHashMap<>(track.points))));
			}
			return Collections.unmodifiableList(cells);
		}

	}

	private static final class CellTrack {

		final String anchor;

		final Map<String, Object> params;

		final Map<String, Track> points = new LinkedHashMap<>();

		/** What the pass knows of the cell's output lengths. */
		final OutputLength output;

		/**
		 * The change points of each metric, by segment: those of the pass this one went
		 * on from (let go once its own are found, so that no analysis holds on to the one
		 * before it), and its own.
		 */
		Map<String, Detections> previous;

		final Map<String, Detections> detections = new HashMap<>();

		/**
		 * The tracks in the order the last run reported its metrics: runs of a series
		 * mostly report them alike.
		 */
		private final List<String> lastNames = new ArrayList<>();

		private final List<Track> lastTracks = new ArrayList<>();

		CellTrack(String anchor, Map<String, Object> params) {
			this(anchor, params, new OutputLength(), Map.of());
		}

		private CellTrack(String anchor, Map<String, Object> params, OutputLength output,
				Map<String, Detections> previous) {
			this.anchor = anchor;
			this.params = params;
			this.output = output;
			this.previous = previous;
		}

		/**
		 * A copy to add the points of more runs to ({@code runIds} begins with the runs
		 * this one saw).
		 */
		CellTrack continued(String[] runIds) {
			CellTrack copy = new CellTrack(anchor, params, output.copy(), detections);
			points.forEach((metric, track) -> copy.points.put(metric, new Track(track, runIds)));
			for (String metric : lastNames) {
				copy.lastNames.add(metric);
				copy.lastTracks.add(copy.points.get(metric));
			}
			return copy;
		}

		/** The track of the cell's {@code position}-th metric, {@code metric}. */
		Track metric(int position, String metric, String[] runIds) {
			if (position < lastNames.size() && lastNames.get(position).equals(metric)) {
				return lastTracks.get(position);
			}
			Track track = points.computeIfAbsent(metric, k -> new Track(runIds));
			if (position < lastNames.size()) {
				lastNames.set(position, metric);
				lastTracks.set(position, track);
			}
			else if (position == lastNames.size()) {
				lastNames.add(metric);
				lastTracks.add(track);
			}
			return track;
		}

	}

	/** Numbers in messages. */
	private static final class Numbers {

		static String plain(double value) {
			return value == Math.rint(value) ? String.valueOf((long) value) : String.format(Locale.ROOT, "%.1f", value);
		}

	}

}
