package dev.parity.ingest.harness;

import java.util.Set;
import java.util.function.DoubleUnaryOperator;

import dev.parity.run.TokenStats;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * One AIPerf {@code profile_export_aiperf.json}: metric objects with a unit and
 * statistics ({@code avg}, {@code p50}, …, {@code std}), at the top level (AIPerf ≥ 0.2)
 * or under {@code records} (0.1), with the configuration in {@code input_config} and the
 * errors in {@code error_summary} (or, without it, only counted in
 * {@code error_request_count}: then all failed).
 */
final class AiperfSummary {

	private static final Set<String> STATISTICS = Set.of("avg", "p50", "std", "min", "max");

	private AiperfSummary() {
	}

	static boolean isSummary(JsonNode node) {
		if (!node.isObject() || node.has("aggregation_type")) {
			return false;
		}
		JsonNode metrics = metrics(node);
		return node.has("aiperf_version") || isMetric(metrics.get("time_to_first_token"))
				|| isMetric(metrics.get("ttft")) || isMetric(metrics.get("request_latency"));
	}

	/** Other files an AIPerf artifact directory holds: aggregates, the inputs file. */
	static boolean isOtherArtifact(JsonNode node) {
		return node.isObject() && (node.has("aggregation_type")
				|| (node.path("data").isArray() && node.path("data").path(0).has("payloads")));
	}

	private static boolean isMetric(@Nullable JsonNode node) {
		return node != null && node.isObject() && node.has("unit") && Fields.hasAny(node, "avg", "p50");
	}

	private static JsonNode metrics(JsonNode summary) {
		JsonNode records = summary.get("records");
		return records != null && records.isObject() ? records : summary;
	}

	static CellDraft cell(JsonNode summary, String source, RunDraft run) {
		CellDraft cell = new CellDraft(source);
		params(summary, cell);
		JsonNode metrics = metrics(summary);
		counts(summary, metrics, cell, source, run);
		metrics.forEachEntry((tag, metric) -> AiperfMetrics.catalogueName(tag).ifPresent(name -> {
			if (!isMetric(metric) || cell.metrics().containsKey(name)) {
				return;
			}
			DoubleUnaryOperator conversion = AiperfMetrics.conversion(name, Fields.text(metric, "unit"));
			if (conversion == null) {
				run.note(source + ": " + tag + " is in '" + Fields.text(metric, "unit")
						+ "', which is not convertible to " + name + ": left out");
				return;
			}
			if (AiperfMetrics.aggregate(name)) {
				Double value = Fields.number(metric, "avg");
				cell.metric(name, value == null ? null : conversion.applyAsDouble(value));
				return;
			}
			Statistics.Builder statistics = Statistics.builder();
			metric.forEachEntry((statistic, value) -> {
				Double number = Fields.number(value);
				if (STATISTICS.contains(statistic) || statistic.matches("p\\d{1,2}(\\.\\d+)?")) {
					statistics.put(statistic, number == null ? null : conversion.applyAsDouble(number));
				}
			});
			cell.metric(name, statistics.build().inDocumentOrder());
		}));
		cell.outputTokens(tokens(metrics.get("output_sequence_length")));
		cell.reasoningTokens(tokens(metrics.get("reasoning_token_count")));
		if (cell.completed() != null && cell.completed() == 0) {
			cell.withoutMetricsWhenNothingCompleted();
		}
		return cell;
	}

	private static void params(JsonNode summary, CellDraft cell) {
		JsonNode config = summary.path("input_config");
		JsonNode load = profilingPhase(config);
		if (load == null) {
			load = config.path("loadgen");
		}
		Integer concurrency = Fields.integer(load, "concurrency");
		if (concurrency != null) {
			cell.param("concurrency", concurrency);
		}
		Double rate = Fields.number(load, "request_rate");
		if (rate != null) {
			cell.param("request_rate", rate);
		}
		Double prompt = Fields.number(config.path("input").path("prompt").path("input_tokens"), "mean");
		if (prompt == null) {
			prompt = Fields.number(config.path("datasets").path(0).path("prompt").path("input_tokens"), "mean");
		}
		if (prompt != null) {
			cell.param("prompt_tokens", prompt);
		}
	}

	/** The measured phase of AIPerf ≥ 0.10's {@code input_config.phases}. */
	private static @Nullable JsonNode profilingPhase(JsonNode config) {
		for (JsonNode phase : config.path("phases")) {
			if ("profiling".equals(Fields.text(phase, "name")) || (!phase.path("exclude_from_results").asBoolean(false)
					&& !"warmup".equals(Fields.text(phase, "name")))) {
				return phase;
			}
		}
		return null;
	}

	private static void counts(JsonNode summary, JsonNode metrics, CellDraft cell, String source, RunDraft run) {
		Integer completed = Fields.integer(metrics.path("request_count"), "avg");
		JsonNode errors = summary.get("error_summary");
		Integer failed = null;
		Integer cancelled = null;
		if (errors != null && errors.isArray()) {
			failed = 0;
			cancelled = 0;
			for (JsonNode error : errors) {
				JsonNode details = error.path("error_details");
				int count = error.path("count").asInt(0);
				if (AiperfMetrics.cancellation(Fields.integer(details, "code"), Fields.text(details, "type"))) {
					cancelled += count;
				}
				else {
					failed += count;
				}
			}
		}
		else {
			Integer errored = Fields.integer(metrics.path("error_request_count"), "avg");
			if (errored != null) {
				// AIPerf counts a cancelled request (HTTP 499, its
				// RequestCancellationError) as an error too: without
				// the error summary the errored requests cannot be told apart, and
				// counting none failed would pass a
				// cell whose requests erred. They count as failed; cancelled stays
				// unknown.
				failed = errored;
				if (errored > 0) {
					run.note(
							source + ": " + errored + " errored requests (error_request_count) without an error_summary"
									+ " to tell failed from cancelled: counted as failed, cancelled unknown");
				}
				else {
					cancelled = 0;
				}
			}
		}
		int errored = (failed == null ? 0 : failed) + (cancelled == null ? 0 : cancelled);
		if (completed == null && errored > 0) {
			// When every request erred, AIPerf's JSON holds error_request_count and no
			// other metric.
			completed = 0;
			run.note(source + ": no request_count beside " + errored
					+ " errored requests (AIPerf writes it only when some request completed): none completed");
		}
		cell.requests(completed, failed, cancelled);
		if (summary.path("was_cancelled").asBoolean(false)) {
			run.note(source + ": the benchmark was cancelled before it finished (was_cancelled)");
		}
		Double cancellationRate = cancellationRate(summary);
		if (cancellationRate != null) {
			run.note(source + ": AIPerf cancelled about " + cancellationRate
					+ " % of the requests on purpose (--request-cancellation-rate); they count as "
					+ (cancelled == null && failed != null ? "failed here, among the errored requests" : "cancelled"));
		}
	}

	/**
	 * The share of requests AIPerf was asked to cancel
	 * ({@code --request-cancellation-rate}), when above 0.
	 */
	private static @Nullable Double cancellationRate(JsonNode summary) {
		Double rate = Fields.number(summary.path("input_config").path("loadgen"), "request_cancellation_rate");
		return rate != null && rate > 0 ? rate : null;
	}

	private static @Nullable TokenStats tokens(@Nullable JsonNode metric) {
		if (metric == null || !metric.isObject()) {
			return null;
		}
		TokenStats stats = new TokenStats(Fields.number(metric, "p50"), Fields.number(metric, "min"),
				Fields.number(metric, "max"), Fields.number(metric, "avg"));
		return stats.isEmpty() ? null : stats;
	}

	/** What the summary states beyond the cell: harness, model, workload, warm-up. */
	static void provenance(JsonNode summary, String source, RunDraft run) {
		JsonNode config = summary.path("input_config");
		run.state("harness.name", "aiperf", source);
		run.state("harness.version", Fields.text(summary, "aiperf_version"), source);
		String command = Fields.text(summary.path("run_info"), "cli_command");
		run.state("harness.command", command != null ? command : Fields.text(config, "cli_command"), source);
		String model = Fields.text(config.path("models").path("items").path(0), "name");
		if (model == null) {
			model = Fields.text(config.path("endpoint").path("model_names"), 0);
		}
		ModelName.state(run, model, "the model AIPerf requested", source);
		String tokenizer = Fields.text(config.path("tokenizer"), "name");
		if (model != null && !ModelName.isRepository(model) && tokenizer != null && ModelName.isRepository(tokenizer)) {
			run.note(source + ": the tokenizer is " + tokenizer
					+ ", perhaps the model's repository too; not assumed, state model.repo yourself");
		}
		JsonNode dataset = config.path("datasets").path(0);
		String datasetName = Fields.text(dataset, "path");
		run.state("workload.dataset", datasetName != null ? datasetName : Fields.text(dataset, "type"), source);
		Double output = Fields.number(config.path("input").path("prompt").path("output_tokens"), "mean");
		if (output == null) {
			output = Fields.number(dataset.path("prompt").path("output_tokens"), "mean");
		}
		run.state("workload.output_tokens", output, source);
		Integer warmup = null;
		for (JsonNode phase : config.path("phases")) {
			if ("warmup".equals(Fields.text(phase, "name"))) {
				warmup = Fields.integer(phase, "requests");
			}
		}
		if (warmup == null) {
			warmup = Fields.integer(config.path("loadgen"), "warmup_request_count");
		}
		run.state("workload.warmup_requests", warmup, source);
		RecordedAt.ofText(Fields.text(summary, "start_time"), "start_time", source, run);
	}

}
