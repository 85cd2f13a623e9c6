package dev.parity.ingest.harness;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;

import dev.parity.run.TokenStats;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A guidellm benchmark report ({@code benchmarks.json}, or the same report as YAML): one
 * cell per benchmark (one load strategy: synchronous, concurrent streams, a constant or
 * Poisson rate, throughput). Every report generation is read: 0.2/0.3 ({@code args},
 * {@code run_stats}, {@code request_totals} beside the metrics), 0.4–0.6
 * ({@code scheduler_state}, {@code scheduler_metrics}, {@code metrics.request_totals})
 * and the v2 report of 0.7 on.
 * <p>
 * A report states request counts up to three times: its totals ({@code request_totals},
 * over the measured window that its metrics describe), the scheduler's tallies
 * ({@code requests_made}), and the request lists it stores (successful, errored,
 * incomplete). guidellm stores only a <em>sample</em> of the requests, so the lists are
 * never a count: the counts are the totals, or the scheduler's where a report has no
 * totals (incomplete ones count as cancelled). The metrics are guidellm's own; every
 * stored request is a sample. All readings are exposed for the preview.
 */
final class GuidellmReport implements HarnessImporter {

	private static final Map<String, Conversion> METRICS = Map.of("time_to_first_token_ms",
			new Conversion("ttft_s", MetricUnit.MILLISECONDS), "time_per_output_token_ms",
			new Conversion("tpot_ms", MetricUnit.MILLISECONDS), "inter_token_latency_ms",
			new Conversion("itl_ms", MetricUnit.MILLISECONDS), "request_latency",
			new Conversion("e2e_latency_s", MetricUnit.SECONDS));

	/** The data arguments a report names are a few key=value pairs. */
	private static final JsonLimits ARGS_DATA = new JsonLimits(10_000, 10_000, 16);

	private static final String TOTALS = "report totals (request_totals)";

	private static final String SCHEDULER = "scheduler (requests made)";

	private static final String STORED = "stored requests (a sample: successful / errored / incomplete)";

	private static final List<String> METRIC_ORDER = List.of("time_to_first_token_ms", "time_per_output_token_ms",
			"inter_token_latency_ms", "request_latency");

	@Override
	public HarnessFormat format() {
		return HarnessFormat.GUIDELLM;
	}

	static boolean isReport(JsonNode node) {
		if (!node.isObject() || !node.path("benchmarks").isArray()) {
			return false;
		}
		JsonNode first = node.path("benchmarks").path(0);
		return node.path("metadata").has("guidellm_version")
				|| "generative_benchmark".equals(Fields.text(first, "type_"))
				|| first.path("metrics").has("request_totals");
	}

	@Override
	public FileRole role(ParsedFile file) {
		if (!file.looksLikeJson()) {
			JsonNode yaml = file.yamlOrNull("benchmarks");
			return yaml != null && isReport(yaml) ? FileRole.OWN : HarnessImporter.otherFile(file);
		}
		JsonNode json = file.jsonOrNull();
		if (json == null) {
			return HarnessImporter.otherFile(file);
		}
		return isReport(json) ? FileRole.OWN : FileRole.FOREIGN;
	}

	/** The report, written as JSON or as YAML. */
	private static JsonNode report(ParsedFile file) {
		JsonNode yaml = file.looksLikeJson() ? null : file.yamlOrNull("benchmarks");
		return yaml != null ? yaml : file.json();
	}

	@Override
	public HarnessImport read(List<ParsedFile> files, @Nullable TableMapping mapping) {
		RunDraft run = new RunDraft();
		List<Double> starts = new ArrayList<>();
		for (ParsedFile file : ownFiles(files, run)) {
			JsonNode report = report(file);
			provenance(report, file.name(), run);
			JsonNode benchmarks = report.path("benchmarks");
			for (int i = 0; i < benchmarks.size(); i++) {
				JsonNode benchmark = benchmarks.get(i);
				String source = benchmarks.size() == 1 ? file.name() : file.name() + " benchmarks[" + i + "]";
				run.cell(cell(benchmark, report, source, run));
				Double start = startTime(benchmark);
				starts.add(start);
				run.recordedAt(RecordedAt.ofEpochSeconds(start));
			}
		}
		ExecutionOrder.byTimestamps(run.cells(), starts, run);
		return run.toImport();
	}

	private static @Nullable Double startTime(JsonNode benchmark) {
		Double start = Fields.number(benchmark.path("scheduler_state"), "start_time");
		if (start == null) {
			start = Fields.number(benchmark.path("run_stats"), "start_time");
		}
		return start != null ? start : Fields.number(benchmark, "start_time");
	}

	private static CellDraft cell(JsonNode benchmark, JsonNode report, String source, RunDraft run) {
		CellDraft cell = new CellDraft(source);
		params(benchmark, report, cell);
		counts(benchmark, cell, source, run);
		JsonNode metrics = benchmark.path("metrics");
		for (String name : METRIC_ORDER) {
			Conversion conversion = METRICS.get(name);
			cell.metric(conversion.metric(), statistics(metrics.path(name).path("successful"), conversion.function()));
		}
		cell.metric("throughput_tps", aggregate(metrics.path("output_tokens_per_second").path("successful")));
		cell.metric("request_throughput", aggregate(metrics.path("requests_per_second").path("successful")));
		JsonNode outputs = metrics.path("output_token_count").path("successful");
		if (Fields.integer(outputs, "count") != null && Fields.integer(outputs, "count") > 0) {
			cell.outputTokens(new TokenStats(Fields.number(outputs, "median"), Fields.number(outputs, "min"),
					Fields.number(outputs, "max"), Fields.number(outputs, "mean")));
		}
		samples(benchmark.path("requests"), cell, run);
		return cell;
	}

	private static void params(JsonNode benchmark, JsonNode report, CellDraft cell) {
		JsonNode strategy = benchmark.path("config").path("strategy");
		if (strategy.isMissingNode()) {
			strategy = benchmark.path("args").path("strategy");
		}
		String type = Fields.text(strategy, "type_");
		Integer streams = Fields.integer(strategy, "streams");
		Integer maxConcurrency = Fields.integer(strategy, "max_concurrency");
		Double rate = Fields.number(strategy, "rate");
		if ("synchronous".equals(type)) {
			cell.param("concurrency", 1);
		}
		else if ("concurrent".equals(type) && streams != null) {
			cell.param("concurrency", streams);
		}
		else if ("throughput".equals(type)) {
			cell.param("request_rate", "inf");
			if (maxConcurrency != null) {
				cell.param("concurrency", maxConcurrency);
			}
		}
		else if (rate != null) {
			cell.param("request_rate", rate);
			if ("poisson".equals(type)) {
				cell.param("arrival", "poisson");
			}
		}
		else if (type != null) {
			cell.param("strategy", type);
		}
		Map<String, Double> synthetic = syntheticData(report);
		if (synthetic.containsKey("prompt_tokens")) {
			cell.param("prompt_tokens", synthetic.get("prompt_tokens"));
		}
	}

	/**
	 * guidellm's synthetic data config ({@code prompt_tokens=256,output_tokens=128}),
	 * empty for a dataset.
	 */
	private static Map<String, Double> syntheticData(JsonNode report) {
		String data = Fields.text(report.path("args").path("data"), 0);
		if (data == null) {
			// 0.2 and 0.3 name the data in each benchmark's request loader.
			data = Fields.text(report.path("benchmarks").path(0).path("request_loader"), "data");
		}
		Map<String, Double> values = new LinkedHashMap<>();
		if (data == null) {
			return values;
		}
		String trimmed = data.trim();
		if (trimmed.startsWith("{")) {
			try {
				byte[] bytes = trimmed.getBytes(StandardCharsets.UTF_8);
				// A few key=value pairs: a budget of its own, small.
				JsonNode json = HarnessJson.parse("args.data", bytes, 0, bytes.length, 0, JsonBudget.of(ARGS_DATA));
				json.forEachEntry((key, value) -> {
					if (Fields.number(value) != null) {
						values.put(key, Fields.number(value));
					}
				});
			}
			catch (ImportRejected ex) {
				return values;
			}
		}
		else if (trimmed.contains("=") && !trimmed.contains("/")) {
			for (String pair : trimmed.split(",")) {
				String[] parts = pair.split("=", 2);
				if (parts.length == 2) {
					try {
						values.put(parts[0].trim(), Double.parseDouble(parts[1].trim()));
					}
					catch (NumberFormatException ex) {
						// Not a number: a setting such as a source name, not a length.
					}
				}
			}
		}
		return values;
	}

	private static void counts(JsonNode benchmark, CellDraft cell, String source, RunDraft run) {
		String label = cell.label();
		JsonNode totalsNode = benchmark.path("metrics").path("request_totals");
		if (!totalsNode.isObject()) {
			// 0.2 and 0.3 write the totals beside the metrics.
			totalsNode = benchmark.path("request_totals");
		}
		Counts totals = counts(totalsNode);
		JsonNode made = benchmark.path("scheduler_metrics").path("requests_made");
		if (made.isMissingNode()) {
			made = benchmark.path("run_stats").path("requests_made");
		}
		Counts scheduler = counts(made);
		JsonNode requests = benchmark.path("requests");
		Counts stored = requests.path("successful").isArray() ? new Counts(requests.path("successful").size(),
				requests.path("errored").size(), requests.path("incomplete").size()) : null;
		Counts chosen = totals != null ? totals : scheduler;
		String from = totals != null ? "its totals (request_totals)" : "the scheduler's tallies (requests_made)";
		if (chosen == null) {
			cell.requests(null, null, null);
			run.note(source + ": the report states no request totals: the counts are unknown (the stored requests"
					+ " are only a sample of them)");
			addReading(run, label, STORED, stored, null, new ArrayList<>());
			return;
		}
		cell.requests(chosen.completed(), chosen.failed(), chosen.cancelled());
		List<String> others = new ArrayList<>();
		addReading(run, label, TOTALS, totals, chosen, others);
		addReading(run, label, SCHEDULER, scheduler, chosen, others);
		addReading(run, label, STORED, stored, chosen, others);
		run.note("guidellm" + (label.isEmpty() ? "" : " " + label) + ": counts from " + from + " (" + chosen.completed()
				+ " successful, " + chosen.failed() + " errored, " + chosen.cancelled() + " incomplete = cancelled)"
				+ (others.isEmpty() ? "" : "; " + String.join("; ", others))
				+ "; the metrics are guidellm's, over the requests its totals count");
	}

	private static @Nullable Counts counts(JsonNode node) {
		return node.isObject() ? new Counts(Fields.integer(node, "successful"), Fields.integer(node, "errored"),
				Fields.integer(node, "incomplete")) : null;
	}

	private static void addReading(RunDraft run, String cell, String name, @Nullable Counts counts,
			@Nullable Counts chosen, List<String> others) {
		if (counts == null) {
			return;
		}
		run.reading(new CountReading(cell, name, counts.completed(), counts.failed(), counts.cancelled(),
				counts == chosen));
		if (counts != chosen && !counts.equals(chosen)) {
			int detail = name.indexOf(" (");
			others.add((detail < 0 ? name : name.substring(0, detail)) + " says " + counts.completed() + "/"
					+ counts.failed() + "/" + counts.cancelled());
		}
	}

	/**
	 * guidellm's statistics of one metric over the successful requests; nothing when
	 * there were none.
	 */
	private static Statistics statistics(JsonNode distribution, DoubleUnaryOperator conversion) {
		Integer count = Fields.integer(distribution, "count");
		if (count == null || count == 0) {
			return Statistics.builder().build();
		}
		Statistics.Builder statistics = Statistics.builder()
			.put("median", scaled(Fields.number(distribution, "median"), conversion))
			.put("mean", scaled(Fields.number(distribution, "mean"), conversion))
			.put("std", scaled(Fields.number(distribution, "std_dev"), conversion))
			.put("min", scaled(Fields.number(distribution, "min"), conversion))
			.put("max", scaled(Fields.number(distribution, "max"), conversion));
		distribution.path("percentiles").forEachEntry((key, value) -> {
			String name = percentile(key);
			if (name != null) {
				statistics.put(name, scaled(Fields.number(value), conversion));
			}
		});
		return statistics.build().inDocumentOrder();
	}

	/**
	 * guidellm writes percentiles as {@code p01} (1 %), {@code p05}, {@code p50},
	 * {@code p999} (99.9 %), {@code p001} (0.1 %); documents know p1 … p99 and decimals
	 * such as p99.9.
	 */
	static @Nullable String percentile(String key) {
		if (!key.matches("p\\d{2,3}")) {
			return null;
		}
		String digits = key.substring(1);
		double value = digits.length() == 3 ? Integer.parseInt(digits) / 10.0 : Integer.parseInt(digits);
		if (value < 1 || value == 50) {
			return null;
		}
		return value == Math.rint(value) ? "p" + (int) value : "p" + value;
	}

	private static @Nullable Double aggregate(JsonNode distribution) {
		Integer count = Fields.integer(distribution, "count");
		return count == null || count == 0 ? null : Fields.number(distribution, "mean");
	}

	private static @Nullable Double scaled(@Nullable Double value, DoubleUnaryOperator conversion) {
		return value == null ? null : conversion.applyAsDouble(value);
	}

	private static void samples(JsonNode requests, CellDraft cell, RunDraft run) {
		addSamples(requests.path("successful"), SampleDraft.OK, cell);
		addSamples(requests.path("errored"), SampleDraft.FAILED, cell);
		addSamples(requests.path("incomplete"), SampleDraft.CANCELLED, cell);
		if (cell.samples().isEmpty()) {
			return;
		}
		String kept = cell.samples().size() + " request(s) guidellm stored (it may store only a sample; the counts"
				+ " are its totals)";
		if (cell.orderSamplesByCompletion()) {
			run.note(cell.source() + ": samples are the " + kept + ", in completion order");
		}
		else {
			run.note(cell.source() + ": samples are the " + kept + ", successful, errored, incomplete, in that order:"
					+ " not every request records when it ended");
		}
	}

	private static void addSamples(JsonNode requests, String status, CellDraft cell) {
		for (JsonNode request : requests) {
			Double ttft = Fields.number(request, "time_to_first_token_ms");
			DoubleUnaryOperator toSeconds = MetricUnit.MILLISECONDS.to(MetricUnit.SECONDS);
			Double end = Fields.number(request, "request_end_time");
			if (end == null) {
				end = Fields.number(request.path("info"), "completed_at");
			}
			cell.sample(new SampleDraft(status).outputTokens(Fields.number(request, "output_tokens"))
				.metric("ttft_s", ttft == null ? null : toSeconds.applyAsDouble(ttft))
				.metric("e2e_latency_s", Fields.number(request, "request_latency"))
				.metric("tpot_ms", Fields.number(request, "time_per_output_token_ms"))
				.metric("itl_ms", Fields.number(request, "inter_token_latency_ms"))
				.finishedAt(end));
		}
	}

	private static void provenance(JsonNode report, String source, RunDraft run) {
		run.state("harness.name", "guidellm", source);
		run.state("harness.version", Fields.text(report.path("metadata"), "guidellm_version"), source);
		JsonNode args = report.path("args");
		String model = Fields.text(args, "model");
		if (model == null) {
			model = Fields.text(report.path("benchmarks").path(0).path("config").path("backend"), "model");
		}
		if (model == null) {
			// 0.2 and 0.3: the worker's backend names the model.
			model = Fields.text(report.path("benchmarks").path(0).path("worker"), "backend_model");
		}
		ModelName.state(run, model, "model", source);
		Map<String, Double> synthetic = syntheticData(report);
		if (synthetic.isEmpty()) {
			String data = Fields.text(args.path("data"), 0);
			run.state("workload.dataset",
					data != null ? data : Fields.text(report.path("benchmarks").path(0).path("request_loader"), "data"),
					source);
		}
		else {
			run.state("workload.dataset", "synthetic", source);
			run.state("workload.output_tokens", synthetic.get("output_tokens"), source);
		}
		Double warmup = Fields.number(args, "warmup");
		if (warmup != null && warmup > 0) {
			run.note(source + ": guidellm excluded a warm-up ("
					+ (warmup < 1 ? Math.round(warmup * 100) + " % of the" + " benchmark" : warmup + " s or requests")
					+ ") from its metrics; the number of warm-up requests is"
					+ " not recorded, so workload.warmup_requests is left for you");
		}
		JsonNode constraints = report.path("benchmarks")
			.path(0)
			.path("scheduler_state")
			.path("end_processing_constraints");
		constraints.forEachEntry((name, constraint) -> {
			if (constraint.path("metadata").path("duration_exceeded").asBoolean(false)) {
				run.note(source + ": the benchmark stopped at its time limit (" + name + " "
						+ constraint.path("metadata").path("max_duration").asString("?")
						+ " s): requests still running were" + " cancelled");
			}
		});
	}

	private record Counts(@Nullable Integer completed, @Nullable Integer failed, @Nullable Integer cancelled) {
	}

	/** A guidellm metric's catalogue name, and the unit guidellm writes it in. */
	private record Conversion(String metric, MetricUnit unit) {

		DoubleUnaryOperator function() {
			return unit.to(MetricUnit.ofCatalogueMetric(metric).orElseThrow());
		}

	}

}
