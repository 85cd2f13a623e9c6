package dev.parity.compare;

import java.math.BigDecimal;
import java.util.List;

import dev.parity.run.Params;
import dev.parity.run.Provenance;
import dev.parity.run.Run;
import dev.parity.stats.RatioInterval;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A comparison as the JSON API gives it: both runs summarised with their run flags, the
 * settings in force, the comparison's flags, the headlines, the matched cells with every
 * flag next to every number, and the unmatched cells.
 */
public final class ComparisonJson {

	private ComparisonJson() {
	}

	/**
	 * The comparison as JSON, its settings disclosed against src/docs/design/PRODUCT.md's
	 * defaults.
	 */
	public static ObjectNode toJson(Comparison comparison, JsonMapper mapper) {
		return toJson(comparison, SettingsDisclosure.of(comparison, CompareSettings.defaults()), mapper);
	}

	/**
	 * The comparison as JSON, with {@code non_default_settings} ({@code [{name, value,
	 * default}]}) and {@code ungreyed_by_settings} right after the settings: always
	 * present, {@code []} and {@code 0} under the defaults.
	 */
	public static ObjectNode toJson(Comparison comparison, SettingsDisclosure disclosure, JsonMapper mapper) {
		ObjectNode json = mapper.createObjectNode();
		json.set("baseline", run(comparison.baseline(), comparison.baselineChecks(), mapper));
		json.set("contender", run(comparison.contender(), comparison.contenderChecks(), mapper));
		replicates((ObjectNode) json.get("baseline"), comparison.baselineRuns());
		replicates((ObjectNode) json.get("contender"), comparison.contenderRuns());
		json.set("settings", settings(comparison.settings(), mapper));
		ArrayNode nonDefault = json.putArray("non_default_settings");
		for (SettingsDisclosure.Difference difference : disclosure.nonDefault()) {
			ObjectNode entry = nonDefault.addObject();
			entry.put("name", difference.name());
			putValue(entry, "value", difference.value());
			putValue(entry, "default", difference.standard());
		}
		json.put("ungreyed_by_settings", disclosure.ungreyed());
		json.set("flags", flags(comparison.flags(), mapper));
		ArrayNode headlines = json.putArray("headlines");
		comparison.headlines().forEach(headline -> headlines.add(headline(headline, mapper)));
		ArrayNode cells = json.putArray("cells");
		comparison.cells().forEach(cell -> cells.add(cell(cell, mapper)));
		ArrayNode unmatched = json.putArray("unmatched");
		comparison.unmatched().forEach(cell -> {
			ObjectNode entry = unmatched.addObject();
			entry.put("side", cell.side());
			entry.set("params", params(cell.params(), mapper));
			entry.put("anchor", cell.anchor());
		});
		return json;
	}

	/** Flags as {@code [{rule, message, greys[, side]}]}. */
	public static ArrayNode flags(List<Flag> flags, JsonMapper mapper) {
		ArrayNode array = mapper.createArrayNode();
		for (Flag flag : flags) {
			ObjectNode entry = array.addObject();
			entry.put("rule", flag.rule());
			entry.put("short", flag.shortForm());
			entry.put("message", flag.message());
			ArrayNode greys = entry.putArray("greys");
			flag.greys().forEach(greys::add);
			if (flag.side() != null) {
				entry.put("side", flag.side());
			}
		}
		return array;
	}

	/**
	 * Params with numbers as JSON numbers (whole numbers without a fraction) and strings
	 * as strings.
	 */
	public static ObjectNode params(Params params, JsonMapper mapper) {
		ObjectNode json = mapper.createObjectNode();
		params.values().forEach((name, value) -> {
			if (value instanceof BigDecimal number) {
				if (number.signum() == 0 || number.scale() <= 0) {
					json.put(name, number.toBigInteger());
				}
				else {
					json.put(name, number);
				}
			}
			else {
				json.put(name, value.toString());
			}
		});
		return json;
	}

	/**
	 * A side of several replicates lists them all: {@code "runs": ["a1", "a2", "a3"]}.
	 */
	private static void replicates(ObjectNode side, List<Run> runs) {
		if (runs.size() > 1) {
			ArrayNode ids = side.putArray("runs");
			runs.forEach(run -> ids.add(run.id().value()));
		}
	}

	private static ObjectNode run(Run run, RunFlags checks, JsonMapper mapper) {
		ObjectNode json = mapper.createObjectNode();
		json.put("id", run.id().value());
		json.put("url", run.url());
		json.put("title", run.title());
		json.put("role", run.role().id());
		Provenance provenance = run.provenance();
		json.put("system", provenance.system().name());
		ObjectNode model = json.putObject("model");
		model.put("repo", provenance.model().repo());
		model.put("revision", provenance.model().revision());
		model.put("commit", provenance.model().commit() == null ? null : provenance.model().commit().value());
		json.set("flags", flags(checks.run(), mapper));
		return json;
	}

	private static ObjectNode settings(CompareSettings settings, JsonMapper mapper) {
		ObjectNode json = mapper.createObjectNode();
		settings.asMap().forEach((name, value) -> putValue(json, name, value));
		return json;
	}

	/**
	 * A setting's value: a number as written, a list as an array of strings, anything
	 * else as a string.
	 */
	private static void putValue(ObjectNode json, String name, Object value) {
		if (value instanceof Double number) {
			putNumber(json, name, number);
		}
		else if (value instanceof List<?> list) {
			ArrayNode array = json.putArray(name);
			list.forEach(item -> array.add(item.toString()));
		}
		else {
			json.put(name, value.toString());
		}
	}

	private static ObjectNode headline(Headline headline, JsonMapper mapper) {
		ObjectNode json = mapper.createObjectNode();
		json.put("metric", headline.metric());
		json.put("comparable", headline.comparable());
		json.put("within_band", headline.withinBand());
		json.put("median_ratio", headline.medianRatio());
		json.put("excluded", headline.excluded());
		ObjectNode reasons = json.putObject("excluded_reasons");
		headline.excludedReasons().forEach(reasons::put);
		ObjectNode verdicts = json.putObject("verdicts");
		headline.verdicts().forEach(verdicts::put);
		json.set("median_ratio_interval", interval(headline.medianRatioInterval(), mapper));
		return json;
	}

	private static ObjectNode cell(ComparedCell cell, JsonMapper mapper) {
		ObjectNode json = mapper.createObjectNode();
		json.set("params", params(cell.params(), mapper));
		json.put("anchor", cell.anchor());
		json.set("flags", flags(cell.flags(), mapper));
		ArrayNode metrics = json.putArray("metrics");
		for (ComparedMetric metric : cell.metrics()) {
			ObjectNode entry = metrics.addObject();
			entry.put("metric", metric.metric());
			entry.put("baseline", metric.baseline());
			entry.put("contender", metric.contender());
			entry.put("ratio", metric.ratio());
			entry.put("comparable", metric.comparable());
			entry.set("flags", flags(metric.flags(), mapper));
			entry.set("interval", interval(metric.interval(), mapper));
			entry.put("verdict", metric.verdict() == null ? null : metric.verdict().id());
			entry.put("significant", metric.significant());
		}
		return json;
	}

	/**
	 * An interval as {@code {low, high, confidence, method[, caution]}} ({@code caution}
	 * for an interval from one run's samples); JSON null without one.
	 */
	public static tools.jackson.databind.JsonNode interval(@Nullable RatioInterval interval, JsonMapper mapper) {
		if (interval == null) {
			return mapper.nullNode();
		}
		ObjectNode json = mapper.createObjectNode();
		json.put("low", interval.low());
		json.put("high", interval.high());
		json.put("confidence", interval.confidence());
		json.put("method", interval.method());
		if (interval.caution() != null) {
			json.put("caution", interval.caution());
		}
		return json;
	}

	/** Thresholds as written: {@code 10}, not {@code 10.0}. */
	private static void putNumber(ObjectNode json, String name, double value) {
		if (value == Math.rint(value) && Math.abs(value) < 1e15) {
			json.put(name, (long) value);
		}
		else {
			json.put(name, value);
		}
	}

}
