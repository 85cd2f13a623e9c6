package dev.parity.ingest.harness;

import java.util.Arrays;
import java.util.Optional;

/**
 * The upload formats Parity reads: its own run document, the outputs of common
 * LLM-serving benchmark harnesses, and published tables.
 */
public enum HarnessFormat {

	NATIVE("native", "benchmark-run/1 document"), VLLM("vllm", "vLLM bench serve --save-result"),
	VLLM_SWEEP("vllm-sweep", "vLLM bench sweep serve"), SGLANG("sglang", "SGLang bench_serving --output-file"),
	AIPERF("aiperf", "AIPerf profile_export_aiperf.json"),
	AIPERF_RECORDS("aiperf-records", "AIPerf profile_export.jsonl"),
	AIPERF_SWEEP("aiperf-sweep", "AIPerf profile_export_aiperf_sweep.json"),
	AIPERF_CSV("aiperf-csv", "AIPerf profile_export_aiperf.csv"),
	GENAI_PERF_CSV("genai-perf-csv", "GenAI-Perf CSV export (profile or analyze)"),
	LLMPERF_SUMMARY("llmperf-summary", "llmperf *_summary.json"),
	LLMPERF_RESPONSES("llmperf-responses", "llmperf *_individual_responses.json"),
	LLAMA_BENCHY("llama-benchy", "llama-benchy --format json"),
	LLAMA_BENCHY_TABLE("llama-benchy-md", "llama-benchy Markdown table"),
	LLAMA_BENCHY_PROGRESS("llama-benchy-progress", "llama-benchy --emit-progress stream"),
	GUIDELLM("guidellm", "guidellm benchmark report"),
	INFERENCE_PERF("inference-perf", "inference-perf lifecycle metrics"),
	LLMD_REPORT("llm-d-report", "llm-d benchmark report v0.2 (also inference-perf's partial reports)"),
	MLPERF("mlperf", "MLPerf Inference Server/Interactive (mlperf_log_detail.txt, result_summary.json)"),
	TABLE_CSV("table-csv", "published table (CSV)"), TABLE_MARKDOWN("table-markdown", "published table (Markdown)");

	private final String id;

	private final String label;

	HarnessFormat(String id, String label) {
		this.id = id;
		this.label = label;
	}

	/** The id used in URLs, forms and the API, e.g. {@code vllm-sweep}. */
	public String id() {
		return id;
	}

	/** A short human description, e.g. {@code vLLM bench sweep serve}. */
	public String label() {
		return label;
	}

	/** Whether this format needs a {@link TableMapping} to be read. */
	public boolean needsMapping() {
		return this == TABLE_CSV || this == TABLE_MARKDOWN;
	}

	public static Optional<HarnessFormat> ofId(String id) {
		return Arrays.stream(values()).filter(format -> format.id.equals(id)).findFirst();
	}

}
