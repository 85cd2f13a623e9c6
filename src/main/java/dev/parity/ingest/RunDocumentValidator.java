package dev.parity.ingest;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;

import dev.parity.run.CommitSha;
import dev.parity.run.MetricCatalogue;
import dev.parity.run.Params;
import dev.parity.run.RunDocumentReader;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Checks a {@code benchmark-run/1} document against {@code design/run-document.md} and reports every
 * problem at once, each with its JSON path. A typo in a field name must not pass silently, so unknown
 * fields are refused everywhere except in the free-form maps ({@code flags}, {@code request_params},
 * {@code params}, {@code metrics}, {@code metric_definitions}).
 */
public final class RunDocumentValidator {

	private static final Pattern PERCENTILE = Pattern.compile("p([1-9][0-9]?)(\\.[0-9]+)?");

	private static final Set<String> STATISTICS = Set.of("median", "mean", "std", "min", "max");

	private static final Set<String> TOKEN_STATISTICS = Set.of("median", "min", "max", "mean");

	private static final Set<String> SAMPLE_STATUSES = Set.of("ok", "failed", "cancelled");

	/** A field name written {@code .name} in a path; any other is written {@code ['name']}. */
	private static final Pattern SIMPLE_KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

	/** The longest name (system, model repository, engine, harness), in UTF-16 units: at most 1,500 bytes stored. */
	private static final int MAX_NAME = 500;

	private final List<Problem> problems = new ArrayList<>();

	/** The cells are checked one by one elsewhere ({@link Streaming}); their problems go in at {@link #cellsAt}. */
	private boolean cellsStreamed;

	private int cellsAt;

	private RunDocumentValidator() {
	}

	/** Every problem of the document; empty when it is valid. */
	public static List<Problem> validate(JsonNode document) {
		RunDocumentValidator validator = new RunDocumentValidator();
		validator.document(document);
		return List.copyOf(validator.problems);
	}

	private void document(JsonNode document) {
		if (!document.isObject()) {
			problem("$", "a run document is a JSON object, not " + describe(document));
			return;
		}
		storable(document, "$");
		allowOnly(document, "$", "format", "title", "role", "source", "recorded_at", "system", "model", "engine",
				"harness", "workload", "metric_definitions", "cells", "caveats", "context", "environment");
		JsonNode format = document.get("format");
		if (format == null) {
			problem("$.format", "is required: \"" + RunDocumentReader.FORMAT + "\"");
		}
		else if (!format.isString() || !RunDocumentReader.FORMAT.equals(format.asString())) {
			problem("$.format", "unknown format " + format + "; this server reads \"" + RunDocumentReader.FORMAT + "\"");
		}
		String title = requiredString(document, "$", "title");
		if (title != null && title.isBlank()) {
			problem("$.title", "must not be blank");
		}
		else if (title != null && title.length() > 200) {
			problem("$.title", "is " + title.length() + " characters; at most 200");
		}
		String role = requiredString(document, "$", "role");
		if (role != null && !role.equals("measured") && !role.equals("reference")) {
			problem("$.role", "must be \"measured\" or \"reference\", not \"" + role + "\"");
		}
		JsonNode source = document.get("source");
		if (source != null && !source.isNull()) {
			if (object(source, "$.source")) {
				allowOnly(source, "$.source", "url", "revision", "note");
				optionalString(source, "$.source", "url");
				optionalString(source, "$.source", "revision");
				optionalString(source, "$.source", "note");
			}
		}
		if ("reference".equals(role) && (source == null || !source.isObject() || !source.path("url").isString()
				|| source.path("url").asString().isBlank())) {
			problem("$.source.url", "is required for a reference run: where were these numbers published?");
		}
		String recordedAt = optionalString(document, "$", "recorded_at");
		if (recordedAt != null) {
			try {
				int year = OffsetDateTime.parse(recordedAt).atZoneSameInstant(ZoneOffset.UTC).getYear();
				if (year < 1 || year > 9999) {
					problem("$.recorded_at", "must be an instant in the years 1 to 9999, not \"" + recordedAt + "\"");
				}
			}
			catch (DateTimeParseException ex) {
				problem("$.recorded_at", "must be an ISO-8601 instant such as 2026-08-11T10:10:00Z, not \"" + recordedAt + "\"");
			}
		}
		requiredObject(document, "$", "system", (system, path) -> {
			allowOnly(system, path, "name", "hardware", "nodes");
			requiredText(system, path, "name");
			optionalString(system, path, "hardware");
			optionalInteger(system, path, "nodes", 1);
		});
		requiredObject(document, "$", "model", (model, path) -> {
			allowOnly(model, path, "repo", "revision", "commit");
			requiredText(model, path, "repo");
			optionalString(model, path, "revision");
			String commit = optionalString(model, path, "commit");
			if (commit != null && !CommitSha.isValid(commit)) {
				problem(path + ".commit", "must be the 40 hexadecimal characters of the resolved commit, not \"" + commit + "\"");
			}
		});
		requiredObject(document, "$", "engine", (engine, path) -> {
			allowOnly(engine, path, "name", "version", "flags", "warnings", "commit");
			requiredText(engine, path, "name");
			optionalString(engine, path, "version");
			String engineCommit = optionalString(engine, path, "commit");
			if (engineCommit != null && !CommitSha.isValid(engineCommit)) {
				problem(path + ".commit", "must be the 40 hexadecimal characters of the engine's commit, not \"" + engineCommit + "\"");
			}
			JsonNode flags = engine.get("flags");
			if (flags != null && !flags.isNull() && object(flags, path + ".flags")) {
				flags.forEachEntry((name, value) -> {
					if (!value.isString()) {
						problem(path + ".flags" + key(name), "a flag's value is a string, not " + describe(value));
					}
				});
			}
			stringArray(engine.get("warnings"), path + ".warnings");
		});
		requiredObject(document, "$", "harness", (harness, path) -> {
			allowOnly(harness, path, "name", "version", "command", "token_counting");
			requiredText(harness, path, "name");
			optionalString(harness, path, "version");
			optionalString(harness, path, "command");
			String counting = optionalString(harness, path, "token_counting");
			if (counting != null && !Set.of("server-usage", "retokenized", "client-stream").contains(counting)) {
				problem(path + ".token_counting",
						"must be server-usage, retokenized or client-stream, not \"" + counting + "\"");
			}
		});
		requiredObject(document, "$", "workload", (workload, path) -> {
			allowOnly(workload, path, "dataset", "output_tokens", "reasoning", "request_params", "warmup_requests");
			optionalString(workload, path, "dataset");
			optionalInteger(workload, path, "output_tokens", 1);
			optionalString(workload, path, "reasoning");
			JsonNode requestParams = workload.get("request_params");
			if (requestParams != null && !requestParams.isNull()) {
				object(requestParams, path + ".request_params");
			}
			optionalInteger(workload, path, "warmup_requests", 0);
		});
		context(document.get("context"));
		environment(document.get("environment"));
		java.util.function.Predicate<String> knownMetric = knownMetrics(metricDefinitions(document.get("metric_definitions")));
		cells(document.get("cells"), knownMetric);
		stringArray(document.get("caveats"), "$.caveats");
	}

	/** Where a run came from in a team's stream of runs: branch, pull request, CI job, labels (all optional). */
	private void context(@Nullable JsonNode context) {
		String path = "$.context";
		if (context == null || context.isNull() || !object(context, path)) {
			return;
		}
		allowOnly(context, path, "branch", "pull_request", "ci_url", "labels");
		String branch = optionalString(context, path, "branch");
		if (branch != null && branch.isBlank()) {
			problem(path + ".branch", "must not be blank (leave it out for the default branch)");
		}
		else if (branch != null && branch.length() > MAX_NAME) {
			problem(path + ".branch", "is " + branch.length() + " characters; at most " + MAX_NAME);
		}
		JsonNode pullRequest = context.get("pull_request");
		if (pullRequest != null && !pullRequest.isNull() && !pullRequest.isString()
				&& !(pullRequest.isIntegralNumber() && pullRequest.canConvertToLong() && pullRequest.longValue() > 0)) {
			problem(path + ".pull_request", "must be a pull-request number or URL, not " + describe(pullRequest));
		}
		optionalString(context, path, "ci_url");
		stringMap(context.get("labels"), path + ".labels");
	}

	/** The environment the run ran in: hardware, driver, container, packages (all optional). */
	private void environment(@Nullable JsonNode environment) {
		String path = "$.environment";
		if (environment == null || environment.isNull() || !object(environment, path)) {
			return;
		}
		allowOnly(environment, path, "gpu", "gpu_count", "driver", "cuda", "container_image", "container_digest", "os",
				"kernel", "python_packages", "other");
		for (String field : List.of("gpu", "driver", "cuda", "container_image", "container_digest", "os", "kernel")) {
			optionalString(environment, path, field);
		}
		optionalInteger(environment, path, "gpu_count", 0);
		stringMap(environment.get("python_packages"), path + ".python_packages");
		stringMap(environment.get("other"), path + ".other");
	}

	private void stringMap(@Nullable JsonNode map, String path) {
		if (map == null || map.isNull() || !object(map, path)) {
			return;
		}
		map.forEachEntry((name, value) -> {
			if (!value.isString()) {
				problem(path + key(name), "must be a string, not " + describe(value));
			}
		});
	}

	private static java.util.function.Predicate<String> knownMetrics(Set<String> declared) {
		MetricCatalogue catalogue = MetricCatalogue.defaults();
		return metric -> catalogue.knows(metric) || declared.contains(metric);
	}

	/**
	 * Validates a document whose cells are read one at a time, so that a large document is never held whole: the
	 * same checks, the same problems in the same order as {@link #validate}.
	 */
	public static final class Streaming {

		private final RunDocumentValidator cells = new RunDocumentValidator();

		private final Map<Params, Integer> seenParams = new HashMap<>();

		private int count;

		/** The metrics a cell may report, given the document's metric definitions (which may be {@code null}). */
		public static java.util.function.Predicate<String> knownMetrics(@Nullable JsonNode definitions) {
			return RunDocumentValidator.knownMetrics(new RunDocumentValidator().metricDefinitions(definitions));
		}

		/** Checks the next cell of {@code $.cells}; returns whether the document is still without problems. */
		public boolean cell(JsonNode cell, java.util.function.Predicate<String> knownMetric) {
			// The whole-document check of storable values covers the cells too; here they come one by one.
			cells.storable(cell, "$.cells[" + count + "]");
			cells.cell(count++, cell, seenParams, knownMetric);
			return cells.problems.isEmpty();
		}

		/**
		 * Every problem of the document: {@code header} is the document without its {@code cells} when they were an
		 * array read through {@link #cell}, or the whole document when they were not.
		 */
		public List<Problem> problems(JsonNode header, boolean cellsStreamed) {
			if (!cellsStreamed) {
				return validate(header);
			}
			RunDocumentValidator validator = new RunDocumentValidator();
			validator.cellsStreamed = true;
			validator.document(header);
			int cellsAt = validator.cellsAt;
			validator.problems.addAll(cellsAt, count == 0 ? List.of(new Problem("$.cells", "must hold at least one cell"))
					: cells.problems);
			return List.copyOf(validator.problems);
		}

	}

	private Set<String> metricDefinitions(@Nullable JsonNode definitions) {
		Set<String> names = new HashSet<>();
		if (definitions == null || definitions.isNull() || !object(definitions, "$.metric_definitions")) {
			return names;
		}
		definitions.forEachEntry((name, definition) -> {
			String path = "$.metric_definitions" + key(name);
			if (MetricCatalogue.defaults().knows(name)) {
				problem(path, "\"" + name + "\" is in the metric catalogue already; define only new metrics");
				return;
			}
			if (!object(definition, path)) {
				return;
			}
			names.add(name);
			allowOnly(definition, path, "unit", "better", "output_sensitive");
			optionalString(definition, path, "unit");
			String better = optionalString(definition, path, "better");
			if (better != null && !better.equals("higher") && !better.equals("lower")) {
				problem(path + ".better", "must be \"higher\" or \"lower\", not \"" + better + "\"");
			}
			JsonNode sensitive = definition.get("output_sensitive");
			if (sensitive != null && !sensitive.isNull() && !sensitive.isBoolean()) {
				problem(path + ".output_sensitive", "must be true or false, not " + describe(sensitive));
			}
		});
		return names;
	}

	private void cells(@Nullable JsonNode cells, java.util.function.Predicate<String> knownMetric) {
		if (cellsStreamed) {
			cellsAt = problems.size();
			return;
		}
		if (cells == null || cells.isNull()) {
			problem("$.cells", "is required: at least one cell");
			return;
		}
		if (!cells.isArray()) {
			problem("$.cells", "must be an array of cells, not " + describe(cells));
			return;
		}
		if (cells.isEmpty()) {
			problem("$.cells", "must hold at least one cell");
			return;
		}
		Map<Params, Integer> seenParams = new HashMap<>();
		for (int i = 0; i < cells.size(); i++) {
			cell(i, cells.get(i), seenParams, knownMetric);
		}
	}

	private void cell(int i, JsonNode cell, Map<Params, Integer> seenParams,
			java.util.function.Predicate<String> knownMetric) {
		String path = "$.cells[" + i + "]";
		{
			if (!object(cell, path)) {
				return;
			}
			allowOnly(cell, path, "params", "order", "requests", "output_tokens", "reasoning_tokens", "metrics", "samples");
			JsonNode params = cell.get("params");
			if (params == null || params.isNull()) {
				problem(path + ".params", "is required: the cell's grid coordinates");
			}
			else if (object(params, path + ".params")) {
				boolean valid = true;
				for (Map.Entry<String, JsonNode> param : params.properties()) {
					JsonNode value = param.getValue();
					if (!value.isNumber() && !value.isString()) {
						problem(path + ".params" + key(param.getKey()), "a param is a number or a string, not " + describe(value));
						valid = false;
					}
					else if (value.isNumber() && !finite(value)) {
						valid = false;
					}
				}
				if (valid) {
					Params key = RunDocumentReader.params(params);
					Integer first = seenParams.putIfAbsent(key, i);
					if (first != null) {
						problem(path + ".params", "duplicate params: the same as $.cells[" + first + "].params ("
								+ key.label() + "); repetitions are samples of one cell");
					}
				}
			}
			optionalInteger(cell, path, "order", 1);
			JsonNode requests = cell.get("requests");
			if (requests == null || requests.isNull()) {
				problem(path + ".requests", "is required: completed, failed, cancelled (null when unknown)");
			}
			else if (object(requests, path + ".requests")) {
				allowOnly(requests, path + ".requests", "completed", "failed", "cancelled");
				optionalInteger(requests, path + ".requests", "completed", 0);
				optionalInteger(requests, path + ".requests", "failed", 0);
				optionalInteger(requests, path + ".requests", "cancelled", 0);
			}
			tokenStats(cell.get("output_tokens"), path + ".output_tokens");
			tokenStats(cell.get("reasoning_tokens"), path + ".reasoning_tokens");
			JsonNode metrics = cell.get("metrics");
			if (metrics == null || metrics.isNull()) {
				problem(path + ".metrics", "is required (it may be empty when nothing completed)");
			}
			else if (object(metrics, path + ".metrics")) {
				metrics.forEachEntry((name, value) -> metric(name, value, path + ".metrics" + key(name), knownMetric));
			}
			samples(cell.get("samples"), path + ".samples", knownMetric);
		}
	}

	private void metric(String name, JsonNode value, String path, java.util.function.Predicate<String> knownMetric) {
		if (!knownMetric.test(name)) {
			problem(path, "unknown metric \"" + name + "\": not in the catalogue and not in $.metric_definitions");
			return;
		}
		if (value.isNull() || value.isNumber()) {
			return;
		}
		if (!value.isObject()) {
			problem(path, "a metric value is a number, a statistics object or null, not " + describe(value));
			return;
		}
		value.forEachEntry((statistic, number) -> {
			if (!STATISTICS.contains(statistic) && !PERCENTILE.matcher(statistic).matches()) {
				problem(path + key(statistic), "unknown statistic \"" + statistic
						+ "\": use median, mean, std, min, max or a percentile p1 … p99");
			}
			else if (!number.isNumber() && !number.isNull()) {
				problem(path + key(statistic), "must be a number, not " + describe(number));
			}
		});
	}

	private void samples(@Nullable JsonNode samples, String path, java.util.function.Predicate<String> knownMetric) {
		if (samples == null || samples.isNull()) {
			return;
		}
		if (!samples.isArray()) {
			problem(path, "must be an array of per-request values, not " + describe(samples));
			return;
		}
		for (int i = 0; i < samples.size(); i++) {
			String samplePath = path + "[" + i + "]";
			JsonNode sample = samples.get(i);
			if (!object(sample, samplePath)) {
				continue;
			}
			// The path of a field is written only for a problem: a document may have millions of sample fields.
			sample.forEachEntry((name, value) -> {
				switch (name) {
					case "status" -> {
						if (!value.isString() || !SAMPLE_STATUSES.contains(value.asString())) {
							problem(samplePath + key(name), "must be \"ok\", \"failed\" or \"cancelled\", not " + describe(value));
						}
					}
					case "output_tokens", "reasoning_tokens" -> {
						if (!value.isNull() && (!value.isNumber() || value.doubleValue() < 0)) {
							nonNegativeNumber(value, samplePath + key(name));
						}
					}
					default -> {
						if (!knownMetric.test(name)) {
							problem(samplePath + key(name), "unknown metric \"" + name + "\": not in the catalogue and not in $.metric_definitions");
						}
						else if (!value.isNumber() && !value.isNull()) {
							problem(samplePath + key(name), "must be a number or null, not " + describe(value));
						}
					}
				}
			});
		}
	}

	private void tokenStats(@Nullable JsonNode stats, String path) {
		if (stats == null || stats.isNull() || !object(stats, path)) {
			return;
		}
		allowOnly(stats, path, TOKEN_STATISTICS.toArray(String[]::new));
		stats.forEachEntry((name, value) -> {
			if (TOKEN_STATISTICS.contains(name)) {
				nonNegativeNumber(value, path + key(name));
			}
		});
	}

	private void nonNegativeNumber(JsonNode value, String path) {
		if (value.isNull()) {
			return;
		}
		if (!value.isNumber()) {
			problem(path, "must be a number, not " + describe(value));
		}
		else if (finite(value) && value.doubleValue() < 0) {
			problem(path, "must not be negative, not " + value);
		}
	}

	private void stringArray(@Nullable JsonNode array, String path) {
		if (array == null || array.isNull()) {
			return;
		}
		if (!array.isArray()) {
			problem(path, "must be an array of strings, not " + describe(array));
			return;
		}
		for (int i = 0; i < array.size(); i++) {
			if (!array.get(i).isString()) {
				problem(path + "[" + i + "]", "must be a string, not " + describe(array.get(i)));
			}
		}
	}

	private void requiredObject(JsonNode parent, String parentPath, String field, BiConsumer<JsonNode, String> check) {
		String path = parentPath + "." + field;
		JsonNode node = parent.get(field);
		if (node == null || node.isNull()) {
			problem(path, "is required");
		}
		else if (object(node, path)) {
			check.accept(node, path);
		}
	}

	private @Nullable String requiredString(JsonNode parent, String parentPath, String field) {
		JsonNode node = parent.get(field);
		if (node == null || node.isNull()) {
			problem(parentPath + "." + field, "is required");
			return null;
		}
		return optionalString(parent, parentPath, field);
	}

	/** A required name: the system, model repository, engine and harness names (listed and indexed for search). */
	private void requiredText(JsonNode parent, String parentPath, String field) {
		String value = requiredString(parent, parentPath, field);
		if (value != null && value.isBlank()) {
			problem(parentPath + "." + field, "must not be blank");
		}
		// PostgreSQL cannot index a longer value (about 2,700 bytes), and no real name is that long.
		else if (value != null && value.length() > MAX_NAME) {
			problem(parentPath + "." + field, "is " + value.length() + " characters; at most " + MAX_NAME);
		}
	}

	private @Nullable String optionalString(JsonNode parent, String parentPath, String field) {
		JsonNode node = parent.get(field);
		if (node == null || node.isNull()) {
			return null;
		}
		if (!node.isString()) {
			problem(parentPath + "." + field, "must be a string, not " + describe(node));
			return null;
		}
		return node.asString();
	}

	private void optionalInteger(JsonNode parent, String parentPath, String field, int minimum) {
		JsonNode node = parent.get(field);
		if (node == null || node.isNull()) {
			return;
		}
		String path = parentPath + "." + field;
		if (!node.isIntegralNumber() || !node.canConvertToInt()) {
			problem(path, "must be a whole number, not " + describe(node));
		}
		else if (node.intValue() < minimum) {
			problem(path, "must be at least " + minimum + ", not " + node.intValue());
		}
	}

	private boolean object(JsonNode node, String path) {
		if (!node.isObject()) {
			problem(path, "must be an object, not " + describe(node));
			return false;
		}
		return true;
	}

	private void allowOnly(JsonNode object, String path, String... allowed) {
		Set<String> names = Set.of(allowed);
		for (String name : object.propertyNames()) {
			if (!names.contains(name)) {
				problem(path + key(name), "unknown field \"" + name + "\" (allowed here: " + String.join(", ", allowed) + ")");
			}
		}
	}

	/**
	 * Every value must be storable as it was written and read back as it was meant: numbers within the range of a
	 * double (1e400 would become Infinity, or break every page that shows it), and text without NUL characters
	 * (PostgreSQL refuses them) or unpaired surrogates (they cannot be encoded, so they would come back as "?").
	 */
	private void storable(JsonNode node, String root) {
		storable(node, root, new ArrayList<>());
	}

	/** The walk of {@link #storable(JsonNode, String)}; the path is built only for a problem (documents are large). */
	private void storable(JsonNode node, String root, List<Object> path) {
		if (node.isNumber()) {
			if (node.isDouble() && Double.isNaN(node.doubleValue())) {
				problem(path(root, path), "NaN is not a number that can be stored");
			}
			else if (!finite(node)) {
				problem(path(root, path), "the number " + abbreviate(node.toString())
						+ " is beyond the range of a 64-bit floating-point number (about ±1.8e308)");
			}
		}
		else if (node.isString()) {
			String problem = unstorableText(node.stringValue());
			if (problem != null) {
				problem(path(root, path), "the text " + problem);
			}
		}
		else if (node.isObject()) {
			for (Map.Entry<String, JsonNode> field : node.properties()) {
				path.add(field.getKey());
				String problem = unstorableText(field.getKey());
				if (problem != null) {
					problem(path(root, path), "the field name " + problem);
				}
				storable(field.getValue(), root, path);
				path.remove(path.size() - 1);
			}
		}
		else if (node.isArray()) {
			for (int i = 0; i < node.size(); i++) {
				path.add(i);
				storable(node.get(i), root, path);
				path.remove(path.size() - 1);
			}
		}
	}

	private static String path(String root, List<Object> segments) {
		StringBuilder path = new StringBuilder(root);
		for (Object segment : segments) {
			path.append(segment instanceof Integer index ? "[" + index + "]" : key((String) segment));
		}
		return path.toString();
	}

	/** What makes a text unstorable, or {@code null}: a NUL, or an unpaired surrogate. */
	private static @Nullable String unstorableText(String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == '\0') {
				return "holds a NUL character (\\u0000), which cannot be stored";
			}
			if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
				i++;
			}
			else if (Character.isSurrogate(c)) {
				return "holds an unpaired surrogate (\\u" + Integer.toHexString(c) + "), which is not Unicode text";
			}
		}
		return null;
	}

	/** Whether a number node's value is a finite double; {@code doubleValue()} itself throws for huge integers. */
	private static boolean finite(JsonNode number) {
		return Double.isFinite(number.numberValue().doubleValue());
	}

	private void problem(String path, String message) {
		problems.add(new Problem(path, message));
	}

	private static String key(String name) {
		return SIMPLE_KEY.matcher(name).matches() ? "." + name : "['" + printable(name).replace("'", "\\'") + "']";
	}

	/** Text as it can be shown and stored: control characters and unpaired surrogates written as hexadecimal escapes. */
	public static String printable(String text) {
		StringBuilder out = new StringBuilder(text.length());
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
				out.append(c).append(text.charAt(++i));
			}
			else if (Character.isISOControl(c) && c != '\n' && c != '\t' || Character.isSurrogate(c)) {
				out.append(String.format("\\u%04x", (int) c));
			}
			else {
				out.append(c);
			}
		}
		return out.toString();
	}

	private static String describe(JsonNode node) {
		String type = switch (node.getNodeType()) {
			case STRING -> "a string";
			case NUMBER -> "a number";
			case BOOLEAN -> "a boolean";
			case ARRAY -> "an array";
			case OBJECT -> "an object";
			case NULL -> "null";
			default -> node.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
		};
		String text = node.isContainer() ? "" : " (" + abbreviate(node.toString()) + ")";
		return type + text;
	}

	private static String abbreviate(String text) {
		return text.length() > 60 ? text.substring(0, 57) + "…" : text;
	}

}
