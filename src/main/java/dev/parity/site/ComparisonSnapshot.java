package dev.parity.site;

import java.time.Instant;
import java.util.Iterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.parity.compare.CompareSettings;
import dev.parity.compare.ComparedCell;
import dev.parity.compare.ComparedMetric;
import dev.parity.compare.Comparison;
import dev.parity.compare.ComparisonJson;
import dev.parity.compare.Headline;
import dev.parity.compare.ProvenanceDifference;
import dev.parity.compare.SettingsDisclosure;
import dev.parity.run.MetricDefinition;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A comparison as a JSON document: the API shape plus what a page needs to show it without recomputing
 * (units, directions, ratio phrases, headline sentences, the provenance diff, the rules version). A
 * published comparison stores exactly this, so its permalink shows what was computed at publication.
 */
final class ComparisonSnapshot {

	/**
	 * The version of the rules that computed a comparison. Change it whenever a rule, a threshold
	 * default or a phrase changes, so that a published comparison can say it was computed by older rules.
	 */
	static final String RULES_VERSION = "2026-12-01.1";

	private static final JsonMapper TEXT = JsonMapper.builder().build();

	private ComparisonSnapshot() {
	}

	/** The snapshot of a comparison, its settings disclosed against the server's defaults. */
	static ObjectNode of(Comparison comparison, CompareSettings defaults, JsonMapper json) {
		ObjectNode snapshot = ComparisonJson.toJson(comparison, SettingsDisclosure.of(comparison, defaults), json);
		snapshot.put("rules_version", RULES_VERSION);
		// A run's disclosed caveats are part of its immutable document: frozen with the numbers.
		ArrayNode baselineCaveats = ((ObjectNode) snapshot.get("baseline")).putArray("disclosed_caveats");
		comparison.baseline().provenance().caveats().forEach(baselineCaveats::add);
		ArrayNode contenderCaveats = ((ObjectNode) snapshot.get("contender")).putArray("disclosed_caveats");
		comparison.contender().provenance().caveats().forEach(contenderCaveats::add);
		snapshot.put("computed_at", Instant.now().toString());
		ArrayNode metrics = json.createArrayNode();
		for (String name : comparison.metrics()) {
			MetricDefinition definition = definition(comparison, name);
			ObjectNode metric = metrics.addObject();
			metric.put("metric", name);
			metric.put("unit", definition.unit());
			metric.put("better", definition.better());
			metric.put("output_sensitive", definition.outputSensitive());
		}
		snapshot.set("metrics", metrics);
		Iterator<JsonNode> headlines = snapshot.get("headlines").iterator();
		for (Headline headline : comparison.headlines()) {
			((ObjectNode) headlines.next()).put("sentence", headline.sentence(comparison.settings().band()));
		}
		Iterator<JsonNode> cells = snapshot.get("cells").iterator();
		for (ComparedCell cell : comparison.cells()) {
			ObjectNode cellJson = (ObjectNode) cells.next();
			cellJson.put("label", cell.params().label());
			Iterator<JsonNode> metricJson = cellJson.get("metrics").iterator();
			for (ComparedMetric metric : cell.metrics()) {
				ObjectNode entry = (ObjectNode) metricJson.next();
				entry.put("phrase", metric.ratioPhrase());
				entry.put("greyed", metric.greyed());
				entry.put("interval_phrase", metric.intervalPhrase());
				entry.put("verdict_phrase", metric.verdictWords());
			}
		}
		ArrayNode provenance = snapshot.putArray("provenance");
		for (ProvenanceDifference difference : comparison.provenance()) {
			ObjectNode row = provenance.addObject();
			row.put("field", difference.field());
			row.put("baseline", difference.baseline());
			row.put("contender", difference.contender());
			row.put("status", difference.status());
			row.put("rule", difference.rule());
		}
		// The Pareto view and, with objectives set, goodput: frozen with the numbers when published.
		snapshot.set("pareto", dev.parity.compare.SweepViews.paretoOfComparison(comparison, json));
		if (comparison.settings().slo().any()) {
			snapshot.set("goodput",
					dev.parity.compare.SweepViews.goodputOfComparison(comparison, comparison.settings().slo(), json));
		}
		return snapshot;
	}

	private static MetricDefinition definition(Comparison comparison, String name) {
		for (ComparedCell cell : comparison.cells()) {
			for (ComparedMetric metric : cell.metrics()) {
				if (metric.metric().equals(name)) {
					return metric.definition();
				}
			}
		}
		return comparison.contender().provenance().catalogue().find(name)
			.orElseGet(() -> comparison.baseline().provenance().catalogue().get(name));
	}

	/**
	 * What a comparison says, without when it was computed: two snapshots with the same claim say the same thing.
	 */
	static JsonNode claim(JsonNode snapshot) {
		// Through text and back, so that a number read from the database equals the same number computed now.
		ObjectNode claim = (ObjectNode) TEXT.readTree(TEXT.writeValueAsString(snapshot));
		claim.remove("computed_at");
		claim.remove("rules_version");
		// Said about the settings against the server's defaults of the day, not about the two runs.
		claim.remove("non_default_settings");
		claim.remove("ungreyed_by_settings");
		// Drawn from the cells' own numbers and greying, so it says nothing they do not; publications frozen before it
		// existed do not lack anything.
		claim.remove("pareto");
		((ObjectNode) claim.get("baseline")).remove("url");
		((ObjectNode) claim.get("contender")).remove("url");
		return claim;
	}

	/**
	 * The line that discloses non-default settings, or {@code null} under the defaults. A snapshot stored before
	 * settings were disclosed has its settings compared with today's defaults, without a count.
	 */
	static @Nullable String settingsNotice(JsonNode snapshot, CompareSettings defaults) {
		List<SettingsDisclosure.Shown> shown = new ArrayList<>();
		JsonNode nonDefault = snapshot.get("non_default_settings");
		if (nonDefault != null) {
			nonDefault.forEach(entry -> shown.add(new SettingsDisclosure.Shown(entry.get("name").asString(),
					text(entry.get("value")), text(entry.get("default")))));
		}
		else {
			Map<String, Object> standard = defaults.asMap();
			snapshot.get("settings").forEachEntry((name, value) -> {
				if (standard.containsKey(name) && !text(value).equals(SettingsDisclosure.text(standard.get(name)))) {
					shown.add(new SettingsDisclosure.Shown(name, text(value), SettingsDisclosure.text(standard.get(name))));
				}
			});
		}
		return SettingsDisclosure.sentence(shown, snapshot.path("ungreyed_by_settings").asInt(0));
	}

	private static String text(JsonNode value) {
		if (value.isArray()) {
			return value.isEmpty() ? "none" : String.join(",", value.valueStream().map(JsonNode::asString).toList());
		}
		if (value.isNumber()) {
			return SettingsDisclosure.text(value.doubleValue());
		}
		return value.asString();
	}

	static List<String> metricNames(JsonNode snapshot) {
		return snapshot.get("metrics").findValuesAsString("metric");
	}

}
