package dev.parity.ingest.mapping;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.DoubleUnaryOperator;
import java.util.regex.Pattern;

import dev.parity.web.Problem;
import dev.parity.ingest.harness.HarnessFormat;
import dev.parity.ingest.harness.MetricUnit;
import dev.parity.run.MetricCatalogue;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A saved format's mapping, checked: where the cells are in a file, and where each param,
 * metric, request count and per-request sample is in a cell. Every path is a
 * {@link MappingPath}; {@code $} is the current item (the document for {@code detect} and
 * {@code cells}, the cell for {@code params}, {@code metrics}, {@code requests} and
 * {@code samples.path}, the sample for the sample's fields).
 *
 * @param name the format's name (never a built-in format's id)
 * @param detect paths that must all exist in a file for detection to offer this format
 * @param cells where the cells are
 * @param params grid coordinate → path
 * @param metrics catalogue metric → how to read it
 * @param outputTokens the cell's median output tokens per request, if mapped
 * @param requests how the request counts are read
 * @param samples the per-request samples, if mapped
 * @param provenance provenance field ({@link #PROVENANCE}'s keys) → path in the document
 * ({@code $} the document)
 */
record FieldMapping(String name, List<MappingPath> detect, MappingPath cells, Map<String, MappingPath> params,
		Map<String, MetricRead> metrics, @Nullable MappingPath outputTokens, Requests requests,
		@Nullable Samples samples, Map<String, MappingPath> provenance) {

	private static final Set<String> KEYS = Set.of("name", "description", "detect", "cells", "params", "metrics",
			"output_tokens", "requests", "samples", "provenance");

	/**
	 * The provenance a format may read from a file's top-level fields, each with where it
	 * goes in the run document: {@code "provenance": {"model": "$.model", "system":
	 * "$.system"}}.
	 */
	static final Map<String, String> PROVENANCE = provenanceTargets();

	private static Map<String, String> provenanceTargets() {
		Map<String, String> targets = new LinkedHashMap<>();
		targets.put("title", "title");
		targets.put("system", "system.name");
		targets.put("hardware", "system.hardware");
		targets.put("model", "model.repo");
		targets.put("model_revision", "model.revision");
		targets.put("engine", "engine.name");
		targets.put("engine_version", "engine.version");
		targets.put("harness_version", "harness.version");
		return targets;
	}

	private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,99}");

	private static final Pattern STATISTIC = Pattern.compile("median|mean|std|min|max|p([1-9][0-9]?)(\\.[0-9]+)?");

	/**
	 * One metric: a single value (the median, or the aggregate for a throughput) or
	 * statistics, each read at a path, converted from the unit the file writes into the
	 * catalogue's.
	 */
	record MetricRead(Map<String, MappingPath> statistics, boolean single, DoubleUnaryOperator toCatalogueUnit) {
	}

	/**
	 * The request counts: counted from the samples' statuses, or read at paths (an absent
	 * path: not recorded).
	 */
	record Requests(boolean fromSamples, @Nullable MappingPath completed, @Nullable MappingPath failed,
			@Nullable MappingPath cancelled) {

		static Requests unknown() {
			return new Requests(false, null, null, null);
		}
	}

	/**
	 * The per-request samples: where they are in a cell, and each one's status, tokens
	 * and metrics.
	 */
	record Samples(MappingPath path, @Nullable MappingPath status, Map<String, String> statusMap,
			@Nullable MappingPath outputTokens, @Nullable MappingPath reasoningTokens,
			Map<String, MetricRead> metrics) {
	}

	/** The mapping, or every problem in it (each naming its key). */
	record Parsed(@Nullable FieldMapping mapping, List<Problem> problems) {
	}

	static Parsed parse(JsonNode node) {
		List<Problem> problems = new ArrayList<>();
		if (!node.isObject()) {
			return new Parsed(null,
					List.of(new Problem("mapping", "must be a JSON object: {\"name\", \"detect\", \"cells\", "
							+ "\"params\", \"metrics\", \"samples\", \"requests\"}")));
		}
		for (String key : node.propertyNames()) {
			if (!KEYS.contains(key)) {
				problems.add(new Problem(key,
						"unknown key (allowed: " + String.join(", ", KEYS.stream().sorted().toList()) + ")"));
			}
		}
		String name = name(node.get("name"), problems);
		List<MappingPath> detect = new ArrayList<>();
		JsonNode detectNode = node.get("detect");
		if (detectNode == null || !detectNode.isArray() || detectNode.isEmpty()) {
			problems.add(new Problem("detect", "a list of paths that must all exist in a file of this format, "
					+ "e.g. [\"$.cases[*].requests\"]"));
		}
		else {
			for (int i = 0; i < detectNode.size(); i++) {
				MappingPath path = path(detectNode.get(i), "detect[" + i + "]", problems);
				if (path != null) {
					detect.add(path);
				}
			}
		}
		MappingPath cells = node.has("cells") ? path(node.get("cells"), "cells", problems) : null;
		if (!node.has("cells")) {
			problems.add(new Problem("cells", "where the cells are, e.g. \"$.cases[*]\""));
		}
		Map<String, MappingPath> params = new LinkedHashMap<>();
		JsonNode paramsNode = node.get("params");
		if (paramsNode == null || !paramsNode.isObject() || paramsNode.isEmpty()) {
			problems.add(new Problem("params", "the grid coordinates of a cell: param name → path, e.g. "
					+ "{\"concurrency\": \"$.concurrency\"}"));
		}
		else {
			paramsNode.forEachEntry((param, value) -> {
				MappingPath path = path(value, "params." + param, problems);
				if (path != null) {
					if (path.many()) {
						problems.add(new Problem("params." + param,
								path.text() + " reads a list ([*]); a param is one value"));
					}
					params.put(param, path);
				}
			});
		}
		Map<String, MetricRead> metrics = new LinkedHashMap<>();
		JsonNode metricsNode = node.get("metrics");
		if (metricsNode != null && !metricsNode.isObject()) {
			problems.add(new Problem("metrics", "must be an object: catalogue metric → path or {\"path\", \"unit\"}"));
		}
		else if (metricsNode != null) {
			metricsNode.forEachEntry((metric, value) -> {
				MetricRead read = metric(metric, value, "metrics." + metric, true, problems);
				if (read != null) {
					metrics.put(metric, read);
				}
			});
		}
		MappingPath outputTokens = node.has("output_tokens")
				? path(node.get("output_tokens"), "output_tokens", problems) : null;
		Samples samples = node.has("samples") ? samples(node.get("samples"), problems) : null;
		Requests requests = requests(node.get("requests"), samples != null, problems);
		if (metrics.isEmpty() && samples == null && metricsNode != null && problems.isEmpty()) {
			problems.add(new Problem("metrics", "maps no metric: name at least one (ttft_s, decode_tps, …)"));
		}
		if (metricsNode == null && samples == null) {
			problems
				.add(new Problem("metrics", "a cell needs metrics (or samples with metrics): catalogue metric → path"));
		}
		Map<String, MappingPath> provenance = provenance(node.get("provenance"), problems);
		if (!problems.isEmpty() || cells == null) {
			return new Parsed(null, problems);
		}
		return new Parsed(
				new FieldMapping(name, detect, cells, params, metrics, outputTokens, requests, samples, provenance),
				List.of());
	}

	/**
	 * {@code {"model": "$.model", "system": "$.system"}}: top-level fields of the file
	 * read as the run's provenance.
	 */
	private static Map<String, MappingPath> provenance(@Nullable JsonNode node, List<Problem> problems) {
		Map<String, MappingPath> provenance = new LinkedHashMap<>();
		if (node == null) {
			return provenance;
		}
		if (!node.isObject()) {
			problems.add(new Problem("provenance", "must be an object: provenance field → path, e.g. "
					+ "{\"model\": \"$.model\", \"system\": \"$.system\"}"));
			return provenance;
		}
		node.forEachEntry((field, value) -> {
			String key = "provenance." + field;
			if (!PROVENANCE.containsKey(field)) {
				problems.add(new Problem(key,
						"unknown provenance field (allowed: " + String.join(", ", PROVENANCE.keySet()) + ")"));
				return;
			}
			MappingPath path = path(value, key, problems);
			if (path != null) {
				if (path.many()) {
					problems
						.add(new Problem(key, path.text() + " reads a list ([*]); a provenance field is one value"));
				}
				provenance.put(field, path);
			}
		});
		return provenance;
	}

	private static String name(@Nullable JsonNode node, List<Problem> problems) {
		if (node == null || !node.isString() || node.asString().isBlank()) {
			problems.add(new Problem("name", "the format's name, e.g. \"lab-bench\""));
			return "";
		}
		String name = node.asString();
		if (!NAME.matcher(name).matches()) {
			problems.add(new Problem("name", "\"" + name + "\" must be lower-case letters, digits, '.', '_' or '-' "
					+ "(at most 100, starting with a letter or digit)"));
		}
		else if (HarnessFormat.ofId(name).isPresent() || name.equals("auto")) {
			problems.add(new Problem("name", "\"" + name + "\" is a built-in format's id: choose another name"));
		}
		return name;
	}

	private static @Nullable MappingPath path(@Nullable JsonNode node, String key, List<Problem> problems) {
		if (node == null || !node.isString()) {
			problems.add(new Problem(key, "must be a path (a string such as \"$.field\")"));
			return null;
		}
		try {
			return MappingPath.of(node.asString());
		}
		catch (IllegalArgumentException ex) {
			problems.add(new Problem(key, node.asString() + ": " + ex.getMessage()));
			return null;
		}
	}

	/** A path, {"path", "unit"}, or statistics {"median": path, "p99": path, "unit"}. */
	private static @Nullable MetricRead metric(String metric, JsonNode value, String key, boolean statisticsAllowed,
			List<Problem> problems) {
		int before = problems.size();
		MetricUnit catalogueUnit = MetricUnit.ofCatalogueMetric(metric).orElse(null);
		if (!MetricCatalogue.defaults().knows(metric)) {
			problems.add(new Problem(key, "\"" + metric + "\" is not a catalogue metric (one of "
					+ String.join(", ", MetricCatalogue.defaults().all().stream().map(d -> d.name()).toList()) + ")"));
			return null;
		}
		Map<String, MappingPath> statistics = new LinkedHashMap<>();
		String unitText = null;
		boolean single;
		if (value.isString()) {
			MappingPath path = path(value, key, problems);
			if (path != null) {
				statistics.put("median", path);
			}
			single = true;
		}
		else if (value.isObject()) {
			single = value.has("path");
			for (String field : value.propertyNames()) {
				JsonNode fieldValue = value.get(field);
				if (field.equals("unit")) {
					if (!fieldValue.isString()) {
						problems.add(new Problem(key + ".unit", "must be a unit such as \"ms\" or \"tokens/s\""));
					}
					else {
						unitText = fieldValue.asString();
					}
				}
				else if (field.equals("path")) {
					MappingPath path = path(fieldValue, key + ".path", problems);
					if (path != null) {
						statistics.put("median", path);
					}
				}
				else if (statisticsAllowed && !single && STATISTIC.matcher(field.toLowerCase(Locale.ROOT)).matches()) {
					MappingPath path = path(fieldValue, key + "." + field, problems);
					if (path != null) {
						statistics.put(field.toLowerCase(Locale.ROOT), path);
					}
				}
				else {
					problems.add(new Problem(key + "." + field, "unknown key (allowed: path and unit"
							+ (statisticsAllowed ? ", or statistics median, mean, std, min, max, p1…p99, and unit" : "")
							+ ")"));
				}
			}
			if (statistics.isEmpty() && problems.size() == before) {
				problems.add(new Problem(key, "needs a path, or statistics such as {\"median\": \"$.p50\"}"));
			}
		}
		else {
			problems.add(new Problem(key, "must be a path, {\"path\", \"unit\"}"
					+ (statisticsAllowed ? " or statistics {\"median\": path, \"p99\": path, \"unit\"}" : "")));
			return null;
		}
		for (Map.Entry<String, MappingPath> entry : statistics.entrySet()) {
			if (entry.getValue().many()) {
				problems.add(new Problem(key + (single ? "" : "." + entry.getKey()),
						entry.getValue().text() + " reads a list ([*]); a metric value is one number"));
			}
		}
		DoubleUnaryOperator convert = DoubleUnaryOperator.identity();
		if (unitText != null && catalogueUnit != null) {
			MetricUnit unit = MetricUnit.parse(unitText).orElse(null);
			if (unit == null) {
				problems.add(new Problem(key + ".unit",
						"unknown unit \"" + unitText + "\" (e.g. s, ms, us, tokens/s, requests/s)"));
			}
			else if (!unit.convertibleTo(catalogueUnit)) {
				problems.add(new Problem(key + ".unit",
						unitText + " cannot be converted to " + metric + "'s unit, " + catalogueUnit.symbol()));
			}
			else {
				convert = unit.to(catalogueUnit);
			}
		}
		return problems.size() == before ? new MetricRead(statistics, single, convert) : null;
	}

	private static @Nullable Samples samples(JsonNode node, List<Problem> problems) {
		if (!node.isObject()) {
			problems.add(new Problem("samples", "must be an object: {\"path\": \"$.requests[*]\", \"status\", "
					+ "\"output_tokens\", \"metrics\"}"));
			return null;
		}
		int before = problems.size();
		for (String key : node.propertyNames()) {
			if (!Set.of("path", "status", "output_tokens", "reasoning_tokens", "metrics").contains(key)) {
				problems.add(new Problem("samples." + key,
						"unknown key (allowed: metrics, output_tokens, path, " + "reasoning_tokens, status)"));
			}
		}
		MappingPath path = path(node.get("path"), "samples.path", problems);
		if (path != null && !path.many()) {
			problems
				.add(new Problem("samples.path", path.text() + " must read a list of requests, e.g. $.requests[*]"));
		}
		MappingPath status = null;
		Map<String, String> statusMap = new LinkedHashMap<>();
		JsonNode statusNode = node.get("status");
		if (statusNode != null && statusNode.isObject()) {
			status = path(statusNode.get("path"), "samples.status.path", problems);
			JsonNode map = statusNode.get("map");
			if (map != null && !map.isObject()) {
				problems.add(new Problem("samples.status.map", "must map values to ok, failed or cancelled"));
			}
			else if (map != null) {
				map.forEachEntry((from, to) -> {
					if (!to.isString() || !Set.of("ok", "failed", "cancelled").contains(to.asString())) {
						problems.add(new Problem("samples.status.map." + from, "must be ok, failed or cancelled"));
					}
					else {
						statusMap.put(from, to.asString());
					}
				});
			}
			for (String key : statusNode.propertyNames()) {
				if (!key.equals("path") && !key.equals("map")) {
					problems.add(new Problem("samples.status." + key, "unknown key (allowed: path, map)"));
				}
			}
		}
		else if (statusNode != null) {
			status = path(statusNode, "samples.status", problems);
		}
		MappingPath outputTokens = node.has("output_tokens")
				? path(node.get("output_tokens"), "samples.output_tokens", problems) : null;
		MappingPath reasoningTokens = node.has("reasoning_tokens")
				? path(node.get("reasoning_tokens"), "samples.reasoning_tokens", problems) : null;
		Map<String, MetricRead> metrics = new LinkedHashMap<>();
		JsonNode metricsNode = node.get("metrics");
		if (metricsNode != null && !metricsNode.isObject()) {
			problems.add(new Problem("samples.metrics", "must be an object: catalogue metric → path"));
		}
		else if (metricsNode != null) {
			metricsNode.forEachEntry((metric, value) -> {
				MetricRead read = metric(metric, value, "samples.metrics." + metric, false, problems);
				if (read != null) {
					metrics.put(metric, read);
				}
			});
		}
		if (problems.size() > before || path == null) {
			return null;
		}
		return new Samples(path, status, statusMap, outputTokens, reasoningTokens, metrics);
	}

	private static Requests requests(@Nullable JsonNode node, boolean hasSamples, List<Problem> problems) {
		if (node == null) {
			return Requests.unknown();
		}
		if (!node.isObject()) {
			problems.add(new Problem("requests",
					"must be {\"from_samples\": true} or {\"completed\", \"failed\", \"cancelled\"} paths"));
			return Requests.unknown();
		}
		if (node.has("from_samples")) {
			if (!node.get("from_samples").isBoolean()) {
				problems.add(new Problem("requests.from_samples", "must be true or false"));
			}
			else if (node.get("from_samples").asBoolean() && !hasSamples) {
				problems.add(new Problem("requests.from_samples",
						"counts the samples' statuses, but no samples are mapped"));
			}
			if (node.size() > 1) {
				problems.add(new Problem("requests",
						"either from_samples or paths for completed/failed/cancelled, not both"));
			}
			return new Requests(node.get("from_samples").asBoolean(false), null, null, null);
		}
		MappingPath[] counts = new MappingPath[3];
		String[] names = { "completed", "failed", "cancelled" };
		for (String key : node.propertyNames()) {
			int index = List.of(names).indexOf(key);
			if (index < 0) {
				problems.add(new Problem("requests." + key,
						"unknown key (allowed: from_samples, completed, failed, cancelled)"));
				continue;
			}
			counts[index] = path(node.get(key), "requests." + key, problems);
		}
		return new Requests(false, counts[0], counts[1], counts[2]);
	}

}
