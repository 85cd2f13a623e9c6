package dev.parity.ingest.harness;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LlamaBenchyTableTests {

	@Test
	void theDefaultTableIsRecognisedWithoutAMappingOneCellPerPpAndTgPair() {
		InputFile table = Samples.own("llama-benchy/rdtand-prismaaura.md");
		Detection detection = FormatDetector.detect(List.of(table));
		assertThat(detection.format()).as(detection.explanation()).isEqualTo(HarnessFormat.LLAMA_BENCHY_TABLE);

		HarnessImport imported = HarnessImporters.read(HarnessFormat.LLAMA_BENCHY_TABLE, List.of(table), null);
		JsonNode cells = imported.cellsDocument().path("cells");

		// 16 rows: pp2048 and tg480 at 8 depths.
		assertThat(cells).hasSize(8);
		JsonNode first = cells.get(0);
		assertThat(first.at("/params/prompt_tokens").intValue()).isEqualTo(2048);
		assertThat(first.at("/params/concurrency").intValue()).isEqualTo(1);
		assertThat(first.at("/params/context_tokens").intValue()).isZero();
		// pp2048: t/s 5063.05 ± 507.65, e2e_ttft (ms) 513.19 ± 43.93; tg480: t/s 63.48 ±
		// 2.54
		assertThat(first.at("/metrics/prefill_tps/mean").doubleValue()).isCloseTo(5063.05, within(1e-9));
		assertThat(first.at("/metrics/prefill_tps/std").doubleValue()).isCloseTo(507.65, within(1e-9));
		assertThat(first.at("/metrics/ttft_s/mean").doubleValue()).isCloseTo(0.51319, within(1e-9));
		assertThat(first.at("/metrics/ttft_s/std").doubleValue()).isCloseTo(0.04393, within(1e-9));
		assertThat(first.at("/metrics/decode_tps/mean").doubleValue()).isCloseTo(63.48, within(1e-9));
		assertThat(first.at("/metrics/decode_tps").has("median")).isFalse();
		// pp2048 @ d130000 (the last pair): 1986.20 ± 0.93, e2e_ttft 66593.71 ms; tg480 @
		// d130000: 59.76 ± 2.42
		JsonNode last = cells.get(7);
		assertThat(last.at("/params/context_tokens").intValue()).isEqualTo(130000);
		assertThat(last.path("order").intValue()).isEqualTo(8);
		assertThat(last.at("/metrics/prefill_tps/mean").doubleValue()).isCloseTo(1986.20, within(1e-9));
		assertThat(last.at("/metrics/ttft_s/mean").doubleValue()).isCloseTo(66.59371, within(1e-9));
		assertThat(last.at("/metrics/decode_tps/mean").doubleValue()).isCloseTo(59.76, within(1e-9));
		// The table says neither how many runs nor how many failed.
		assertThat(first.at("/requests/completed").isNull()).isTrue();
		assertThat(first.at("/requests/failed").isNull()).isTrue();
		assertThat(imported.cellsDocument().at("/workload/output_tokens").intValue()).isEqualTo(480);
		assertThat(imported.cellsDocument().at("/harness/name").asString()).isEqualTo("llama-benchy");
		ImportedDocuments.read(imported);
	}

	@Test
	void aboveConcurrencyOneTheRatesArePerRequest() {
		// Rows of a llama-benchy table at concurrency 2 (google/gemma-4-31B-it, as
		// published in a README).
		InputFile table = InputFile.of("gemma.md",
				"""
						| model | test | t/s (total) | t/s (req) | peak t/s | peak t/s (req) | ttfr (ms) | est_ppt (ms) | e2e_ttft (ms) |
						|---|---|---|---|---|---|---|---|---|
						| google/gemma-4-31B-it | pp128 (c2) | 1142.43 ± 15.71 | 575.81 ± 8.37 |  |  | 225.78 ± 3.14 | 224.07 ± 3.14 | 225.81 ± 3.14 |
						| google/gemma-4-31B-it | tg32 (c2) | 13.93 ± 0.33 | 7.04 ± 0.09 | 16.00 ± 0.00 | 8.00 ± 0.00 |  |  |  |
						""");

		HarnessImport imported = HarnessImporters.read(FormatDetector.detect(List.of(table)).format(), List.of(table),
				null);
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/params/concurrency").intValue()).isEqualTo(2);
		assertThat(cell.at("/metrics/prefill_tps/mean").doubleValue()).isCloseTo(575.81, within(1e-9));
		assertThat(cell.at("/metrics/decode_tps/mean").doubleValue()).isCloseTo(7.04, within(1e-9));
		assertThat(cell.at("/metrics/ttft_s/mean").doubleValue()).isCloseTo(0.22581, within(1e-9));
		assertThat(imported.cellsDocument().at("/model/repo").asString()).isEqualTo("google/gemma-4-31B-it");
	}

	@Test
	void llamaCppsLlamaBenchTableIsNotTakenForLlamaBenchy() {
		InputFile llamaBench = InputFile.of("llama-bench.md", """
				| model | size | params | backend | ngl | test | t/s |
				| --- | ---: | ---: | --- | --: | ---: | ---: |
				| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | pp512 | 4557.27 ± 22.10 |
				""");

		assertThat(FormatDetector.detect(List.of(llamaBench)).format()).isNotEqualTo(HarnessFormat.LLAMA_BENCHY_TABLE);
	}

}
