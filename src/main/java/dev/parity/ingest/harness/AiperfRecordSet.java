package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * AIPerf's per-request records ({@code profile_export.jsonl}): one JSON object per
 * request with {@code metadata} and {@code metrics} (each {@code {"value", "unit"}}), and
 * an {@code error} for a failed or cancelled one (HTTP 499 /
 * {@code RequestCancellationError} is a cancellation). Warm-up records are counted, not
 * measured. Output tokens are AIPerf's output sequence length, which includes reasoning
 * tokens; the reasoning part is kept separately.
 */
final class AiperfRecordSet {

	private final String source;

	private final List<SampleDraft> samples = new ArrayList<>();

	private final List<Double> chunkGaps = new ArrayList<>();

	private int completed;

	private int failed;

	private int cancelled;

	private int warmup;

	private int onlyReasoning;

	private double totalOutput;

	private @Nullable Double firstRequest;

	private @Nullable Double lastResponse;

	private AiperfRecordSet(String source) {
		this.source = source;
	}

	static boolean isRecord(JsonNode node) {
		return node.isObject() && node.path("metadata").isObject() && node.path("metrics").isObject();
	}

	static AiperfRecordSet of(List<JsonNode> records, String source) {
		AiperfRecordSet set = new AiperfRecordSet(source);
		for (int i = 0; i < records.size(); i++) {
			JsonNode record = records.get(i);
			if (!isRecord(record)) {
				throw new ImportRejected(
						source + " line " + (i + 1) + ": not an AIPerf record (no metadata and metrics)");
			}
			set.add(record);
		}
		return set;
	}

	private void add(JsonNode record) {
		JsonNode metadata = record.path("metadata");
		String phase = Fields.text(metadata, "credit_phase");
		if (phase == null) {
			phase = Fields.text(metadata, "benchmark_phase");
		}
		if ("warmup".equalsIgnoreCase(phase)) {
			warmup++;
			return;
		}
		JsonNode metrics = record.path("metrics");
		JsonNode error = record.get("error");
		if (error != null && !error.isNull()) {
			boolean isCancellation = AiperfMetrics.cancellation(Fields.integer(error, "code"),
					Fields.text(error, "type"));
			if (isCancellation) {
				cancelled++;
			}
			else {
				failed++;
			}
			samples.add(new SampleDraft(isCancellation ? SampleDraft.CANCELLED : SampleDraft.FAILED));
			return;
		}
		completed++;
		SampleDraft sample = SampleDraft.ok();
		Double output = value(metrics, "output_sequence_length");
		Double visible = value(metrics, "output_token_count");
		Double reasoning = value(metrics, "reasoning_token_count");
		if (output == null && (visible != null || reasoning != null)) {
			output = (visible == null ? 0 : visible) + (reasoning == null ? 0 : reasoning);
		}
		sample.outputTokens(output).reasoningTokens(reasoning);
		if (output != null) {
			totalOutput += output;
		}
		if (reasoning != null && reasoning > 0 && (visible == null || visible == 0)) {
			onlyReasoning++;
		}
		metrics.forEachEntry((tag, metric) -> AiperfMetrics.catalogueName(tag).ifPresent(name -> {
			DoubleUnaryOperator conversion = AiperfMetrics.conversion(name, Fields.text(metric, "unit"));
			if (conversion == null || AiperfMetrics.aggregate(name)) {
				return;
			}
			JsonNode value = metric.get("value");
			if (value != null && value.isArray()) {
				Fields.numbers(value).forEach(gap -> chunkGaps.add(conversion.applyAsDouble(gap)));
			}
			else {
				Double number = Fields.number(value);
				sample.metric(name, number == null ? null : conversion.applyAsDouble(number));
			}
		}));
		Double start = value(metrics, "min_request_timestamp");
		Double end = value(metrics, "max_response_timestamp");
		if (start != null && (firstRequest == null || start < firstRequest)) {
			firstRequest = start;
		}
		if (end != null && (lastResponse == null || end > lastResponse)) {
			lastResponse = end;
		}
		samples.add(sample);
	}

	private static @Nullable Double value(JsonNode metrics, String tag) {
		return Fields.number(metrics.path(tag), "value");
	}

	int completed() {
		return completed;
	}

	int failed() {
		return failed;
	}

	int cancelled() {
		return cancelled;
	}

	int warmup() {
		return warmup;
	}

	int total() {
		return completed + failed + cancelled;
	}

	void samplesInto(CellDraft cell, RunDraft run) {
		samples.forEach(cell::sample);
		run.note(source + ": samples in the order AIPerf wrote its records (as requests were processed)");
		if (onlyReasoning > 0) {
			run.note(source + ": " + onlyReasoning + " of " + completed
					+ " completed requests produced only reasoning tokens; output tokens include them, as AIPerf counts them");
		}
	}

	/**
	 * The cell's tokens and metrics computed from the records: distributions over the
	 * completed requests, throughputs as AIPerf computes them.
	 */
	void metricsInto(CellDraft cell, RunDraft run) {
		List<SampleDraft> ok = samples.stream().filter(sample -> sample.status().equals(SampleDraft.OK)).toList();
		cell.outputTokens(Distribution.of(present(ok, SampleDraft::outputTokens)).tokens());
		cell.reasoningTokens(Distribution.of(present(ok, SampleDraft::reasoningTokens)).tokens());
		Map<String, List<Double>> values = new LinkedHashMap<>();
		for (SampleDraft sample : ok) {
			sample.metrics()
				.forEach((name, value) -> values.computeIfAbsent(name, key -> new ArrayList<>()).add(value));
		}
		for (String metric : List.of("ttft_s", "prefill_tps", "decode_tps", "tpot_ms", "e2e_latency_s")) {
			if (values.containsKey(metric)) {
				cell.metric(metric, Distribution.of(values.get(metric)).statistics());
			}
		}
		if (!chunkGaps.isEmpty()) {
			cell.metric("itl_ms", Distribution.of(chunkGaps).statistics());
		}
		if (firstRequest != null && lastResponse != null && lastResponse > firstRequest && completed > 0) {
			double seconds = (lastResponse - firstRequest) / 1e9;
			cell.metric("throughput_tps", totalOutput / seconds);
			cell.metric("request_throughput", completed / seconds);
			run.note(source + ": statistics computed from the " + completed + " completed requests; throughputs over"
					+ " the first request to the last response, as AIPerf computes them");
		}
	}

	private static List<Double> present(List<SampleDraft> samples, Function<SampleDraft, @Nullable Double> value) {
		List<Double> result = new ArrayList<>();
		for (SampleDraft sample : samples) {
			Double number = value.apply(sample);
			if (number != null) {
				result.add(number);
			}
		}
		return result;
	}

}
