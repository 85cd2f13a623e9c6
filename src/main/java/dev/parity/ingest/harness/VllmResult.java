package dev.parity.ingest.harness;

import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * One result object of vLLM's {@code bench serve --save-result}: recognition by its keys,
 * and the cell it describes. The summaries are in ms, the per-request arrays in seconds.
 */
final class VllmResult {

	/**
	 * The keys vLLM writes itself; anything else in a sweep's run file is a swept
	 * parameter or metadata.
	 */
	private static final Set<String> OWN_KEYS = Set.of("date", "endpoint_type", "backend", "label", "model_id",
			"tokenizer_id", "best_of", "num_prompts", "request_rate", "burstiness", "max_concurrency",
			"ramp_up_strategy", "ramp_up_start_rps", "ramp_up_end_rps", "duration", "completed", "failed",
			"total_input_tokens", "total_output_tokens", "request_throughput", "request_goodput", "output_throughput",
			"total_token_throughput", "input_lens", "output_lens", "ttfts", "itls", "latencies", "start_times",
			"queue_times", "generated_texts", "errors", "max_output_tokens_per_s", "max_concurrent_requests", "rtfx",
			"run_number", "rps_change_events", "total_input_sequences", "input_sequence_throughput",
			// benchmark_serving wrote its goodput under this key, colon included, from
			// late 2024 into 2025.
			"request_goodput:");

	private static final double UNLIMITED_RATE = 1e9;

	private VllmResult() {
	}

	/** vLLM's summary keys, and none of SGLang's. */
	static boolean isVllm(JsonNode node) {
		return node.isObject()
				&& Fields.hasAny(node, "mean_ttft_ms", "median_ttft_ms", "mean_e2el_ms", "median_e2el_ms")
				&& Fields.hasAny(node, "mean_e2el_ms", "median_e2el_ms", "num_prompts", "burstiness", "request_goodput")
				&& !ServingBenchmark.hasSglangKeys(node);
	}

	/**
	 * The summary keys both vLLM and SGLang write, without anything distinctive of
	 * either.
	 */
	static boolean isServingResult(JsonNode node) {
		return node.isObject() && Fields.hasAny(node, "mean_ttft_ms", "median_ttft_ms")
				&& Fields.hasAny(node, "completed", "output_throughput");
	}

	static boolean isOwnKey(String key) {
		return OWN_KEYS.contains(key) || key.endsWith("_ms") || key.startsWith("spec_decode_")
				|| key.startsWith("diffusion_") || key.startsWith("probe_");
	}

	/**
	 * The cell a result describes, with the conventional params (concurrency, request
	 * rate) and prompt tokens when every request had the same length.
	 */
	static CellDraft cell(JsonNode result, String source, RunDraft run) {
		CellDraft cell = new CellDraft(source);
		Integer concurrency = Fields.integer(result, "max_concurrency");
		if (concurrency != null) {
			cell.param("concurrency", concurrency);
		}
		Object rate = requestRate(result);
		if (rate != null) {
			cell.param("request_rate", rate);
			if (rateWrittenAsNumber(result)) {
				run.note(source + ": request_rate " + result.get("request_rate").asString()
						+ " read as inf (no rate limit)");
			}
		}
		List<Double> inputs = Fields.numbers(result.get("input_lens"));
		if (!inputs.isEmpty() && inputs.stream().distinct().count() == 1 && inputs.get(0) > 0) {
			cell.param("prompt_tokens", inputs.get(0));
			run.note(source + ": prompt_tokens " + inputs.get(0).longValue() + " because every request had "
					+ inputs.get(0).longValue() + " input tokens (vLLM does not record the configured length)");
		}
		Integer completed = Fields.integer(result, "completed");
		Integer failed = Fields.integer(result, "failed");
		Integer prompts = Fields.integer(result, "num_prompts");
		boolean failedDerived = false;
		if (failed == null && !result.hasNonNull("failed") && completed != null && prompts != null
				&& prompts >= completed) {
			// vLLM wrote no failed count before October 2025: every prompt sent and not
			// completed failed.
			failed = prompts - completed;
			failedDerived = true;
		}
		ServingBenchmark.metrics(result, cell);
		if (ServingBenchmark.hasDetails(result)) {
			ServingBenchmark.Outcomes outcomes = ServingBenchmark.outcomes(result, cell, run, "vLLM", source,
					completed);
			int succeeded = outcomes.succeeded();
			int unsuccessful = outcomes.unsuccessful();
			if (!outcomes.recomputed() && (failedDerived || failed == null || failed != unsuccessful)) {
				run.note(source + ": failed = " + unsuccessful + ", the requests of the per-request arrays that did not"
						+ " complete");
			}
			completed = succeeded;
			failed = unsuccessful;
		}
		else {
			cell.outputTokens(ServingBenchmark.meanOutputTokens(result));
			if (failedDerived) {
				run.note(source + ": vLLM wrote no failed count: failed = num_prompts − completed = " + prompts + " − "
						+ completed + " = " + failed);
			}
		}
		cell.requests(completed, failed, null);
		if (cell.completed() != null && cell.completed() == 0) {
			cell.withoutMetricsWhenNothingCompleted();
			run.note(source + ": no request completed (" + describe(cell.failed()) + " failed): the 0.0 latencies and"
					+ " throughputs vLLM writes for zero completed requests are left out");
		}
		run.note("vLLM does not record cancelled requests: the cancelled count is unknown");
		ModelName.state(run, Fields.text(result, "model_id"), "model_id", source);
		if (Fields.text(result, "date") != null) {
			run.note("vLLM writes its 'date' in local time without a zone: recorded_at is left for you to state");
		}
		return cell;
	}

	static @Nullable Object requestRate(JsonNode result) {
		JsonNode rate = result.get("request_rate");
		if (rate == null || rate.isNull()) {
			return null;
		}
		if (rate.isString()) {
			String text = rate.stringValue().trim();
			if (text.equalsIgnoreCase("inf") || text.equalsIgnoreCase("infinity")) {
				return "inf";
			}
			Double number = Fields.number(rate);
			return number != null ? unlimited(number) : text;
		}
		if (rate.isNumber()) {
			// Not rate.doubleValue(): it throws for an integer beyond the range of a
			// double.
			double value = rate.numberValue().doubleValue();
			return Double.isInfinite(value) && value > 0 ? "inf" : Double.isFinite(value) ? unlimited(value) : null;
		}
		return null;
	}

	/**
	 * A rate of a billion requests a second or more ({@code --request-rate 1e9}) is the
	 * way some scripts ask for no rate limit: written {@code inf}, as vLLM writes an
	 * unlimited rate.
	 */
	private static Object unlimited(double rate) {
		return rate >= UNLIMITED_RATE ? "inf" : rate;
	}

	/**
	 * Whether the file writes an unlimited rate as a (huge) number, which
	 * {@link #requestRate} reads as inf.
	 */
	static boolean rateWrittenAsNumber(JsonNode result) {
		Double number = Fields.number(result.get("request_rate"));
		return number != null && Double.isFinite(number) && number >= UNLIMITED_RATE;
	}

	private static String describe(@Nullable Integer count) {
		return count == null ? "an unknown number" : String.valueOf(count);
	}

}
