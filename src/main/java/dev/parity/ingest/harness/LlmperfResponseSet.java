package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * llmperf's {@code *_individual_responses.json}: one object per request, in seconds. A
 * request with an {@code error_code} failed, as llmperf counts it, even when the error is
 * llmperf's own client-side check (−100, "Output too few tokens") and the response
 * carries full metrics: its measured TTFT, latency and output tokens stay in its sample,
 * but like llmperf the cell's statistics are over the requests without an error.
 */
final class LlmperfResponseSet {

	private final String source;

	private final List<SampleDraft> samples = new ArrayList<>();

	private final Map<String, Integer> errors = new LinkedHashMap<>();

	private final List<Double> inputLengths = new ArrayList<>();

	private int completed;

	private int failed;

	private LlmperfResponseSet(String source) {
		this.source = source;
	}

	static boolean isResponses(JsonNode node) {
		if (!node.isArray() || node.isEmpty()) {
			return false;
		}
		for (JsonNode item : node) {
			if (!item.isObject() || !Fields.hasAll(item, "ttft_s", "end_to_end_latency_s")
					|| !Fields.hasAny(item, "number_output_tokens", "error_code")) {
				return false;
			}
		}
		return true;
	}

	static LlmperfResponseSet of(JsonNode responses, String source) {
		LlmperfResponseSet set = new LlmperfResponseSet(source);
		for (JsonNode response : responses) {
			set.add(response);
		}
		return set;
	}

	private void add(JsonNode response) {
		JsonNode code = response.get("error_code");
		boolean error = code != null && !code.isNull();
		Double output = Fields.number(response, "number_output_tokens");
		Double ttft = Fields.number(response, "ttft_s");
		Double latency = Fields.number(response, "end_to_end_latency_s");
		SampleDraft sample = new SampleDraft(error ? SampleDraft.FAILED : SampleDraft.OK).outputTokens(output)
			.metric("ttft_s", ttft)
			.metric("e2e_latency_s", latency)
			.metric(Llmperf.REQUEST_OUTPUT_TPS, Fields.number(response, "request_output_throughput_token_per_s"));
		Double input = Fields.number(response, "number_input_tokens");
		if (input != null) {
			inputLengths.add(input);
		}
		if (error) {
			failed++;
			String message = Fields.text(response, "error_msg");
			// Jackson 3 refuses asString() of an object or array: a broken file may hold
			// one here.
			String kind = (code.isContainer() ? code.toString() : code.asString())
					+ (message == null ? "" : " (" + withoutTrailingNumber(message) + ")");
			errors.merge(kind, 1, Integer::sum);
		}
		else {
			completed++;
			// llmperf divides the summed gaps by the output tokens only for requests
			// without an error.
			Double perToken = Fields.number(response, "inter_token_latency_s");
			sample.metric(Llmperf.LATENCY_PER_TOKEN, perToken == null ? null : perToken * 1000);
		}
		samples.add(sample);
	}

	int completed() {
		return completed;
	}

	int failed() {
		return failed;
	}

	/** The prompt length when every request had the same, else {@code null}. */
	@Nullable Double commonInputLength() {
		return !inputLengths.isEmpty() && inputLengths.stream().distinct().count() == 1 ? inputLengths.get(0) : null;
	}

	void samplesInto(CellDraft cell, RunDraft run) {
		samples.forEach(cell::sample);
		run.note(source + ": samples in the order llmperf wrote them");
		if (failed > 0) {
			List<String> kinds = new ArrayList<>();
			errors.forEach((kind, count) -> kinds.add(count + " × error " + kind));
			run.note(source + ": " + failed + " of " + samples.size() + " requests carry an llmperf error ("
					+ String.join(", ", kinds) + "): counted as failed, as llmperf counts them (its summary's"
					+ " results_number_errors); a client-side check such as −100 'Output too few tokens' fails a request"
					+ " the server answered, so their measured TTFT, latency and output tokens are kept in their samples,"
					+ " while the cell's statistics are over the " + completed
					+ " requests without an error, as llmperf's");
		}
	}

	void metricsInto(CellDraft cell) {
		List<SampleDraft> ok = samples.stream().filter(sample -> sample.status().equals(SampleDraft.OK)).toList();
		List<Double> outputs = new ArrayList<>();
		ok.forEach(sample -> {
			if (sample.outputTokens() != null) {
				outputs.add(sample.outputTokens());
			}
		});
		cell.outputTokens(Distribution.of(outputs).tokens());
		for (String metric : List.of("ttft_s", "e2e_latency_s", Llmperf.LATENCY_PER_TOKEN,
				Llmperf.REQUEST_OUTPUT_TPS)) {
			List<Double> values = new ArrayList<>();
			ok.forEach(sample -> {
				if (sample.metric(metric) != null) {
					values.add(sample.metric(metric));
				}
			});
			cell.metric(metric, Distribution.of(values).statistics());
		}
	}

	/**
	 * The message with the number that ends it written {@code N}
	 * ({@code "timeout after 30"}: {@code "timeout after N"}), so messages that differ
	 * only in it count together. Scanned, not matched: {@code \\d+$} takes quadratic time
	 * on a long run of digits that does not end the message.
	 */
	static String withoutTrailingNumber(String message) {
		int end = message.length();
		while (end > 0 && message.charAt(end - 1) >= '0' && message.charAt(end - 1) <= '9') {
			end--;
		}
		return end == message.length() ? message : message.substring(0, end) + "N";
	}

}
