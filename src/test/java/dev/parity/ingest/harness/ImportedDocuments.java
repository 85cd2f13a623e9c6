package dev.parity.ingest.harness;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

import dev.parity.run.MetricCatalogue;
import dev.parity.run.Params;
import dev.parity.run.RunDocument;
import dev.parity.run.RunDocumentReader;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the tests do with an import: merge the minimal provenance an uploader adds, check
 * the result against the rules of {@code src/docs/design/run-document.md}, and read it
 * back with the run model.
 */
final class ImportedDocuments {

	private static final Set<String> TOP_LEVEL = Set.of("format", "title", "role", "source", "recorded_at", "system",
			"model", "engine", "harness", "workload", "metric_definitions", "cells", "caveats");

	private static final Map<String, Set<String>> GROUPS = Map.of("source", Set.of("url", "revision", "note"), "system",
			Set.of("name", "hardware", "nodes"), "model", Set.of("repo", "revision", "commit"), "engine",
			Set.of("name", "version", "flags", "warnings"), "harness",
			Set.of("name", "version", "command", "token_counting"), "workload",
			Set.of("dataset", "output_tokens", "reasoning", "request_params", "warmup_requests"));

	private static final Set<String> CELL = Set.of("params", "order", "requests", "output_tokens", "reasoning_tokens",
			"metrics", "samples");

	private static final Set<String> TOKENS = Set.of("median", "min", "max", "mean");

	private static final Pattern STATISTIC = Pattern.compile("median|mean|std|min|max|p([1-9]\\d?)(\\.\\d+)?");

	private ImportedDocuments() {
	}

	/**
	 * The document with the minimal provenance an uploader adds where the import states
	 * none.
	 */
	static ObjectNode withProvenance(HarnessImport imported) {
		ObjectNode document = imported.cellsDocument().deepCopy();
		document.put("title", "imported in a test");
		if (!document.has("role")) {
			document.put("role", "measured");
		}
		document.putObject("system").put("name", "test system");
		ObjectNode model = document.has("model") ? (ObjectNode) document.get("model") : document.putObject("model");
		if (!model.has("repo")) {
			model.put("repo", "example-org/model");
		}
		ObjectNode engine = document.has("engine") ? (ObjectNode) document.get("engine") : document.putObject("engine");
		if (!engine.has("name")) {
			engine.put("name", "vllm");
		}
		ObjectNode harness = document.has("harness") ? (ObjectNode) document.get("harness")
				: document.putObject("harness");
		if (!harness.has("name")) {
			harness.put("name", "test-harness");
		}
		if (!document.has("workload")) {
			document.putObject("workload");
		}
		return document;
	}

	/**
	 * Reads the completed document with the run model, after checking it against the
	 * document rules.
	 */
	static RunDocument read(HarnessImport imported) {
		ObjectNode document = withProvenance(imported);
		List<String> problems = problems(document);
		if (!problems.isEmpty()) {
			throw new AssertionError("not a valid benchmark-run/1 document:\n  " + String.join("\n  ", problems));
		}
		return RunDocumentReader.read(document);
	}

	/**
	 * Every rule of src/docs/design/run-document.md the document breaks, with its JSON
	 * path.
	 */
	static List<String> problems(JsonNode document) {
		List<String> problems = new ArrayList<>();
		document.propertyNames().forEach(name -> {
			if (!TOP_LEVEL.contains(name)) {
				problems.add("$." + name + ": unknown field");
			}
		});
		if (!RunDocumentReader.FORMAT.equals(document.path("format").asString(""))) {
			problems.add("$.format: not " + RunDocumentReader.FORMAT);
		}
		GROUPS.forEach((group, fields) -> document.path(group).propertyNames().forEach(name -> {
			if (!fields.contains(name)) {
				problems.add("$." + group + "." + name + ": unknown field");
			}
		}));
		if ("reference".equals(document.path("role").asString("")) && !document.path("source").has("url")) {
			problems.add("$.source.url: required for a reference");
		}
		if (document.has("recorded_at")) {
			try {
				OffsetDateTime.parse(document.get("recorded_at").asString());
			}
			catch (RuntimeException ex) {
				problems.add("$.recorded_at: not an ISO-8601 instant");
			}
		}
		JsonNode workload = document.path("workload");
		for (String integer : List.of("output_tokens", "warmup_requests")) {
			if (workload.has(integer) && !workload.get(integer).isIntegralNumber()) {
				problems.add("$.workload." + integer + ": not an integer");
			}
		}
		Set<String> definitions = new HashSet<>(document.path("metric_definitions").propertyNames());
		MetricCatalogue catalogue = MetricCatalogue.defaults();
		JsonNode cells = document.path("cells");
		if (!cells.isArray() || cells.isEmpty()) {
			problems.add("$.cells: at least one cell");
			return problems;
		}
		Set<Params> seen = new HashSet<>();
		for (int i = 0; i < cells.size(); i++) {
			String path = "$.cells[" + i + "]";
			JsonNode cell = cells.get(i);
			cell.propertyNames().forEach(name -> {
				if (!CELL.contains(name)) {
					problems.add(path + "." + name + ": unknown field");
				}
			});
			JsonNode params = cell.path("params");
			if (!params.isObject()) {
				problems.add(path + ".params: required object");
			}
			else {
				TreeMap<String, Object> values = new TreeMap<>();
				params.forEachEntry((name, value) -> {
					if (value.isNumber()) {
						values.put(name, value.decimalValue());
					}
					else if (value.isString()) {
						values.put(name, value.stringValue());
					}
					else {
						problems.add(path + ".params." + name + ": a string or a number");
					}
				});
				if (!seen.add(new Params(values))) {
					problems.add(path + ".params: duplicate params " + values);
				}
			}
			if (cell.has("order") && (!cell.get("order").isIntegralNumber() || cell.get("order").intValue() < 1)) {
				problems.add(path + ".order: a positive integer");
			}
			JsonNode requests = cell.path("requests");
			if (!requests.isObject()) {
				problems.add(path + ".requests: required object");
			}
			requests.forEachEntry((name, count) -> {
				if (!Set.of("completed", "failed", "cancelled").contains(name)) {
					problems.add(path + ".requests." + name + ": unknown field");
				}
				else if (!count.isNull() && (!count.isIntegralNumber() || count.intValue() < 0)) {
					problems.add(path + ".requests." + name + ": an integer ≥ 0 or null");
				}
			});
			for (String tokens : List.of("output_tokens", "reasoning_tokens")) {
				cell.path(tokens).forEachEntry((name, value) -> {
					if (!TOKENS.contains(name) || !value.isNumber()) {
						problems
							.add(path + "." + tokens + "." + name + ": not one of median/min/max/mean with a number");
					}
				});
			}
			if (!cell.path("metrics").isObject()) {
				problems.add(path + ".metrics: required object");
			}
			cell.path("metrics").forEachEntry((name, value) -> {
				if (!catalogue.knows(name) && !definitions.contains(name)) {
					problems.add(path + ".metrics." + name + ": neither in the catalogue nor declared");
				}
				if (value.isObject()) {
					value.forEachEntry((statistic, number) -> {
						if (!STATISTIC.matcher(statistic).matches() || !number.isNumber()) {
							problems
								.add(path + ".metrics." + name + "." + statistic + ": not a statistic with a number");
						}
					});
				}
				else if (!value.isNumber() && !value.isNull()) {
					problems.add(path + ".metrics." + name + ": a number, an object or null");
				}
			});
			JsonNode samples = cell.path("samples");
			for (int j = 0; j < samples.size(); j++) {
				String samplePath = path + ".samples[" + j + "]";
				samples.get(j).forEachEntry((name, value) -> {
					if (name.equals("status")) {
						if (!Set.of("ok", "failed", "cancelled").contains(value.asString(""))) {
							problems.add(samplePath + ".status: ok, failed or cancelled");
						}
					}
					else if (!value.isNumber()) {
						problems.add(samplePath + "." + name + ": not a number");
					}
					else if (!name.equals("output_tokens") && !name.equals("reasoning_tokens") && !catalogue.knows(name)
							&& !definitions.contains(name)) {
						problems.add(samplePath + "." + name + ": neither in the catalogue nor declared");
					}
				});
			}
		}
		return problems;
	}

	/** A cell's param as a number, for assertions. */
	static BigDecimal param(JsonNode cell, String name) {
		return cell.path("params").get(name).decimalValue();
	}

}
