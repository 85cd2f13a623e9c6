package dev.parity.run;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Reads a {@code benchmark-run/1} document that has already been validated into a
 * {@link RunDocument}. The same reading serves uploads and runs loaded back from the
 * database, so both mean the same.
 */
public final class RunDocumentReader {

	/** The document format this reader understands. */
	public static final String FORMAT = "benchmark-run/1";

	private RunDocumentReader() {
	}

	public static RunDocument read(JsonNode document) {
		return new RunDocument(document.get("title").asString(), Role.of(document.get("role").asString()),
				instant(document.get("recorded_at")), provenance(document), cells(document.get("cells")));
	}

	/**
	 * The provenance part of a document (everything but format, title, role, recorded_at
	 * and cells).
	 */
	public static Provenance provenance(JsonNode document) {
		JsonNode source = document.path("source");
		JsonNode system = document.path("system");
		JsonNode model = document.path("model");
		JsonNode engine = document.path("engine");
		JsonNode harness = document.path("harness");
		JsonNode workload = document.path("workload");
		String commit = text(model.get("commit"));
		String engineCommit = text(engine.get("commit"));
		Map<String, String> flags = new LinkedHashMap<>();
		engine.path("flags").forEachEntry((name, value) -> flags.put(name, value.asString()));
		List<String> warnings = strings(engine.get("warnings"));
		List<MetricDefinition> definitions = new ArrayList<>();
		document.path("metric_definitions")
			.forEachEntry((name,
					definition) -> definitions.add(new MetricDefinition(name, definition.path("unit").asString(""),
							"higher".equals(definition.path("better").asString("")),
							definition.path("output_sensitive").asBoolean(false))));
		JsonNode requestParams = workload.get("request_params");
		return new Provenance(
				source.isObject() ? new Provenance.Source(text(source.get("url")), text(source.get("revision")),
						text(source.get("note"))) : null,
				new Provenance.SystemUnderTest(system.path("name").asString(), text(system.get("hardware")),
						integer(system.get("nodes"))),
				new Provenance.Model(model.path("repo").asString(), text(model.get("revision")),
						commit == null ? null : CommitSha.of(commit)),
				new Provenance.Engine(engine.path("name").asString(), text(engine.get("version")), flags, warnings,
						engineCommit == null ? null : CommitSha.of(engineCommit)),
				new Provenance.Harness(harness.path("name").asString(), text(harness.get("version")),
						text(harness.get("command")), text(harness.get("token_counting"))),
				new Provenance.Workload(text(workload.get("dataset")), integer(workload.get("output_tokens")),
						text(workload.get("reasoning")),
						requestParams == null || requestParams.isNull() ? null : requestParams,
						integer(workload.get("warmup_requests"))),
				definitions, strings(document.get("caveats")), context(document.get("context")),
				environment(document.get("environment")));
	}

	private static Provenance.@Nullable Context context(@Nullable JsonNode context) {
		if (context == null || !context.isObject()) {
			return null;
		}
		return new Provenance.Context(text(context.get("branch")), text(context.get("pull_request")),
				text(context.get("ci_url")), stringMap(context.get("labels")));
	}

	private static Provenance.@Nullable Environment environment(@Nullable JsonNode environment) {
		if (environment == null || !environment.isObject()) {
			return null;
		}
		JsonNode e = environment;
		return new Provenance.Environment(text(e.get("gpu")), integer(e.get("gpu_count")), text(e.get("driver")),
				text(e.get("cuda")), text(e.get("container_image")), text(e.get("container_digest")), text(e.get("os")),
				text(e.get("kernel")), stringMap(e.get("python_packages")), stringMap(e.get("other")));
	}

	private static Map<String, String> stringMap(@Nullable JsonNode map) {
		Map<String, String> result = new LinkedHashMap<>();
		if (map != null && map.isObject()) {
			map.forEachEntry((name, value) -> result.put(name, value.asString()));
		}
		return result;
	}

	public static List<Cell> cells(JsonNode cells) {
		List<Cell> result = new ArrayList<>(cells.size());
		for (JsonNode cell : cells) {
			result.add(cell(cell));
		}
		return result;
	}

	public static Cell cell(JsonNode cell) {
		JsonNode requests = cell.path("requests");
		return new Cell(params(cell.get("params")), integer(cell.get("order")),
				new RequestCounts(integer(requests.get("completed")), integer(requests.get("failed")),
						integer(requests.get("cancelled"))),
				tokens(cell.get("output_tokens")), tokens(cell.get("reasoning_tokens")), metrics(cell.get("metrics")),
				samples(cell.get("samples")));
	}

	public static Params params(JsonNode params) {
		TreeMap<String, Object> values = new TreeMap<>();
		params.forEachEntry(
				(name, value) -> values.put(name, value.isNumber() ? value.decimalValue() : value.asString()));
		return new Params(values);
	}

	public static Map<String, MetricValue> metrics(@Nullable JsonNode metrics) {
		Map<String, MetricValue> result = new LinkedHashMap<>();
		if (metrics == null) {
			return result;
		}
		metrics.forEachEntry((name, value) -> {
			if (value.isNumber()) {
				result.put(name, MetricValue.of(value.doubleValue()));
			}
			else if (value.isObject()) {
				Map<String, Double> statistics = new LinkedHashMap<>();
				value.forEachEntry((statistic, number) -> {
					if (number.isNumber()) {
						statistics.put(statistic, number.doubleValue());
					}
				});
				if (!statistics.isEmpty()) {
					result.put(name, new MetricValue(statistics, false));
				}
			}
		});
		return result;
	}

	private static List<Sample> samples(@Nullable JsonNode samples) {
		List<Sample> result = new ArrayList<>();
		if (samples == null || !samples.isArray()) {
			return result;
		}
		for (JsonNode sample : samples) {
			Map<String, Double> metrics = new LinkedHashMap<>();
			sample.forEachEntry((name, value) -> {
				if (!name.equals("status") && !name.equals("output_tokens") && !name.equals("reasoning_tokens")
						&& value.isNumber()) {
					metrics.put(name, value.doubleValue());
				}
			});
			result.add(new Sample(text(sample.get("status")), number(sample.get("output_tokens")),
					number(sample.get("reasoning_tokens")), metrics));
		}
		return result;
	}

	private static @Nullable TokenStats tokens(@Nullable JsonNode tokens) {
		if (tokens == null || !tokens.isObject()) {
			return null;
		}
		TokenStats stats = new TokenStats(number(tokens.get("median")), number(tokens.get("min")),
				number(tokens.get("max")), number(tokens.get("mean")));
		return stats.isEmpty() ? null : stats;
	}

	private static @Nullable Instant instant(@Nullable JsonNode node) {
		String text = text(node);
		return text == null ? null : OffsetDateTime.parse(text).toInstant();
	}

	private static @Nullable String text(@Nullable JsonNode node) {
		return node == null || node.isNull() || !node.isValueNode() ? null : node.asString();
	}

	private static @Nullable Integer integer(@Nullable JsonNode node) {
		return node == null || !node.isNumber() ? null : node.intValue();
	}

	private static @Nullable Double number(@Nullable JsonNode node) {
		return node == null || !node.isNumber() ? null : node.doubleValue();
	}

	private static List<String> strings(@Nullable JsonNode node) {
		List<String> result = new ArrayList<>();
		if (node != null && node.isArray()) {
			node.forEach(item -> result.add(item.asString()));
		}
		return result;
	}

}
