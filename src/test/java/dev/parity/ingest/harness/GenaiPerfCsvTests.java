package dev.parity.ingest.harness;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class GenaiPerfCsvTests {

	private static HarnessImport read(String path) {
		InputFile file = Samples.own(path);
		Detection detection = FormatDetector.detect(List.of(file));
		assertThat(detection.format()).as(detection.explanation()).isEqualTo(HarnessFormat.GENAI_PERF_CSV);
		HarnessImport imported = HarnessImporters.read(HarnessFormat.GENAI_PERF_CSV, List.of(file), null);
		ImportedDocuments.read(imported);
		return imported;
	}

	@Test
	void theOldestExportIsInNanosecondsWithOldNamesAndNoCounts() {
		HarnessImport imported = read("genai-perf/profile_export_genai_perf-ns.csv");
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		// Time To First Token (ns): avg 5964158, p50 5806016
		assertThat(cell.at("/metrics/ttft_s/mean").doubleValue()).isCloseTo(0.005964158, within(1e-12));
		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(0.005806016, within(1e-12));
		// Request Latency (ns): p99 149012682
		assertThat(cell.at("/metrics/e2e_latency_s/p99").doubleValue()).isCloseTo(0.149012682, within(1e-12));
		// Inter Token Latency (ns) was then the gaps between responses: ITL, p50 1703449
		// ns.
		assertThat(cell.at("/metrics/itl_ms/median").doubleValue()).isCloseTo(1.703449, within(1e-9));
		assertThat(cell.at("/metrics").has("tpot_ms")).isFalse();
		// Num Output Token: p50 58, max 104
		assertThat(cell.at("/output_tokens/median").doubleValue()).isEqualTo(58);
		assertThat(cell.at("/output_tokens/max").doubleValue()).isEqualTo(104);
		// Output Token Throughput (per sec) 623.19, Request Throughput (per sec) 10.95
		assertThat(cell.at("/metrics/throughput_tps").doubleValue()).isCloseTo(623.19, within(1e-9));
		assertThat(cell.at("/metrics/request_throughput").doubleValue()).isCloseTo(10.95, within(1e-9));
		assertThat(cell.at("/requests/completed").isNull()).isTrue();
		assertThat(cell.at("/requests/failed").isNull()).isTrue();
		assertThat(imported.cellsDocument().at("/harness/name").asString()).isEqualTo("genai-perf");
	}

	@Test
	void theCurrentExportHasQuotedThousandsAndARequestCount() {
		JsonNode cell = read("genai-perf/simple_medium_response_c10_genai_perf.csv").cellsDocument()
			.path("cells")
			.get(0);

		// Request Latency (ms): avg "9,611.46", p50 "8,457.45", max "19,118.76"
		assertThat(cell.at("/metrics/e2e_latency_s/mean").doubleValue()).isCloseTo(9.61146, within(1e-9));
		assertThat(cell.at("/metrics/e2e_latency_s/median").doubleValue()).isCloseTo(8.45745, within(1e-9));
		assertThat(cell.at("/metrics/e2e_latency_s/max").doubleValue()).isCloseTo(19.11876, within(1e-9));
		assertThat(cell.at("/output_tokens/max").doubleValue()).isEqualTo(1035);
		assertThat(cell.at("/metrics/throughput_tps").doubleValue()).isCloseTo(408.83, within(1e-9));
		// Request Count (count) 26; failures are not recorded.
		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(26);
		assertThat(cell.at("/requests/failed").isNull()).isTrue();
		// Not streamed: no TTFT.
		assertThat(cell.at("/metrics").has("ttft_s")).isFalse();
	}

	@Test
	void theAnalyzeExportIsOneCellPerConfiguration() {
		HarnessImport imported = read("genai-perf/analyze_export_genai_perf.csv");
		JsonNode cells = imported.cellsDocument().path("cells");

		assertThat(cells).hasSize(5);
		// gpt2_run_config_3,32,200,175,184.43,30.90,3406.24,125.98,1134.92,10.12
		JsonNode first = cells.get(0);
		assertThat(first.at("/params/concurrency").intValue()).isEqualTo(32);
		assertThat(first.at("/params/prompt_tokens").intValue()).isEqualTo(200);
		assertThat(first.at("/params/num_prompts").intValue()).isEqualTo(175);
		assertThat(first.at("/metrics/ttft_s/p99").doubleValue()).isCloseTo(0.18443, within(1e-9));
		assertThat(first.at("/metrics/tpot_ms/p99").doubleValue()).isCloseTo(30.90, within(1e-9));
		assertThat(first.at("/metrics/e2e_latency_s/p99").doubleValue()).isCloseTo(3.40624, within(1e-9));
		assertThat(first.at("/metrics/throughput_tps").doubleValue()).isCloseTo(1134.92, within(1e-9));
		assertThat(first.at("/metrics/request_throughput").doubleValue()).isCloseTo(10.12, within(1e-9));
		assertThat(first.at("/requests/completed").isNull()).isTrue();
		// gpt2_run_config_2 (last row): Num Prompts 150, request throughput 9.83
		assertThat(cells.get(4).at("/params/num_prompts").intValue()).isEqualTo(150);
		assertThat(cells.get(4).at("/metrics/request_throughput").doubleValue()).isCloseTo(9.83, within(1e-9));
		assertThat(imported.notes()).anyMatch(note -> note.contains("GPU telemetry"));
	}

}
