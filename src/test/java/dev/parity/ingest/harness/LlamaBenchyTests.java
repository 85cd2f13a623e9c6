package dev.parity.ingest.harness;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LlamaBenchyTests {

	private static HarnessImport read(InputFile file) {
		return HarnessImporters.read(HarnessFormat.LLAMA_BENCHY, List.of(file), null);
	}

	@Test
	void repetitionsAreSamplesInOrderWithTheOutlierFirst() {
		HarnessImport imported = read(Samples.shared("llama-benchy-report.json"));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/params/prompt_tokens").intValue()).isEqualTo(1024);
		assertThat(cell.at("/params/concurrency").intValue()).isEqualTo(1);
		JsonNode samples = cell.path("samples");
		assertThat(samples).hasSize(15);
		assertThat(samples.get(0).path("prefill_tps").doubleValue()).isCloseTo(1545.02, within(0.01));
		assertThat(samples.get(1).path("prefill_tps").doubleValue()).isCloseTo(1023.50, within(0.01));
		assertThat(samples.get(0).path("ttft_s").doubleValue()).isCloseTo(0.698683, within(1e-6));
		assertThat(samples.get(0).path("decode_tps").doubleValue()).isCloseTo(37.198386, within(1e-6));
		// The mean (1,052.7) is pulled by the first run; the median of the 15 is
		// 1,019.95.
		assertThat(cell.at("/metrics/prefill_tps/mean").doubleValue()).isCloseTo(1052.738, within(0.001));
		assertThat(cell.at("/metrics/prefill_tps/median").doubleValue()).isCloseTo(1019.951, within(0.001));
		assertThat(cell.at("/metrics/prefill_tps/std").doubleValue()).isCloseTo(131.786, within(0.001));
		assertThat(cell.at("/metrics/ttft_s/mean").doubleValue()).isCloseTo(1.035594, within(1e-6));
		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(15);
		assertThat(cell.at("/requests/failed").isNull()).isTrue();
		assertThat(cell.has("output_tokens")).isFalse();
		JsonNode document = imported.cellsDocument();
		assertThat(document.at("/recorded_at").asString()).isEqualTo("2026-09-12T15:53:12Z");
		assertThat(document.at("/harness/version").asString()).isEqualTo("0.4.0");
		assertThat(document.at("/workload/output_tokens").intValue()).isEqualTo(32);
		ImportedDocuments.read(imported);
	}

	@Test
	void depthAndConcurrencyAreGridParamsInTheOrderTheyRan() {
		HarnessImport imported = read(Samples.own("llama-benchy-depth.json"));
		JsonNode cells = imported.cellsDocument().path("cells");

		assertThat(cells).hasSize(3);
		assertThat(cells.get(0).at("/params/context_tokens").intValue()).isZero();
		assertThat(cells.get(2).at("/params/context_tokens").intValue()).isEqualTo(4096);
		assertThat(cells.get(1).at("/params/concurrency").intValue()).isEqualTo(2);
		assertThat(cells.get(2).path("order").intValue()).isEqualTo(3);
		// At concurrency 2, the per-request values: 3 runs × 2 requests.
		assertThat(cells.get(1).path("samples")).hasSize(6);
		assertThat(cells.get(1).at("/requests/completed").intValue()).isEqualTo(6);
		// A model name written as a repository id is taken as one.
		assertThat(imported.cellsDocument().at("/model/repo").asString()).isEqualTo("unsloth/Qwen3-8B-GGUF");
		ImportedDocuments.read(imported);
	}

}
