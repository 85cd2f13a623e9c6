package dev.parity.ingest.harness;

/**
 * What ray llmperf's two files share: the harness's name, its token counting, and the two
 * per-request values that have no catalogue name because they include the time to first
 * token.
 */
final class Llmperf {

	static final String HARNESS = "llmperf";

	/**
	 * llmperf's {@code inter_token_latency_s}: (TTFT + the gaps between chunks) / output
	 * tokens, in ms.
	 */
	static final String LATENCY_PER_TOKEN = "latency_per_output_token_ms";

	/**
	 * llmperf's {@code request_output_throughput_token_per_s}: output tokens / end-to-end
	 * latency.
	 */
	static final String REQUEST_OUTPUT_TPS = "request_output_tps";

	private Llmperf() {
	}

	static void provenance(RunDraft run, String source) {
		run.state("harness.name", HARNESS, source);
		run.state("harness.token_counting", "retokenized", source);
		run.define(LATENCY_PER_TOKEN, "ms", false, true);
		run.define(REQUEST_OUTPUT_TPS, "tokens/s per request", true, true);
		run.note("llmperf counts output tokens by re-tokenizing the text with its own fixed tokenizer"
				+ " (harness.token_counting: retokenized)");
		run.note("llmperf's inter-token latency and per-request throughput include the time to first token, so they"
				+ " are not the catalogue's tpot_ms/itl_ms/decode_tps: kept as " + LATENCY_PER_TOKEN + " and "
				+ REQUEST_OUTPUT_TPS + " (declared in metric_definitions)");
	}

}
