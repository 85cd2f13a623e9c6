package dev.parity.ingest.harness;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.parity.run.TokenStats;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * MLPerf Inference results of the LLM server scenarios (Server and Interactive: requests
 * arrive at a set rate, each with its own latency), read as one cell per result:
 * <ul>
 * <li>LoadGen's {@code mlperf_log_detail.txt}: one {@code :::MLLOG {json}} record per
 * line, the results under {@code result_*} keys in nanoseconds. LoadGen counts every
 * query the system answers as completed and knows no failed or cancelled request, so
 * those counts are unknown. Its {@code result_token_throughput} is not a throughput (a
 * reciprocal, e.g. 6.9e-09): the tokens per second are
 * {@code result_completed_tokens_per_second}. Time per output token is
 * {@code result_time_to_output_token_{min,max,mean}} beside
 * {@code result_time_per_output_token_
 *
<p>
 * _percentile_ns}. The companion {@code mlperf_log_summary.txt} repeats the same numbers
 * rounded, and is not read.</li>
 * <li>The MLPerf endpoints harness's {@code result_summary.json}: issued, completed and
 * failed samples, {@code ttft}, {@code tpot} and {@code latency} in nanoseconds with
 * percentiles keyed {@code "99.9"}, output sequence lengths, and the load pattern in
 * {@code run_config}.</li>
 * </ul>
 * The Offline, SingleStream and MultiStream scenarios have no arrival rate and no
 * per-request latency at a load: they are refused, as are accuracy runs. Neither file
 * names the model or the prompts.
 */
final class MlperfInference implements HarnessImporter {

	private static final String MLLOG = ":::MLLOG ";

	@Override
	public HarnessFormat format() {
		return HarnessFormat.MLPERF;
	}

	@Override
	public FileRole role(ParsedFile file) {
		if (file.looksLikeJson()) {
			JsonNode json = file.jsonOrNull();
			if (json == null) {
				return HarnessImporter.otherFile(file);
			}
			if (isResultSummary(json)) {
				return FileRole.OWN;
			}
			// mlperf_log_accuracy.json: the responses, for the accuracy script.
			return json.isArray() && json.path(0).has("qsl_idx") ? FileRole.IGNORABLE : FileRole.FOREIGN;
		}
		String text = file.text();
		if (text.stripLeading().startsWith(MLLOG)) {
			return FileRole.OWN;
		}
		return FileRole.IGNORABLE;
	}

	static boolean isResultSummary(JsonNode json) {
		return json.isObject() && json.has("n_samples_issued") && json.path("run_config").isObject()
				&& json.path("ttft").isObject();
	}

	@Override
	public HarnessImport read(List<ParsedFile> files, @Nullable TableMapping mapping) {
		RunDraft run = new RunDraft();
		List<String> scenarios = new ArrayList<>();
		List<@Nullable Instant> starts = new ArrayList<>();
		for (ParsedFile file : ownFiles(files, run)) {
			if (file.looksLikeJson()) {
				run.cell(endpointsCell(file.json(), file.name(), run));
				scenarios.add("Server");
				starts.add(null);
			}
			else {
				Map<String, JsonNode> log = records(file);
				String scenario = loadgenScenario(log, file.name());
				scenarios.add(scenario);
				CellDraft cell = loadgenCell(log, file.name(), run);
				run.cell(cell);
				Instant start = RecordedAt.ofText(text(log, "test_datetime"), "test_datetime", file.name(), run);
				starts.add(start);
				run.recordedAt(start);
			}
		}
		if (new HashSet<>(scenarios).size() > 1) {
			for (int i = 0; i < run.cells().size(); i++) {
				run.cells().get(i).param("scenario", scenarios.get(i));
			}
		}
		ExecutionOrder.byTimestamps(run.cells(), starts, run);
		run.note("MLPerf results name neither the model nor the prompts: the benchmark's dataset (e.g. OpenOrca for"
				+ " llama2-70b) and the model are for you to state");
		return run.toImport();
	}

	/**
	 * The log's records by key (the first of a repeated key), every line that is not a
	 * record skipped.
	 */
	private static Map<String, JsonNode> records(ParsedFile file) {
		Map<String, JsonNode> records = new LinkedHashMap<>();
		String[] lines = file.text().split("\n", -1);
		for (int i = 0; i < lines.length; i++) {
			String line = lines[i].strip();
			if (!line.startsWith(MLLOG)) {
				continue;
			}
			byte[] json = line.substring(MLLOG.length()).getBytes(StandardCharsets.UTF_8);
			JsonNode record = file.parse(file.name() + " line " + (i + 1), json, 0, json.length, 0);
			String key = Fields.text(record, "key");
			if (key != null) {
				records.putIfAbsent(key, record.path("value"));
			}
		}
		return records;
	}

	private static String loadgenScenario(Map<String, JsonNode> log, String name) {
		String scenario = text(log, "effective_scenario");
		if (scenario == null) {
			throw new ImportRejected(name + ": no effective_scenario record: not a complete LoadGen log");
		}
		if (!scenario.equals("Server") && !scenario.equals("Interactive")) {
			throw new ImportRejected(name + ": the " + scenario + " scenario has no arrival rate and no latency per"
					+ " request at a load: Parity reads LoadGen's Server and Interactive scenarios as cells");
		}
		String mode = text(log, "effective_test_mode");
		if (mode != null && !mode.equals("PerformanceOnly")) {
			throw new ImportRejected(name + ": a " + mode + " run: only a PerformanceOnly run has performance results");
		}
		if (!log.containsKey("result_validity")) {
			throw new ImportRejected(name + ": the log ends before LoadGen's results (no result_validity record): the"
					+ " run did not finish");
		}
		return scenario;
	}

	private static CellDraft loadgenCell(Map<String, JsonNode> log, String name, RunDraft run) {
		CellDraft cell = new CellDraft(name);
		Double rate = number(log, "effective_target_qps");
		if (rate == null) {
			throw new ImportRejected(name + ": no effective_target_qps record: the arrival rate is unknown");
		}
		cell.param("request_rate", rate);
		Integer queries = Fields.integer(log.get("result_query_count"));
		Integer perQuery = Fields.integer(log.get("effective_samples_per_query"));
		cell.requests(queries == null ? null : queries * (perQuery == null ? 1 : perQuery), null, null);
		run.note("LoadGen counts every query the system answers as completed and records no failed or cancelled"
				+ " request: failed and cancelled are unknown");
		cell.metric("ttft_s", loadgenStatistics(log, "result_first_token_%s_latency_ns",
				"result_first_token_%s_percentile_latency_ns", MetricUnit.SECONDS));
		cell.metric("tpot_ms", loadgenStatistics(log, "result_time_to_output_token_%s",
				"result_time_per_output_token_%s_percentile_ns", MetricUnit.MILLISECONDS));
		cell.metric("e2e_latency_s",
				loadgenStatistics(log, "result_%s_latency_ns", "result_%s_percentile_latency_ns", MetricUnit.SECONDS));
		cell.metric("throughput_tps", number(log, "result_completed_tokens_per_second"));
		cell.metric("request_throughput", number(log, "result_completed_samples_per_sec"));
		if (log.containsKey("result_token_throughput")) {
			run.note(name + ": result_token_throughput (" + log.get("result_token_throughput").asString()
					+ ") is not a throughput: left out; throughput_tps is result_completed_tokens_per_second");
		}
		String validity = text(log, "result_validity");
		List<String> unmet = new ArrayList<>();
		for (String constraint : List.of("result_perf_constraints_met", "result_min_duration_met",
				"result_min_queries_met", "early_stopping_met")) {
			if (log.containsKey(constraint) && !log.get(constraint).asBoolean(true)) {
				unmet.add(constraint);
			}
		}
		run.note(name + ": LoadGen judged the run " + validity
				+ (unmet.isEmpty() ? "" : " (not met: " + String.join(", ", unmet) + ")"));
		Double ttftLimit = number(log, "requested_server_ttft_latency");
		Double tpotLimit = number(log, "requested_server_tpot_latency");
		if (ttftLimit != null && tpotLimit != null) {
			run.note(name + ": latency limits of the scenario: TTFT " + ttftLimit / 1e9 + " s, TPOT " + tpotLimit / 1e6
					+ " ms (p99)");
		}
		run.state("harness.name", "mlperf-loadgen", name);
		run.state("harness.version", text(log, "loadgen_version"), name);
		return cell;
	}

	/**
	 * A LoadGen metric: min, max and mean under one key pattern, percentiles
	 * ({@code 50.00}, {@code 99.90}) under another, all in nanoseconds.
	 */
	private static Statistics loadgenStatistics(Map<String, JsonNode> log, String plain, String percentile,
			MetricUnit target) {
		Statistics.Builder builder = Statistics.builder();
		for (String statistic : List.of("min", "max", "mean")) {
			builder.put(statistic, nanoseconds(number(log, plain.formatted(statistic)), target));
		}
		String prefix = percentile.substring(0, percentile.indexOf("%s"));
		String suffix = percentile.substring(percentile.indexOf("%s") + 2);
		log.forEach((key, value) -> {
			if (key.startsWith(prefix) && key.endsWith(suffix) && key.length() > prefix.length() + suffix.length()) {
				String level = key.substring(prefix.length(), key.length() - suffix.length());
				String name = percentileName(level);
				if (name != null) {
					builder.put(name, nanoseconds(Fields.number(value), target));
				}
			}
		});
		return builder.build().inDocumentOrder();
	}

	/**
	 * {@code 50.00} is the median, {@code 99.90} p99.9, {@code 1.0} p1; {@code null} for
	 * what is not a level.
	 */
	private static @Nullable String percentileName(String level) {
		try {
			double value = Double.parseDouble(level);
			if (value == 50) {
				return "median";
			}
			String written = BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
			return Statistics.Builder.name("p" + written);
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	private static @Nullable Double nanoseconds(@Nullable Double value, MetricUnit target) {
		return value == null ? null : target == MetricUnit.SECONDS ? value / 1e9 : value / 1e6;
	}

	private static CellDraft endpointsCell(JsonNode summary, String name, RunDraft run) {
		CellDraft cell = new CellDraft(name);
		JsonNode pattern = summary.path("run_config").path("load_pattern");
		String type = Fields.text(pattern, "type");
		Double qps = Fields.number(pattern, "target_qps");
		Double concurrency = Fields.number(pattern, "target_concurrency");
		if (concurrency != null && (qps == null || "concurrency".equals(type))) {
			cell.param("concurrency", concurrency);
		}
		else if (qps != null) {
			cell.param("request_rate", qps);
		}
		else {
			throw new ImportRejected(name + ": run_config.load_pattern gives neither target_qps nor target_concurrency"
					+ " (type " + type + "): the load is unknown");
		}
		Integer issued = Fields.integer(summary, "n_samples_issued");
		Integer completed = Fields.integer(summary, "n_samples_completed");
		Integer failed = Fields.integer(summary, "n_samples_failed");
		Integer cancelled = issued == null || completed == null || failed == null ? null : issued - completed - failed;
		if (cancelled != null && cancelled < 0) {
			throw new ImportRejected(
					name + ": " + completed + " completed and " + failed + " failed of " + issued + " samples issued");
		}
		cell.requests(completed, failed, cancelled);
		if (cancelled != null && cancelled > 0) {
			run.note(name + ": " + cancelled + " issued samples neither completed nor failed: counted as cancelled");
		}
		cell.metric("ttft_s", endpointsStatistics(summary.path("ttft"), MetricUnit.SECONDS));
		cell.metric("tpot_ms", endpointsStatistics(summary.path("tpot"), MetricUnit.MILLISECONDS));
		cell.metric("e2e_latency_s", endpointsStatistics(summary.path("latency"), MetricUnit.SECONDS));
		JsonNode lengths = summary.path("output_sequence_lengths");
		if (lengths.isObject()) {
			cell.outputTokens(new TokenStats(Fields.number(lengths, "median"), Fields.number(lengths, "min"),
					Fields.number(lengths, "max"), Fields.number(lengths, "avg")));
		}
		cell.metric("throughput_tps", Fields.number(summary, "tps"));
		cell.metric("request_throughput", Fields.number(summary, "qps"));
		if (pattern.path("use_legacy_loadgen_qps_metrics").asBoolean(false)) {
			Double window = Fields.number(summary, "legacy_loadgen_window_duration_ns");
			Double duration = Fields.number(summary, "duration_ns");
			run.note(name + ": qps and tps are over LoadGen's window"
					+ (window != null ? " (" + Math.round(window / 1e9) + " s"
							+ (duration != null ? " of " + Math.round(duration / 1e9) + " s" : "") + ")" : "")
					+ " (use_legacy_loadgen_qps_metrics)");
		}
		if (!summary.path("complete").asBoolean(true)) {
			run.note(name + ": the run is marked incomplete (state " + Fields.text(summary, "state") + ")");
		}
		JsonNode warmup = summary.path("run_config").path("warmup");
		if (warmup.isObject()) {
			if (!warmup.path("enabled").asBoolean(true)) {
				run.state("workload.warmup_requests", 0, name);
			}
			else if (Fields.integer(warmup, "n_requests") != null) {
				run.state("workload.warmup_requests", Fields.integer(warmup, "n_requests"), name);
			}
		}
		run.state("harness.name", "mlperf-endpoints", name);
		return cell;
	}

	/**
	 * An endpoints statistic in nanoseconds: median, avg, std_dev, min, max, and
	 * percentiles keyed "99.9".
	 */
	private static Statistics endpointsStatistics(JsonNode node, MetricUnit target) {
		Statistics.Builder builder = Statistics.builder()
			.put("median", nanoseconds(Fields.number(node, "median"), target))
			.put("mean", nanoseconds(Fields.number(node, "avg"), target))
			.put("std", nanoseconds(Fields.number(node, "std_dev"), target))
			.put("min", nanoseconds(Fields.number(node, "min"), target))
			.put("max", nanoseconds(Fields.number(node, "max"), target));
		node.path("percentiles").forEachEntry((level, value) -> {
			String name = percentileName(level);
			if (name != null) {
				builder.put(name, nanoseconds(Fields.number(value), target));
			}
		});
		return builder.build().inDocumentOrder();
	}

	private static @Nullable String text(Map<String, JsonNode> log, String key) {
		JsonNode value = log.get(key);
		return value == null || !value.isString() ? null : value.stringValue().trim();
	}

	private static @Nullable Double number(Map<String, JsonNode> log, String key) {
		return Fields.number(log.get(key));
	}

}
