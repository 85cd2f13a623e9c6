package dev.parity.history;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The output-length rule of a series, from runs' facts alone: a cell whose median output
 * length moves beyond the tolerance from its segment's normal (the median of its last 10
 * lengths) greys its output-sensitive points, and three runs in a row that move the same
 * way make a new normal, a new segment from the first of them.
 */
class SeriesAnalyserTests {

	private static final SeriesSettings SETTINGS = new SeriesSettings(50, 0.001, 0.05, 3, "engine", false);

	@Test
	void threeRunsInARowWithLongerOutputsMakeANewNormal() {
		// Cell a: 256 tokens; run 3 greyed by a run check (its length is not counted);
		// run 5 longer, run 6 back;
		// run 7 longer, run 8 shorter, runs 9-11 longer: the third of those makes a new
		// normal from run 9.
		double[] lengths = { 256, 256, 256, 999, 256, 400, 256, 400, 100, 400, 400, 400, 400, 400 };
		List<RunFacts> runs = new ArrayList<>();
		for (int i = 0; i < lengths.length; i++) {
			runs.add(run(i, List.of(cell("cell-a", lengths[i], i == 3 ? List.of("failures") : List.of()),
					cell("cell-b", 100.0, List.of()))));
		}

		SeriesAnalysis analysis = new SeriesAnalyser().analyse(runs, pairs(runs), Set.of(), SETTINGS);

		assertThat(analysis.segments()).hasSize(2);
		assertThat(analysis.segments().get(1).firstRun()).isEqualTo("run-9");
		assertThat(analysis.segments().get(1).startsBecause())
			.containsExactly(new SeriesAnalysis.Reason(SeriesAnalyser.OUTPUT_LENGTH_DIFFERS,
					"cell-a: median output tokens longer than the segment's 256 in 3 runs in a row: a new normal"));
		assertThat(analysis.runs().stream().map(SeriesAnalysis.RunEntry::segment).toList()).containsExactly(0, 0, 0, 0,
				0, 0, 0, 0, 0, 1, 1, 1, 1, 1);
		assertThat(greyedBy(analysis, "cell-a", "decode", SeriesAnalyser.OUTPUT_LENGTH_DIFFERS)).containsExactly(5, 7,
				8);
		assertThat(greyedBy(analysis, "cell-a", "decode", "failures")).containsExactly(3);
		assertThat(greyedBy(analysis, "cell-a", "ttft", SeriesAnalyser.OUTPUT_LENGTH_DIFFERS)).isEmpty();
		assertThat(greyedBy(analysis, "cell-b", "decode", SeriesAnalyser.OUTPUT_LENGTH_DIFFERS)).isEmpty();
	}

	@Test
	void theNormalIsTheMedianOfTheLastTenLengthsOfTheSegment() {
		// Lengths drifting up within the tolerance: after 100 ×5, 109 ×6 and 119 ×5, the
		// last ten's median is 114,
		// so 124 (+8.8 %) is normal; the median of all sixteen (109) would make it differ
		// (+13.8 %).
		List<Double> lengths = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			lengths.add(100.0);
		}
		for (int i = 0; i < 6; i++) {
			lengths.add(109.0);
		}
		for (int i = 0; i < 5; i++) {
			lengths.add(119.0);
		}
		lengths.add(124.0);
		lengths.add(140.0); // +17.6 % of the last ten's median (then 119): differs
		List<RunFacts> runs = new ArrayList<>();
		for (int i = 0; i < lengths.size(); i++) {
			runs.add(run(i, List.of(cell("cell-c", lengths.get(i), List.of()))));
		}

		SeriesAnalysis analysis = new SeriesAnalyser().analyse(runs, pairs(runs), Set.of(), SETTINGS);

		assertThat(analysis.segments()).hasSize(1);
		assertThat(greyedBy(analysis, "cell-c", "decode", SeriesAnalyser.OUTPUT_LENGTH_DIFFERS)).containsExactly(17);
	}

	/** The runs whose point of this cell × metric the rule greys, by index. */
	private static List<Integer> greyedBy(SeriesAnalysis analysis, String anchor, String metric, String rule) {
		Map<String, Integer> index = new HashMap<>();
		analysis.runs().forEach(run -> index.put(run.id(), index.size()));
		List<Integer> greyed = new ArrayList<>();
		for (SeriesAnalysis.CellPoints cell : analysis.cells()) {
			if (cell.anchor().equals(anchor)) {
				for (SeriesAnalysis.Point point : cell.metrics().get(metric)) {
					if (point.greyedBy().contains(rule)) {
						greyed.add(index.get(point.run()));
					}
				}
			}
		}
		return greyed;
	}

	private static RunFacts run(int index, List<RunFacts.CellFacts> cells) {
		Instant at = Instant.parse("2026-01-01T00:00:00Z").plusSeconds(86_400L * index);
		return new RunFacts("run-" + index, at, at, "0.11." + index, null, true, cells);
	}

	private static RunFacts.CellFacts cell(String anchor, double outputTokens, List<String> greyedBy) {
		return new RunFacts.CellFacts(anchor, Map.of("concurrency", 8), outputTokens,
				List.of(new RunFacts.MetricFacts("decode", 100.0, greyedBy, true, false),
						new RunFacts.MetricFacts("ttft", 0.5, greyedBy, false, true)));
	}

	/** Each run's pair with the run before it: nothing breaks the segment. */
	private static Map<String, RunPair> pairs(List<RunFacts> runs) {
		Map<String, RunPair> pairs = new HashMap<>();
		for (int i = 1; i < runs.size(); i++) {
			pairs.put(runs.get(i).id(), new RunPair(runs.get(i).id(), runs.get(i - 1).id(), List.of(), List.of()));
		}
		return pairs;
	}

}
