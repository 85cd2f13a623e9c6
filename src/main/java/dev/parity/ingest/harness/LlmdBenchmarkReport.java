package dev.parity.ingest.harness;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.DoubleUnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.parity.run.Params;
import dev.parity.run.TokenStats;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The llm-d benchmark report, version 0.2 (and its additive 0.2.x revisions): one report
 * per load stage, written as YAML (or JSON) by llm-d-benchmark
 * ({@code benchmark_report_v0.2,_*.yaml}) and, as a partial holding only {@code version},
 * {@code run} and {@code results}, by inference-perf
 * ({@code inference-perf.partial.stage_<n>.yaml}). Each report is one cell.
 * <p>
 * The load comes from {@code scenario.load.standardized}: a finite {@code concurrency} is
 * the concurrency; otherwise {@code rate_qps} is the request rate
 * ({@code concurrency: .inf} means unlimited). Beside a concurrency, {@code rate_qps} is
 * not a rate the stage kept to (llm-d-benchmark fills it with inference-perf's requested
 * rate, which for a concurrency stage is its request count), so it is noted and left out.
 * Every statistic carries its own {@code units} and is converted to the catalogue's.
 * {@code total} counts every request, {@code failures} the failed ones; the report says
 * nothing of cancelled requests unless it gives {@code incomplete}.
 */
final class LlmdBenchmarkReport implements HarnessImporter {

	private static final YAMLMapper YAML = YAMLMapper.builder().build();

	/**
	 * A line {@code version: 0.2}, {@code version: '0.2.1'} or {@code "version": "0.2"}
	 * in the text.
	 */
	private static final Pattern VERSION_LINE = Pattern
		.compile("(?m)^[ \\t]*+\"?version\"?[ \\t]*+:[ \\t]*+['\"]?0\\.2(?:\\.\\d++)?['\"]?[ \\t]*+,?[ \\t\\r]*+$");

	private static final Pattern STAGE = Pattern.compile("stage[-_](\\d+)");

	private static final Map<String, String> LATENCIES = latencies();

	private static Map<String, String> latencies() {
		Map<String, String> latencies = new LinkedHashMap<>();
		latencies.put("time_to_first_token", "ttft_s");
		latencies.put("time_per_output_token", "tpot_ms");
		latencies.put("inter_token_latency", "itl_ms");
		latencies.put("request_latency", "e2e_latency_s");
		latencies.put("normalized_time_per_output_token", NTPOT);
		return latencies;
	}

	/**
	 * Normalized time per output token (request latency / output tokens): llm-d's NTPOT,
	 * outside the catalogue.
	 */
	static final String NTPOT = "ntpot_ms";

	@Override
	public HarnessFormat format() {
		return HarnessFormat.LLMD_REPORT;
	}

	@Override
	public FileRole role(ParsedFile file) {
		if (file.looksLikeJson()) {
			JsonNode json = file.jsonOrNull();
			if (json == null) {
				return HarnessImporter.otherFile(file);
			}
			return isReport(json) ? FileRole.OWN : FileRole.FOREIGN;
		}
		String text = file.text();
		if (!text.contains("request_performance") || text.indexOf('\0') >= 0 || !VERSION_LINE.matcher(text).find()) {
			return FileRole.IGNORABLE;
		}
		// The text says it is a report; one that does not parse is rejected, naming the
		// place, when read.
		return FileRole.OWN;
	}

	private static boolean isReport(JsonNode node) {
		return node.isObject() && version(node) != null && node.path("results").isObject();
	}

	private static @Nullable String version(JsonNode node) {
		JsonNode version = node.path("version");
		String text = version.isString() ? version.stringValue().trim()
				: version.isNumber() ? version.numberValue().toString() : "";
		return text.equals("0.2") || text.startsWith("0.2.") ? text : null;
	}

	@Override
	public HarnessImport read(List<ParsedFile> files, @Nullable TableMapping mapping) {
		RunDraft run = new RunDraft();
		List<Instant> starts = new ArrayList<>();
		List<Integer> stages = new ArrayList<>();
		for (ParsedFile file : ownFiles(files, run)) {
			JsonNode report = parse(file);
			String name = file.name();
			if (!report.isObject() || version(report) == null) {
				throw new ImportRejected(name + ": not an llm-d benchmark report of version 0.2 (version: "
						+ report.path("version").asString("absent") + ")");
			}
			JsonNode aggregate = report.path("results").path("request_performance").path("aggregate");
			if (!aggregate.isObject()) {
				throw new ImportRejected(
						name + ": results.request_performance.aggregate is missing: the report holds no"
								+ " request results");
			}
			JsonNode load = report.path("scenario").path("load").path("standardized");
			Integer stage = stage(load, report, name);
			stages.add(stage);
			CellDraft cell = new CellDraft(name);
			params(load, stage, cell, name, run);
			counts(aggregate.path("requests"), cell, name, run);
			metrics(aggregate, cell, name, run);
			run.cell(cell);
			Instant start = RecordedAt.ofText(timeText(report.path("run").path("time").path("start")), "run.time.start",
					name, run);
			starts.add(start);
			run.recordedAt(start);
			provenance(report, load, name, run);
		}
		distinguishByStage(run.cells(), stages, run);
		ExecutionOrder.byTimestamps(run.cells(), starts, run);
		run.note("input_token_rate and total_token_rate are not catalogue metrics: left out");
		return run.toImport();
	}

	private static JsonNode parse(ParsedFile file) {
		if (file.looksLikeJson()) {
			return file.json();
		}
		try {
			JsonNode node = file.yaml(YAML, file.text());
			if (node == null || node.isMissingNode()) {
				throw new ImportRejected(file.name() + ": empty, not a report");
			}
			return node;
		}
		catch (JacksonException ex) {
			var location = ex.getLocation();
			throw new ImportRejected(file.name() + ": not valid YAML"
					+ (location != null && location.getLineNr() > 0 ? " at line " + location.getLineNr() : "") + ": "
					+ ex.getOriginalMessage());
		}
	}

	private static @Nullable String timeText(JsonNode node) {
		return node.isString() ? node.stringValue() : null;
	}

	/**
	 * The stage: the scenario's, else the one in inference-perf's run uid or the file
	 * name.
	 */
	private static @Nullable Integer stage(JsonNode load, JsonNode report, String name) {
		Integer stage = Fields.integer(load, "stage");
		if (stage != null) {
			return stage;
		}
		for (String text : new String[] { Fields.text(report.path("run"), "uid"), name }) {
			if (text != null) {
				Matcher matcher = STAGE.matcher(text);
				if (matcher.find()) {
					return Integer.valueOf(matcher.group(1));
				}
			}
		}
		return null;
	}

	private static void params(JsonNode load, @Nullable Integer stage, CellDraft cell, String name, RunDraft run) {
		if (!load.isObject()) {
			if (stage != null) {
				cell.param("stage", stage);
			}
			run.note(name + ": no scenario in the report (inference-perf's partial states only run and results): the"
					+ " cell is named by its stage; its rate or concurrency is in inference-perf's config");
			return;
		}
		Double concurrency = number(load.get("concurrency"));
		Double rate = number(load.get("rate_qps"));
		boolean unlimited = isInfinite(load.get("concurrency"));
		if (concurrency != null) {
			cell.param("concurrency", concurrency);
			if (rate != null) {
				run.note(name + ": rate_qps " + plain(rate) + " beside a concurrency of " + plain(concurrency)
						+ " is not a rate the stage kept to (a closed loop has none): not imported as request_rate");
			}
		}
		else if (rate != null) {
			cell.param("request_rate", rate);
		}
		else if (unlimited) {
			cell.param("request_rate", "inf");
		}
		JsonNode input = load.path("input_seq_len");
		Double prompt = Fields.number(input, "value");
		if (prompt != null) {
			cell.param("prompt_tokens", prompt);
			String distribution = Fields.text(input, "distribution");
			if (distribution != null && !distribution.equals("fixed")) {
				Integer min = Fields.integer(input, "min");
				Integer max = Fields.integer(input, "max");
				run.note(name + ": prompt_tokens is input_seq_len's value " + plain(prompt) + " of a " + distribution
						+ " distribution" + (min != null && max != null ? " (" + min + " to " + max + " tokens)" : ""));
			}
		}
	}

	private static boolean isInfinite(@Nullable JsonNode node) {
		if (node == null) {
			return false;
		}
		if (node.isNumber()) {
			return Double.isInfinite(node.doubleValue());
		}
		return node.isString() && node.stringValue().trim().matches("(?i)[+]?\\.?inf(inity)?");
	}

	private static @Nullable Double number(@Nullable JsonNode node) {
		return isInfinite(node) ? null : Fields.number(node);
	}

	private static void counts(JsonNode requests, CellDraft cell, String name, RunDraft run) {
		Integer total = Fields.integer(requests, "total");
		Integer failures = Fields.integer(requests, "failures");
		Integer incomplete = Fields.integer(requests, "incomplete");
		Integer completed = total == null || failures == null ? null
				: total - failures - (incomplete == null ? 0 : incomplete);
		if (completed != null && completed < 0) {
			throw new ImportRejected(name + ": requests: " + failures + " failures"
					+ (incomplete == null ? "" : " and " + incomplete + " incomplete") + " of " + total
					+ " requests in total");
		}
		cell.requests(completed, failures, incomplete);
		if (incomplete == null) {
			run.note("the reports give no incomplete count: cancelled requests are unknown");
		}
		if (failures == null) {
			run.note(name + ": the report gives no failure count: completed and failed are unknown");
		}
		JsonNode output = requests.path("output_length");
		if (output.isObject()) {
			cell.outputTokens(new TokenStats(Fields.number(output, "p50"), Fields.number(output, "min"),
					Fields.number(output, "max"), Fields.number(output, "mean")));
		}
	}

	private static void metrics(JsonNode aggregate, CellDraft cell, String name, RunDraft run) {
		JsonNode latency = aggregate.path("latency");
		LATENCIES.forEach((field, metric) -> {
			JsonNode statistics = latency.path(field);
			if (!statistics.isObject()) {
				return;
			}
			MetricUnit target = metric.equals(NTPOT) ? MetricUnit.MILLISECONDS
					: MetricUnit.ofCatalogueMetric(metric).orElseThrow();
			MetricUnit unit = timeUnit(statistics, "results.request_performance.aggregate.latency." + field, name);
			if (metric.equals(NTPOT)) {
				run.define(NTPOT, "ms", false, true);
			}
			cell.metric(metric, statistics(statistics, unit.to(target)::applyAsDouble));
		});
		JsonNode throughput = aggregate.path("throughput");
		rate(throughput.path("output_token_rate"), "output_token_rate", MetricUnit.TOKENS_PER_SECOND, "throughput_tps",
				cell, name);
		rate(throughput.path("request_rate"), "request_rate", MetricUnit.REQUESTS_PER_SECOND, "request_throughput",
				cell, name);
	}

	private static MetricUnit timeUnit(JsonNode statistics, String path, String name) {
		String units = Fields.text(statistics, "units");
		String unit = units == null ? "" : units.replace("/token", "").trim();
		return switch (unit) {
			case "s" -> MetricUnit.SECONDS;
			case "ms" -> MetricUnit.MILLISECONDS;
			default -> throw new ImportRejected(name + ": " + path + ".units '" + (units == null ? "" : units)
					+ "' is not a time Parity knows (s, ms, s/token or ms/token)");
		};
	}

	private static void rate(JsonNode statistics, String field, MetricUnit target, String metric, CellDraft cell,
			String name) {
		if (!statistics.isObject()) {
			return;
		}
		String units = Fields.text(statistics, "units");
		MetricUnit unit = units == null ? null : switch (units) {
			case "tokens/s" -> MetricUnit.TOKENS_PER_SECOND;
			case "queries/s" -> MetricUnit.REQUESTS_PER_SECOND;
			default -> null;
		};
		if (unit != target) {
			throw new ImportRejected(name + ": results.request_performance.aggregate.throughput." + field + ".units '"
					+ (units == null ? "" : units) + "' is not "
					+ (target == MetricUnit.TOKENS_PER_SECOND ? "tokens/s" : "queries/s"));
		}
		cell.metric(metric, Fields.number(statistics, "mean"));
	}

	/**
	 * The report's statistics under their document names: {@code p50} is the median,
	 * {@code stddev} the std, {@code p99p9} p99.9; {@code p0p1} (below p1) and
	 * {@code mode} have no document name and are left out.
	 */
	private static Statistics statistics(JsonNode node, DoubleUnaryOperator conversion) {
		Statistics.Builder builder = Statistics.builder();
		node.forEachEntry((key, value) -> {
			if (key.equals("units") || key.equals("mode")) {
				return;
			}
			Double number = Fields.number(value);
			String statistic = key.equals("p50") ? "median"
					: key.equals("stddev") ? "std" : key.replace("p99p9", "p99.9");
			builder.put(statistic, number == null ? null : conversion.applyAsDouble(number));
		});
		return builder.build().inDocumentOrder();
	}

	private static void provenance(JsonNode report, JsonNode load, String name, RunDraft run) {
		String tool = Fields.text(load, "tool");
		String uid = Fields.text(report.path("run"), "uid");
		if (tool == null && uid != null && uid.startsWith("inference-perf-")) {
			tool = "inference-perf";
		}
		run.state("harness.name", tool, name);
		run.state("harness.version", Fields.text(load, "tool_version"), name);
		String source = Fields.text(load, "source");
		if (source != null && !source.equals("unknown")) {
			run.state("workload.dataset", source, name);
		}
		JsonNode output = load.path("output_seq_len");
		if ("fixed".equals(Fields.text(output, "distribution"))) {
			run.state("workload.output_tokens", Fields.number(output, "value"), name);
		}
		for (JsonNode component : report.path("scenario").path("stack")) {
			JsonNode standardized = component.path("standardized");
			if (!"inference_engine".equals(Fields.text(standardized, "kind"))) {
				continue;
			}
			ModelName.state(run, Fields.text(standardized.path("model"), "name"),
					"scenario.stack[].standardized.model.name", name);
			JsonNode accelerator = standardized.path("accelerator");
			String gpu = Fields.text(accelerator, "model");
			Integer count = Fields.integer(accelerator, "count");
			if (gpu != null) {
				run.state("system.hardware", (count != null ? count + "x " : "") + gpu, name);
			}
		}
	}

	/**
	 * Reports whose load is the same (an inference-perf partial has none) are told apart
	 * by their stage, the one coordinate every report of a run has.
	 */
	private static void distinguishByStage(List<CellDraft> cells, List<@Nullable Integer> stages, RunDraft run) {
		Set<Params> seen = new HashSet<>();
		boolean clash = false;
		for (CellDraft cell : cells) {
			clash |= !seen.add(cell.comparableParams());
		}
		if (!clash || stages.stream().anyMatch(Objects::isNull) || new HashSet<>(stages).size() != stages.size()) {
			return;
		}
		for (int i = 0; i < cells.size(); i++) {
			if (!cells.get(i).params().containsKey("stage")) {
				cells.get(i).param("stage", stages.get(i));
			}
		}
		run.note("reports with the same load are told apart by their stage");
	}

	private static String plain(double value) {
		return value == Math.rint(value) && Math.abs(value) < 1e15 ? String.valueOf((long) value)
				: String.valueOf(value);
	}

}
