package dev.parity.ingest.web;

import java.lang.reflect.RecordComponent;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.parity.ingest.harness.HarnessFormat;
import dev.parity.ingest.harness.ImportTooLarge;
import dev.parity.ingest.harness.JsonBudget;
import dev.parity.ingest.harness.JsonLimits;
import dev.parity.ingest.harness.MetricColumn;
import dev.parity.ingest.harness.MetricUnit;
import dev.parity.ingest.harness.TableMapping;
import dev.parity.web.Problem;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.util.StringUtils;

/**
 * The provenance form of a harness import (what the harness never recorded), and the
 * column mapping of a published table. Bound from the form; turned into the run-document
 * shape for validation, so that every problem is reported with the path of the field it
 * concerns.
 */
record ProvenanceForm(@Nullable String title, @Nullable String role, @Nullable String sourceUrl,
		@Nullable String sourceRevision, @Nullable String sourceNote, @Nullable String recordedAt,
		@Nullable String systemName, @Nullable String systemHardware, @Nullable String systemNodes,
		@Nullable String modelRepo, @Nullable String modelRevision, @Nullable String modelCommit,
		@Nullable String engineName, @Nullable String engineVersion, @Nullable String engineFlags,
		@Nullable String engineWarnings, @Nullable String harnessName, @Nullable String harnessVersion,
		@Nullable String harnessCommand, @Nullable String tokenCounting, @Nullable String dataset,
		@Nullable String outputTokens, @Nullable String reasoning, @Nullable String requestParams,
		@Nullable String warmupRequests, @Nullable String caveats, @Nullable String promptColumn,
		@Nullable String concurrencyColumn, @Nullable String metricColumns, @Nullable String paramColumns,
		@Nullable String engineCommit, @Nullable String branch, @Nullable String tableNumber) {

	static ProvenanceForm empty() {
		return new ProvenanceForm(null, null, null, null, null, null, null, null, null, null, null, null, null, null,
				null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
				null, null);
	}

	/**
	 * The form with the caveats field set, e.g. to the text under a published table,
	 * offered to be kept.
	 */
	ProvenanceForm withCaveats(@Nullable String text) {
		return new ProvenanceForm(title, role, sourceUrl, sourceRevision, sourceNote, recordedAt, systemName,
				systemHardware, systemNodes, modelRepo, modelRevision, modelCommit, engineName, engineVersion,
				engineFlags, engineWarnings, harnessName, harnessVersion, harnessCommand, tokenCounting, dataset,
				outputTokens, reasoning, requestParams, warmupRequests, text, promptColumn, concurrencyColumn,
				metricColumns, paramColumns, engineCommit, branch, tableNumber);
	}

	/**
	 * The form field each part of the run document comes from, for a problem to be shown
	 * next to its field.
	 */
	private static final Map<String, String> FIELDS = fieldsByPath();

	private static Map<String, String> fieldsByPath() {
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put("$.title", "title");
		fields.put("$.role", "role");
		fields.put("$.recorded_at", "recordedAt");
		fields.put("$.source.url", "sourceUrl");
		fields.put("$.source.revision", "sourceRevision");
		fields.put("$.source.note", "sourceNote");
		fields.put("$.source", "sourceUrl");
		fields.put("$.system.name", "systemName");
		fields.put("$.system.hardware", "systemHardware");
		fields.put("$.system.nodes", "systemNodes");
		fields.put("$.system", "systemName");
		fields.put("$.model.repo", "modelRepo");
		fields.put("$.model.revision", "modelRevision");
		fields.put("$.model.commit", "modelCommit");
		fields.put("$.model", "modelRepo");
		fields.put("$.engine.name", "engineName");
		fields.put("$.engine.version", "engineVersion");
		fields.put("$.engine.commit", "engineCommit");
		fields.put("$.context.branch", "branch");
		fields.put("$.engine.flags", "engineFlags");
		fields.put("$.engine.warnings", "engineWarnings");
		fields.put("$.engine", "engineName");
		fields.put("$.harness.name", "harnessName");
		fields.put("$.harness.version", "harnessVersion");
		fields.put("$.harness.command", "harnessCommand");
		fields.put("$.harness.token_counting", "tokenCounting");
		fields.put("$.harness", "harnessName");
		fields.put("$.workload.dataset", "dataset");
		fields.put("$.workload.output_tokens", "outputTokens");
		fields.put("$.workload.reasoning", "reasoning");
		fields.put("$.workload.request_params", "requestParams");
		fields.put("$.workload.warmup_requests", "warmupRequests");
		fields.put("$.caveats", "caveats");
		return fields;
	}

	/**
	 * Whether any field of the form was sent with a value: the uploader has acted on the
	 * form.
	 */
	boolean anyTyped() {
		for (RecordComponent component : ProvenanceForm.class.getRecordComponents()) {
			try {
				if (component.getAccessor().invoke(this) instanceof String value && !value.isBlank()) {
					return true;
				}
			}
			catch (ReflectiveOperationException ex) {
				throw new IllegalStateException(ex);
			}
		}
		return false;
	}

	/**
	 * A form field's label as the import page shows it ("System name" for
	 * {@code systemName}).
	 */
	static String label(String field) {
		return switch (field) {
			case "title" -> "Title";
			case "systemName" -> "System name";
			case "modelRepo" -> "Model repo";
			case "modelCommit" -> "Resolved commit";
			case "engineName" -> "Engine name";
			case "harnessName" -> "Harness name";
			case "sourceUrl" -> "Source URL";
			default -> field.replaceAll("([A-Z])", " $1").toLowerCase(Locale.ROOT);
		};
	}

	/**
	 * Problems by the form field they concern (the first path that names it), every one
	 * of them at once.
	 */
	static Map<String, List<String>> fieldErrors(List<Problem> problems) {
		Map<String, List<String>> errors = new LinkedHashMap<>();
		for (Problem problem : problems) {
			String path = problem.path() == null ? "" : problem.path();
			FIELDS.entrySet()
				.stream()
				.filter(e -> path.equals(e.getKey()) || path.startsWith(e.getKey() + ".")
						|| path.startsWith(e.getKey() + "["))
				.findFirst()
				.ifPresent(e -> errors.computeIfAbsent(e.getValue(), k -> new ArrayList<>()).add(problem.message()));
		}
		return errors;
	}

	/** The engine a format's files come from, when the uploader has not named one. */
	ProvenanceForm withEngineOf(@Nullable HarnessFormat format) {
		if (StringUtils.hasText(engineName) || format == null) {
			return this;
		}
		String engine = switch (format.id()) {
			case "vllm", "vllm-sweep" -> "vllm";
			case "sglang" -> "sglang";
			default -> null;
		};
		return engine == null ? this
				: new ProvenanceForm(title, role, sourceUrl, sourceRevision, sourceNote, recordedAt, systemName,
						systemHardware, systemNodes, modelRepo, modelRevision, modelCommit, engine, engineVersion,
						engineFlags, engineWarnings, harnessName, harnessVersion, harnessCommand, tokenCounting,
						dataset, outputTokens, reasoning, requestParams, warmupRequests, caveats, promptColumn,
						concurrencyColumn, metricColumns, paramColumns, engineCommit, branch, tableNumber);
	}

	/**
	 * A date and time as the form's date-time field gives it ("2026-08-11T10:10"), read
	 * as UTC; else as typed.
	 */
	static @Nullable String instant(@Nullable String value) {
		if (value == null || !value.strip().matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?")) {
			return value;
		}
		String local = value.strip();
		return (local.length() == 16 ? local + ":00" : local) + "Z";
	}

	/** The recorded time as the date-time field shows it: UTC, without the zone. */
	public @Nullable String recordedAtLocal() {
		if (!StringUtils.hasText(recordedAt)) {
			return null;
		}
		try {
			return OffsetDateTime.parse(recordedAt.strip())
				.atZoneSameInstant(ZoneOffset.UTC)
				.toLocalDateTime()
				.toString();
		}
		catch (DateTimeParseException ex) {
			return recordedAt.strip().replaceFirst("Z$", "");
		}
	}

	/** The run-document shape of what was filled in; blank fields are left out. */
	ObjectNode toJson(JsonMapper json) {
		ObjectNode doc = json.createObjectNode();
		put(doc, "title", title);
		put(doc, "role", role);
		put(doc, "recorded_at", instant(recordedAt));
		ObjectNode source = json.createObjectNode();
		put(source, "url", sourceUrl);
		put(source, "revision", sourceRevision);
		put(source, "note", sourceNote);
		if (!source.isEmpty()) {
			doc.set("source", source);
		}
		ObjectNode system = json.createObjectNode();
		put(system, "name", systemName);
		put(system, "hardware", systemHardware);
		putInteger(system, "nodes", systemNodes);
		setIfAny(doc, "system", system);
		ObjectNode model = json.createObjectNode();
		put(model, "repo", modelRepo);
		put(model, "revision", modelRevision);
		put(model, "commit", modelCommit);
		setIfAny(doc, "model", model);
		ObjectNode engine = json.createObjectNode();
		put(engine, "name", engineName);
		put(engine, "version", engineVersion);
		put(engine, "commit", engineCommit);
		Map<String, String> flags = keyValues(engineFlags);
		if (!flags.isEmpty()) {
			ObjectNode flagNode = engine.putObject("flags");
			flags.forEach(flagNode::put);
		}
		List<String> warnings = lines(engineWarnings);
		if (!warnings.isEmpty()) {
			ArrayNode array = engine.putArray("warnings");
			warnings.forEach(array::add);
		}
		setIfAny(doc, "engine", engine);
		ObjectNode harness = json.createObjectNode();
		put(harness, "name", harnessName);
		put(harness, "version", harnessVersion);
		put(harness, "command", harnessCommand);
		put(harness, "token_counting", tokenCounting);
		setIfAny(doc, "harness", harness);
		ObjectNode workload = json.createObjectNode();
		put(workload, "dataset", dataset);
		putInteger(workload, "output_tokens", outputTokens);
		put(workload, "reasoning", reasoning);
		if (StringUtils.hasText(requestParams)) {
			try {
				// Counted before the tree is built: a form field can hold a huge array in
				// few bytes.
				try (JsonParser counting = json.createParser(requestParams)) {
					JsonBudget.of(JsonLimits.DEFAULT).check(counting, "request parameters");
				}
				workload.set("request_params", json.readTree(requestParams));
			}
			catch (ImportTooLarge ex) {
				throw new IllegalArgumentException(ex.getMessage(), ex);
			}
			catch (RuntimeException ex) {
				workload.put("request_params", requestParams.strip());
			}
		}
		putInteger(workload, "warmup_requests", warmupRequests);
		setIfAny(doc, "workload", workload);
		ObjectNode context = json.createObjectNode();
		put(context, "branch", branch);
		setIfAny(doc, "context", context);
		List<String> caveatLines = lines(caveats);
		if (!caveatLines.isEmpty()) {
			ArrayNode array = doc.putArray("caveats");
			caveatLines.forEach(array::add);
		}
		return doc;
	}

	/**
	 * The form pre-filled with what the files state, overlaid by what the uploader
	 * already typed.
	 */
	static ProvenanceForm prefill(@Nullable JsonNode fromFiles, ProvenanceForm typed) {
		JsonNode f = fromFiles == null ? JsonMapper.builder().build().createObjectNode() : fromFiles;
		return new ProvenanceForm(or(typed.title, f.path("title")), or(typed.role, f.path("role")),
				or(typed.sourceUrl, f.path("source").path("url")),
				or(typed.sourceRevision, f.path("source").path("revision")),
				or(typed.sourceNote, f.path("source").path("note")), or(typed.recordedAt, f.path("recorded_at")),
				or(typed.systemName, f.path("system").path("name")),
				or(typed.systemHardware, f.path("system").path("hardware")),
				or(typed.systemNodes, f.path("system").path("nodes")),
				or(typed.modelRepo, f.path("model").path("repo")),
				or(typed.modelRevision, f.path("model").path("revision")),
				or(typed.modelCommit, f.path("model").path("commit")),
				or(typed.engineName, f.path("engine").path("name")),
				or(typed.engineVersion, f.path("engine").path("version")), typed.engineFlags, typed.engineWarnings,
				or(typed.harnessName, f.path("harness").path("name")),
				or(typed.harnessVersion, f.path("harness").path("version")),
				or(typed.harnessCommand, f.path("harness").path("command")),
				or(typed.tokenCounting, f.path("harness").path("token_counting")),
				or(typed.dataset, f.path("workload").path("dataset")),
				or(typed.outputTokens, f.path("workload").path("output_tokens")),
				or(typed.reasoning, f.path("workload").path("reasoning")),
				typed.requestParams != null ? typed.requestParams
						: f.path("workload").has("request_params") ? f.path("workload").get("request_params").toString()
								: null,
				or(typed.warmupRequests, f.path("workload").path("warmup_requests")), typed.caveats, typed.promptColumn,
				typed.concurrencyColumn, typed.metricColumns, typed.paramColumns,
				or(typed.engineCommit, f.path("engine").path("commit")),
				or(typed.branch, f.path("context").path("branch")), typed.tableNumber);
	}

	/**
	 * The table mapping: metric columns as lines
	 * {@code Column = metric [unit] [statistic]} (no unit: the header's, else the
	 * metric's), param columns as {@code Column = param}, the table to read as its
	 * number; {@code null} when no prompt column is given.
	 * @throws IllegalArgumentException naming the line that cannot be read
	 */
	@Nullable TableMapping mapping() {
		if (!StringUtils.hasText(promptColumn)) {
			return null;
		}
		Map<String, MetricColumn> metrics = new LinkedHashMap<>();
		for (Map.Entry<String, String> line : keyValues(metricColumns).entrySet()) {
			String[] words = line.getValue().trim().split("\\s+");
			if (words.length < 1 || words[0].isEmpty() || words.length > 3) {
				throw new IllegalArgumentException("metric column '" + line.getKey()
						+ "': write 'Column = metric [unit] [statistic]', e.g. 'TTFT (ms) = ttft_s ms' or 'TTFT (ms) = ttft_s'");
			}
			String unit = words.length == 3 ? words[1] : null;
			String statistic = words.length == 3 ? words[2] : null;
			if (words.length == 2) {
				boolean isStatistic = MetricUnit.parse(words[1]).isEmpty()
						&& words[1].matches("median|mean|std|min|max|p\\d{1,2}(\\.\\d+)?");
				unit = isStatistic ? null : words[1];
				statistic = isStatistic ? words[1] : null;
			}
			metrics.put(line.getKey(), new MetricColumn(words[0], unit, statistic));
		}
		Integer table = null;
		if (StringUtils.hasText(tableNumber) && !tableNumber.strip().equals("auto")) {
			try {
				table = Integer.valueOf(tableNumber.strip());
			}
			catch (NumberFormatException ex) {
				throw new IllegalArgumentException(
						"table '" + tableNumber + "': the number of the table to read, e.g. 2");
			}
		}
		return new TableMapping(promptColumn.strip(),
				StringUtils.hasText(concurrencyColumn) ? concurrencyColumn.strip() : null, metrics,
				StringUtils.hasText(sourceUrl) ? sourceUrl.strip() : "",
				StringUtils.hasText(sourceRevision) ? sourceRevision.strip() : null, keyValues(paramColumns), table);
	}

	private static @Nullable String or(@Nullable String typed, JsonNode fromFile) {
		if (StringUtils.hasText(typed)) {
			return typed;
		}
		return fromFile.isMissingNode() || fromFile.isNull() ? null : fromFile.asString();
	}

	private static void put(ObjectNode node, String field, @Nullable String value) {
		if (StringUtils.hasText(value)) {
			node.put(field, value.strip());
		}
	}

	/**
	 * A whole number stays a number; anything else is kept as text so that validation
	 * names it.
	 */
	private static void putInteger(ObjectNode node, String field, @Nullable String value) {
		if (!StringUtils.hasText(value)) {
			return;
		}
		try {
			node.put(field, Integer.parseInt(value.strip()));
		}
		catch (NumberFormatException ex) {
			node.put(field, value.strip());
		}
	}

	private static void setIfAny(ObjectNode doc, String field, ObjectNode value) {
		if (!value.isEmpty()) {
			doc.set(field, value);
		}
	}

	static Map<String, String> keyValues(@Nullable String text) {
		Map<String, String> map = new LinkedHashMap<>();
		for (String line : lines(text)) {
			int eq = line.indexOf('=');
			if (eq <= 0) {
				throw new IllegalArgumentException("'" + line + "': write one 'name=value' per line");
			}
			map.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
		}
		return map;
	}

	private static List<String> lines(@Nullable String text) {
		if (!StringUtils.hasText(text)) {
			return List.of();
		}
		return Arrays.stream(text.split("\\R")).map(String::strip).filter(s -> !s.isEmpty()).toList();
	}

}
