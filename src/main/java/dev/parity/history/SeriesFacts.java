package dev.parity.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.parity.compare.Comparison;
import dev.parity.run.Run;
import dev.parity.run.RunId;
import dev.parity.run.RunRepository;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.stereotype.Component;

/**
 * The facts of a series' runs and the comparison checks of each run with its baseline
 * (its pair), under the analyser's version and the settings that change them: from
 * memory, else PostgreSQL, else computed from the runs and kept in both.
 */
@Component
class SeriesFacts {

	/**
	 * What facts and pairs are computed under: the analyser's version and what the
	 * settings change in them.
	 */
	private static final String FACTS_VERSION = "1";

	private final RunRepository runs;

	private final SeriesRepository series;

	private final SeriesAnalyser analyser = new SeriesAnalyser();

	private final JsonMapper json = SeriesRepository.mapper();

	/**
	 * Facts by run id and key: runs never change, so an entry is never stale; bounded by
	 * the metrics it holds.
	 */
	private final Cache<String, RunFacts> cache = Caffeine.newBuilder()
		.maximumWeight(2_000_000)
		.weigher((String key, RunFacts value) -> 1 + value.cells().stream().mapToInt(c -> c.metrics().size()).sum())
		.build();

	private final Cache<String, RunPair> pairs = Caffeine.newBuilder().maximumSize(200_000).build();

	/**
	 * The runs the last updates read for a run's facts, as they read them: the next
	 * update's pair has the latest of them for its baseline. Runs never change. Bounded
	 * by cells and samples: ten 400-cell runs read without their samples, and never one
	 * read with many.
	 */
	private final Cache<String, Run> lastRead = Caffeine.newBuilder()
		.maximumWeight(4_000)
		.weigher((String key, Run run) -> 1
				+ run.document().cells().stream().mapToInt(cell -> 1 + cell.samples().size()).sum())
		.build();

	/** The comparisons of the pairs just computed, for the verdicts about to ask. */
	private final PairComparisons recentPairs;

	SeriesFacts(RunRepository runs, SeriesRepository series, PairComparisons recentPairs) {
		this.recentPairs = recentPairs;
		this.runs = runs;
		this.series = series;
	}

	/**
	 * The facts of these runs, in their order: from memory, else PostgreSQL, else
	 * computed from the run and kept.
	 */
	List<RunFacts> facts(List<String> ids, String key, SeriesSettings seriesSettings, Map<RunId, Run> kept) {
		Map<String, RunFacts> found = new HashMap<>();
		List<String> missing = new ArrayList<>();
		for (String id : ids) {
			RunFacts cached = cache.getIfPresent(id + "|" + key);
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
				// Without their samples where their stored statistics stand for them.
				Map<RunId, Run> loaded = runs.findAll(toCompute.subList(from, Math.min(toCompute.size(), from + 50)),
						SeriesAnalyser.statisticsUnder(seriesSettings));
				if (toCompute.size() <= 2) {
					// A run or two that joined: their pairs need them next, and the next
					// update's pair the latest.
					kept.putAll(loaded);
					loaded.forEach((id, run) -> lastRead.put(readKey(id.value(), seriesSettings), run));
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
					cache.put(id + "|" + key, value);
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
	Map<String, RunPair> pairs(List<RunFacts> ordered, int from, Set<String> retracted, String key,
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
				if (known == null) {
					known = lastRead.getIfPresent(readKey(run, seriesSettings));
				}
				if (known != null) {
					loaded.put(known.id(), known);
				}
				else {
					toLoad.add(new RunId(run));
				}
			}
			if (!toLoad.isEmpty()) {
				loaded.putAll(runs.findAll(toLoad, SeriesAnalyser.statisticsUnder(seriesSettings)));
			}
			for (String run : toCompute) {
				Comparison comparison = analyser.comparison(loaded.get(new RunId(baselines.get(run))),
						loaded.get(new RunId(run)), seriesSettings);
				recentPairs.keep(comparison);
				RunPair pair = analyser.pair(comparison);
				series.savePair(run, pair.baseline(), key, json.writeValueAsString(pair));
				found.put(run, pair);
			}
			missing.forEach(run -> pairs.put(run + "|" + baselines.get(run) + "|" + key, found.get(run)));
		}
		return found;
	}

	/** A run as an update reads it under these settings. */
	private static String readKey(String runId, SeriesSettings seriesSettings) {
		return runId + "|" + SeriesAnalyser.statisticsUnder(seriesSettings);
	}

	static String factsKey(SeriesSettings seriesSettings) {
		return FACTS_VERSION + ";vary=" + seriesSettings.vary();
	}

}
