package dev.parity.site;

import java.util.List;
import java.util.Map;

import dev.parity.compare.CompareSettings;
import dev.parity.compare.ComparisonBuilder;
import dev.parity.run.Run;
import dev.parity.run.RunId;
import dev.parity.run.RunNotFoundException;
import dev.parity.run.RunRepository;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.stereotype.Service;

/**
 * Computes comparisons of stored runs: both runs loaded in a fixed number of queries, the rules applied
 * with the settings in force, the result as a snapshot a page or the API shows.
 */
@Service
class ComparisonService {

	private final RunRepository runs;

	private final ThresholdDefaults defaults;

	private final JsonMapper json;

	private final ComparisonBuilder builder = new ComparisonBuilder();

	ComparisonService(RunRepository runs, ThresholdDefaults defaults, JsonMapper json) {
		this.runs = runs;
		this.defaults = defaults;
		this.json = json;
	}

	/** A baseline and a contender, as written in URLs: {@code baselineId...contenderId}. */
	record Pair(String baselineId, String contenderId) {

		static Pair parse(String text) {
			int dots = text.indexOf("...");
			if (dots < 0) {
				throw new RunNotFoundException(text);
			}
			String baseline = text.substring(0, dots);
			String contender = text.substring(dots + 3);
			for (String id : List.of(baseline, contender)) {
				if (!RunId.isValid(id)) {
					throw new RunNotFoundException(id);
				}
			}
			return new Pair(baseline, contender);
		}

		String path() {
			return baselineId + "..." + contenderId;
		}
	}

	/** The settings a request asks for: the configured defaults with its URL parameters applied. */
	CompareSettings settings(Map<String, String> query) {
		return defaults.settings(query);
	}

	Map<String, Object> defaultSettings() {
		return defaults.settings().asMap();
	}

	/**
	 * The comparison of two stored runs as a snapshot.
	 *
	 * @throws RunNotFoundException when either run does not exist
	 * @throws IllegalArgumentException naming a bad URL parameter
	 */
	ObjectNode snapshot(Pair pair, CompareSettings settings) {
		RunId baselineId = new RunId(pair.baselineId());
		RunId contenderId = new RunId(pair.contenderId());
		Map<RunId, Run> found = runs.findAll(List.of(baselineId, contenderId));
		Run baseline = found.get(baselineId);
		Run contender = found.get(contenderId);
		if (baseline == null) {
			throw new RunNotFoundException(pair.baselineId());
		}
		if (contender == null) {
			throw new RunNotFoundException(pair.contenderId());
		}
		return ComparisonSnapshot.of(builder.compare(baseline, contender, settings), json);
	}

}
