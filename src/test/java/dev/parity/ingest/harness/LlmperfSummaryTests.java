package dev.parity.ingest.harness;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LlmperfSummaryTests {

	private static HarnessImport read(List<InputFile> files) {
		return HarnessImporters.read(HarnessFormat.LLMPERF_SUMMARY, files, null);
	}

	@Test
	void flattenedKeysBecomeStatisticsAndStringNumbersAreRead() {
		HarnessImport imported = read(List.of(Samples.shared("llmperf-summary.json")));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/params/concurrency").intValue()).isEqualTo(5);
		assertThat(cell.at("/params/prompt_tokens").intValue()).isEqualTo(550);
		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(150);
		assertThat(cell.at("/requests/failed").intValue()).isZero();
		assertThat(cell.at("/requests/cancelled").isNull()).isTrue();
		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(0.221888, within(1e-6));
		assertThat(cell.at("/metrics/ttft_s/mean").doubleValue()).isCloseTo(0.227860, within(1e-6));
		assertThat(cell.at("/metrics/ttft_s/p25").doubleValue()).isCloseTo(0.186020, within(1e-6));
		assertThat(cell.at("/metrics/ttft_s/std").doubleValue()).isCloseTo(0.045458, within(1e-6));
		assertThat(cell.at("/metrics/e2e_latency_s/p99").doubleValue()).isCloseTo(0.992271, within(1e-6));
		assertThat(cell.at("/metrics/throughput_tps").doubleValue()).isCloseTo(441.847378, within(1e-6));
		assertThat(cell.at("/metrics/request_throughput").doubleValue()).isCloseTo(176.738951 / 60, within(1e-6));
		assertThat(cell.at("/metrics/latency_per_output_token_ms/median").doubleValue()).isCloseTo(5.320809,
				within(1e-6));
		// min and max are written as strings ("150").
		assertThat(cell.at("/output_tokens/min").intValue()).isEqualTo(150);
		assertThat(cell.at("/output_tokens/max").intValue()).isEqualTo(150);
		JsonNode document = imported.cellsDocument();
		assertThat(document.at("/metric_definitions/latency_per_output_token_ms/unit").asString()).isEqualTo("ms");
		assertThat(document.at("/workload/output_tokens").intValue()).isEqualTo(150);
		assertThat(document.at("/harness/token_counting").asString()).isEqualTo("retokenized");
		assertThat(document.at("/recorded_at").asString()).isEqualTo("2024-01-10T01:55:04Z");
		assertThat(document.has("model")).isFalse();
		ImportedDocuments.read(imported);
	}

	@Test
	void theRunsIndividualResponsesBecomeItsSamples() {
		HarnessImport imported = read(Samples.ownFolder("llmperf"));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(4);
		assertThat(cell.at("/requests/failed").intValue()).isEqualTo(2);
		assertThat(cell.path("samples")).hasSize(6);
		assertThat(cell.path("samples").get(2).path("status").asString()).isEqualTo("failed");
		assertThat(imported.countReadings()).isEmpty();
		assertThat(imported.cellsDocument().at("/model/repo").asString())
			.isEqualTo("mistralai/Mistral-7B-Instruct-v0.2");
		ImportedDocuments.read(imported);
	}

}
