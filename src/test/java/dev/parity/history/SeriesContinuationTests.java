package dev.parity.history;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The analysis of a series that goes on from the last one (runs appended at the end)
 * equals the analysis of the same runs from the start, run after run, on random series
 * (seeded): hundreds of runs of several cells, with greyed points (run checks, unpinned
 * and retracted runs), output lengths that move for a run and others that make a new
 * normal, engine changes that break segments, annotating differences, cells and values
 * missing, level shifts that E-Divisive finds, and runs that arrive late (inserted before
 * the end), after which the analysis starts from the first run; sometimes several runs at
 * once, and sometimes an update rolls back (the next goes on from the one before it
 * again).
 */
class SeriesContinuationTests {

	@ParameterizedTest(name = "seed {0}: {1} runs, window {2}, max p {3}")
	@CsvSource({ "1, 300, 20, 0.001", "2, 260, 8, 0.01", "3, 400, 50, 0.001", "4, 250, 12, 0.05" })
	void anAnalysisThatGoesOnFromTheLastEqualsOneFromTheStart(long seed, int size, int window, double maxPvalue) {
		SeriesSettings settings = new SeriesSettings(window, maxPvalue, 0.05, 3, "engine", false);
		RandomSeries series = new RandomSeries(new Random(seed), size);
		SeriesAnalyser analyser = new SeriesAnalyser();

		List<Integer> arrived = new ArrayList<>();
		Set<String> retracted = new TreeSet<>();
		Random random = new Random(seed * 7919);
		SeriesAnalyser.Continuation continuation = null;
		StoredAnalysis.Text text = null;
		var json = SeriesRepository.mapper();
		List<String> keptIds = List.of();
		Set<String> keptRetracted = Set.of();
		SeriesAnalysis previous = null;
		List<List<SeriesAnalysis.Point>> previousPoints = null;
		int appended = 0;
		int wentOn = 0;
		int newNormalsAfterTheKept = 0;
		for (int next = 0; next < series.arrival.size();) {
			// Mostly one run at a time; sometimes a few (an update that found several
			// waiting).
			int count = random.nextDouble() < 0.1 ? 2 + random.nextInt(4) : 1;
			for (int k = 0; k < count && next < series.arrival.size(); k++) {
				arrived.add(series.arrival.get(next++));
			}
			arrived.sort(Comparator.naturalOrder());
			boolean retraction = random.nextDouble() < 0.02 && arrived.size() > 5;
			if (retraction) {
				retracted.add(series.runs.get(arrived.get(random.nextInt(arrived.size()))).id());
			}
			List<RunFacts> runs = arrived.stream().map(series.runs::get).toList();
			List<String> ids = runs.stream().map(RunFacts::id).toList();
			boolean continues = continuation != null && continuation.continues(ids, retracted, settings);
			assertThat(continues).as("goes on only from a series it begins with")
				.isEqualTo(continuation != null && ids.subList(0, keptIds.size()).equals(keptIds)
						&& retracted.equals(keptRetracted));
			// As the updates do: going on, only the runs appended have their pair
			// computed.
			int known = continues ? continuation.runs().size() : 0;

			SeriesAnalyser.Analysed incremental = analyser.analyse(runs, series.pairs(runs, retracted, known),
					retracted, settings, continuation);
			SeriesAnalysis full = analyser.analyse(runs, series.pairs(runs, retracted, 0), retracted, settings);

			String at = "after run " + series.runs.get(series.arrival.get(next - 1)).id() + " (" + runs.size()
					+ " runs)";
			SeriesAnalysis analysis = incremental.analysis();
			assertThat(analysis.runs()).as(at).isEqualTo(full.runs());
			assertThat(analysis.segments()).as(at).isEqualTo(full.segments());
			assertThat(analysis.events()).as(at).isEqualTo(full.events());
			assertThat(analysis.cells()).as(at).isEqualTo(full.cells());
			assertThat(analysis.changePoints()).as(at).isEqualTo(full.changePoints());
			assertThat(analysis).as(at).isEqualTo(full);
			// As stored: the text of the runs and events kept from the analysis it went
			// on from, the same JSON.
			StoredAnalysis.Text written = StoredAnalysis.write(json, analysis, retracted,
					continues && incremental.from() == known ? text : null);
			assertThat(json.readTree(written.json())).as(at)
				.isEqualTo(json.readTree(json.writeValueAsString(StoredAnalysis.of(full, retracted))));
			if (continues) {
				appended++;
				if (incremental.from() == known) {
					wentOn++;
				}
				else {
					assertThat(incremental.from()).as(at).isZero();
					newNormalsAfterTheKept++;
				}
			}
			else {
				assertThat(incremental.from()).isZero();
			}
			// The analysis before, shared with its readers, is as it was.
			if (previous != null) {
				assertThat(points(previous)).as(at).isEqualTo(previousPoints);
			}
			previous = analysis;
			previousPoints = points(analysis);
			// Sometimes the update that made it rolls back: the next one goes on from the
			// one before (again).
			if (random.nextDouble() >= 0.1) {
				continuation = incremental.continuation();
				text = written;
				keptIds = ids;
				keptRetracted = Set.copyOf(retracted);
			}
		}

		// The series had what the test is about, and most runs went on from the analysis
		// before.
		SeriesAnalysis last = previous;
		assertThat(last.changePoints()).isNotEmpty();
		assertThat(last.segments().stream().flatMap(s -> s.startsBecause().stream()).map(SeriesAnalysis.Reason::rule))
			.contains(SeriesAnalyser.OUTPUT_LENGTH_DIFFERS, "engine-differs");
		assertThat(last.events()).isNotEmpty();
		List<String> rules = last.cells()
			.stream()
			.flatMap(c -> c.metrics().values().stream())
			.flatMap(List::stream)
			.flatMap(p -> p.greyedBy().stream())
			.distinct()
			.toList();
		assertThat(rules).contains("failures", SeriesAnalyser.CHECKPOINT_UNKNOWN, SeriesAnalyser.RETRACTED,
				SeriesAnalyser.OUTPUT_LENGTH_DIFFERS);
		assertThat(appended).isGreaterThan(size * 2 / 3);
		assertThat(wentOn).isGreaterThan(appended * 9 / 10);
		assertThat(wentOn + newNormalsAfterTheKept).isEqualTo(appended);
	}

	/** Every point of an analysis, copied. */
	private static List<List<SeriesAnalysis.Point>> points(SeriesAnalysis analysis) {
		List<List<SeriesAnalysis.Point>> points = new ArrayList<>();
		for (SeriesAnalysis.CellPoints cell : analysis.cells()) {
			for (List<SeriesAnalysis.Point> metric : cell.metrics().values()) {
				points.add(List.copyOf(metric));
			}
		}
		return points;
	}

	/**
	 * A random series: its runs' facts in series order, the order they arrive in, and
	 * what their pairs say.
	 */
	private static final class RandomSeries {

		private static final String[] ANCHORS = { "c-1", "c-2", "c-3", "c-4", "c-5" };

		final List<RunFacts> runs = new ArrayList<>();

		final List<Integer> arrival = new ArrayList<>();

		/**
		 * Per run: the engine configuration (a change breaks the segment) and the flags
		 * (a change annotates).
		 */
		private final Map<String, int[]> builds = new HashMap<>();

		RandomSeries(Random random, int size) {
			double[] lengths = new double[ANCHORS.length];
			double[][] levels = new double[ANCHORS.length][3];
			for (int c = 0; c < ANCHORS.length; c++) {
				lengths[c] = 200 + 100 * c;
				levels[c] = new double[] { 1000 + 100 * c, 0.2 + 0.01 * c, 5 + c };
			}
			int config = 0;
			int flags = 0;
			Instant start = Instant.parse("2026-01-01T00:00:00Z");
			for (int i = 0; i < size; i++) {
				if (random.nextDouble() < 0.012) {
					config++;
				}
				if (random.nextDouble() < 0.04) {
					flags++;
				}
				List<RunFacts.CellFacts> cells = new ArrayList<>();
				for (int c = 0; c < ANCHORS.length; c++) {
					if (random.nextDouble() < 0.012) {
						lengths[c] *= random.nextBoolean() ? 1.3 : 0.7; // a new normal,
																		// three runs on
					}
					for (int m = 0; m < 3; m++) {
						if (random.nextDouble() < 0.015) {
							levels[c][m] *= 1 + (random.nextBoolean() ? 1 : -1) * (0.1 + 0.2 * random.nextDouble());
						}
					}
					if (random.nextDouble() < 0.03) {
						continue; // the run did not measure this cell
					}
					Double length = random.nextDouble() < 0.01 ? null
							: lengths[c] * (1 + 0.02 * (random.nextDouble() - 0.5))
									* (random.nextDouble() < 0.05 ? (random.nextBoolean() ? 1.25 : 0.75) : 1);
					List<RunFacts.MetricFacts> metrics = new ArrayList<>();
					metrics.add(metric(random, "decode", levels[c][0], true, false, List.of("failures")));
					metrics.add(metric(random, "ttft", levels[c][1], false, true, List.of("latency-spike")));
					metrics.add(metric(random, "e2e", random.nextDouble() < 0.05 ? Double.NaN : levels[c][2], true,
							true, List.of("failures", "runaway")));
					if (random.nextDouble() < 0.03) {
						Collections.reverse(metrics); // a run that reports its
														// metrics in another
														// order
					}
					cells.add(new RunFacts.CellFacts(ANCHORS[c], Map.of("concurrency", 1 << c), length, metrics));
				}
				Instant at = start.plusSeconds(3600L * i);
				String id = String.format("run-%04d", i);
				runs.add(new RunFacts(id, at, at, "0.11." + config, null, random.nextDouble() >= 0.04, cells));
				builds.put(id, new int[] { config, flags });
			}
			// Mostly in series order; some runs arrive late, after runs recorded after
			// them.
			Map<Integer, Double> arrivesAt = new LinkedHashMap<>();
			for (int i = 0; i < size; i++) {
				arrivesAt.put(i,
						i + (random.nextDouble() < 0.05 ? 1 + random.nextInt(30) : 0) + 0.5 * random.nextDouble());
			}
			arrivesAt.entrySet().stream().sorted(Map.Entry.comparingByValue()).forEach(e -> arrival.add(e.getKey()));
		}

		private static RunFacts.MetricFacts metric(Random random, String name, double level, boolean outputSensitive,
				boolean lowerIsBetter, List<String> greyedBy) {
			Double value = Double.isNaN(level) ? null : level * (1 + 0.02 * (random.nextDouble() - 0.5));
			return new RunFacts.MetricFacts(name, value, random.nextDouble() < 0.03 ? greyedBy : List.of(),
					outputSensitive, lowerIsBetter);
		}

		/**
		 * The pairs of the runs from {@code from} on with their baselines (as the
		 * analyser picks them).
		 */
		Map<String, RunPair> pairs(List<RunFacts> series, Set<String> retracted, int from) {
			Map<String, RunPair> pairs = new HashMap<>();
			for (int i = Math.max(1, from); i < series.size(); i++) {
				RunFacts run = series.get(i);
				RunFacts baseline = series.get(SeriesAnalyser.baselineOf(series, retracted, i));
				int[] before = builds.get(baseline.id());
				int[] after = builds.get(run.id());
				List<SeriesAnalysis.Reason> breaks = before[0] == after[0] ? List.of() : List
					.of(new SeriesAnalysis.Reason("engine-differs", "config " + before[0] + " → " + after[0]));
				List<SeriesAnalysis.Event> events = before[1] == after[1] ? List.of() : List
					.of(new SeriesAnalysis.Event(run.id(), "flags-differ", "flags " + before[1] + " → " + after[1]));
				pairs.put(run.id(), new RunPair(run.id(), baseline.id(), breaks, events));
			}
			return pairs;
		}

	}

}
