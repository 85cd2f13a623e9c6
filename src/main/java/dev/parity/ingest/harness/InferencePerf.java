package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.parity.run.TokenStats;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * inference-perf's lifecycle metrics reports ({@code stage_N_lifecycle_metrics.json}, one
 * per load stage, and {@code summary_lifecycle_metrics.json} over all stages):
 * {@code load_summary} (requests sent, the requested and achieved rate, the concurrency),
 * {@code successes} (their count, latency statistics in seconds under {@code latency} —
 * or beside it in 2025's first reports — and throughputs) and {@code failures} (their
 * count). One cell per stage; the summary alone is one cell, beside stage reports it is
 * skipped (it repeats them). Every request inference-perf sends either succeeds or fails,
 * so completed is the successes, failed the failures, and cancelled 0 when they add up to
 * the requests sent.
 */
final class InferencePerf implements HarnessImporter {

	/**
	 * inference-perf's latency → catalogue metric, with the factor from seconds to the
	 * catalogue unit.
	 */
	private static final Map<String, Conversion> LATENCIES = Map.of("time_to_first_token", new Conversion("ttft_s", 1),
			"request_latency", new Conversion("e2e_latency_s", 1), "time_per_output_token",
			new Conversion("tpot_ms", 1_000), "inter_token_latency", new Conversion("itl_ms", 1_000));

	private static final Pattern STAGE = Pattern.compile("stage_(\\d++)_lifecycle_metrics\\.json");

	@Override
	public HarnessFormat format() {
		return HarnessFormat.INFERENCE_PERF;
	}

	/**
	 * A lifecycle report: load summary, successes and failures, the successes with
	 * latencies or throughputs.
	 */
	static boolean isLifecycle(JsonNode node) {
		JsonNode successes = node.path("successes");
		return node.isObject() && node.path("load_summary").isObject() && node.path("failures").isObject()
				&& successes.isObject() && successes.has("count")
				&& (successes.path("latency").isObject() || successes.path("throughput").isObject());
	}

	/**
	 * The other files of an inference-perf report directory: Prometheus metrics,
	 * per-request records, config.
	 */
	private static boolean isCompanionReport(JsonNode node) {
		boolean prometheus = node.isObject() && node.has("load_summary") && node.path("successes").has("rate");
		boolean perRequest = node.isArray() && node.path(0).has("start_time") && node.path(0).has("end_time");
		return prometheus || perRequest;
	}

	@Override
	public FileRole role(ParsedFile file) {
		JsonNode json = file.looksLikeJson() ? file.jsonOrNull() : null;
		if (json == null) {
			return HarnessImporter.otherFile(file);
		}
		if (isLifecycle(json)) {
			return FileRole.OWN;
		}
		return isCompanionReport(json) ? FileRole.IGNORABLE : FileRole.FOREIGN;
	}

	@Override
	public HarnessImport read(List<ParsedFile> files, @Nullable TableMapping mapping) {
		RunDraft run = new RunDraft();
		List<ParsedFile> reports = ownFiles(files, run);
		List<ParsedFile> stages = reports.stream().filter(file -> !isSummary(file)).toList();
		List<ParsedFile> read = stages.isEmpty() ? reports : stages;
		if (read.size() < reports.size()) {
			run.note("summary_lifecycle_metrics.json skipped: it sums up the stage reports beside it");
		}
		List<CellDraft> cells = new ArrayList<>();
		List<Integer> stageNumbers = new ArrayList<>();
		for (ParsedFile file : read) {
			Integer stage = stage(file);
			cells.add(cell(file, stage, run));
			stageNumbers.add(stage);
		}
		// Stages run one after another, in the order inference-perf numbers them.
		ExecutionOrder.byTimestamps(cells, stageNumbers, run);
		cells.forEach(run::cell);
		run.state("harness.name", "inference-perf", read.get(0).name());
		run.note("inference-perf's latencies are in seconds: TTFT and request latency kept in s, time per output token"
				+ " and inter-token latency converted to ms; normalized time per output token has no catalogue metric");
		return run.toImport();
	}

	/**
	 * Whether the report is the run's summary: named so, or without the requested rate a
	 * stage report states.
	 */
	private static boolean isSummary(ParsedFile file) {
		String name = file.name().substring(file.name().lastIndexOf('/') + 1);
		return name.startsWith("summary")
				|| (!STAGE.matcher(name).matches() && !file.json().path("load_summary").has("requested_rate"));
	}

	/**
	 * The stage's number, from the name inference-perf gives its report; {@code null} for
	 * another name.
	 */
	private static @Nullable Integer stage(ParsedFile file) {
		Matcher stage = STAGE.matcher(file.name().substring(file.name().lastIndexOf('/') + 1));
		return stage.matches() ? Integer.valueOf(stage.group(1)) : null;
	}

	private static CellDraft cell(ParsedFile file, @Nullable Integer stage, RunDraft run) {
		String source = file.name();
		JsonNode report = file.json();
		JsonNode load = report.path("load_summary");
		JsonNode successes = report.path("successes");
		CellDraft cell = new CellDraft(source);
		Double rate = Fields.number(load, "requested_rate");
		if (rate != null) {
			cell.param("request_rate", rate);
		}
		Integer concurrency = Fields.integer(load, "concurrency");
		if (concurrency != null) {
			cell.param("concurrency", concurrency);
		}
		if (rate == null && concurrency == null && stage != null) {
			// 2025's first reports state no rate: the stage number is all that tells the
			// stages apart.
			cell.param("stage", stage);
		}
		Integer sent = Fields.integer(load, "count");
		Integer completed = Fields.integer(successes, "count");
		Integer failed = Fields.integer(report.path("failures"), "count");
		Integer cancelled = sent != null && completed != null && failed != null && sent == completed + failed ? 0
				: null;
		if (cancelled == null) {
			run.note(source + ": load_summary counts " + sent + " requests sent, successes " + completed + " and"
					+ " failures " + failed + ", which do not add up: cancelled unknown");
		}
		cell.requests(completed, failed, cancelled);
		JsonNode latency = successes.path("latency").isObject() ? successes.path("latency") : successes;
		LATENCIES.forEach((name, conversion) -> {
			JsonNode statistics = latency.get(name);
			if (statistics != null && statistics.isObject()) {
				Statistics.Builder builder = Statistics.builder();
				statistics.forEachEntry((statistic, value) -> {
					Double number = Fields.number(value);
					builder.put(statistic, number == null ? null : number * conversion.factor());
				});
				cell.metric(conversion.metric(), builder.build().inDocumentOrder());
			}
		});
		JsonNode throughput = successes.path("throughput");
		cell.metric("throughput_tps", Fields.number(throughput, "output_tokens_per_sec"));
		cell.metric("request_throughput", Fields.number(throughput, "requests_per_sec"));
		JsonNode output = successes.path("output_len");
		if (output.isObject()) {
			cell.outputTokens(new TokenStats(Fields.number(output, "median"), Fields.number(output, "min"),
					Fields.number(output, "max"), Fields.number(output, "mean")));
		}
		Double achieved = Fields.number(load, "achieved_rate");
		if (rate != null && achieved != null && achieved < rate * 0.95) {
			run.note(source + ": requested " + rate + " requests/s, achieved "
					+ String.format(Locale.ROOT, "%.2f", achieved) + ": the load generator fell behind");
		}
		cell.withoutMetricsWhenNothingCompleted();
		return cell;
	}

	/** A latency's catalogue metric and the factor from seconds to its unit. */
	private record Conversion(String metric, double factor) {
	}

}
