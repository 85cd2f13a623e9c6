package dev.parity.ingest.harness;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class SglangBenchServingTests {

	private static HarnessImport read(InputFile file) {
		return HarnessImporters.read(HarnessFormat.SGLANG, List.of(file), null);
	}

	@Test
	void eachLineIsACellInFileOrderWithUnknownFailures() {
		HarnessImport imported = read(Samples.shared("sglang-bench-serving.jsonl"));
		JsonNode cells = imported.cellsDocument().path("cells");

		assertThat(cells).hasSize(7);
		JsonNode first = cells.get(0);
		assertThat(first.at("/params/request_rate").doubleValue()).isEqualTo(1.0);
		assertThat(first.at("/params/prompt_tokens").intValue()).isEqualTo(1024);
		assertThat(first.path("order").intValue()).isEqualTo(1);
		assertThat(first.at("/requests/completed").intValue()).isEqualTo(300);
		assertThat(first.at("/requests/failed").isNull()).isTrue();
		assertThat(first.at("/requests/cancelled").isNull()).isTrue();
		assertThat(first.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(0.085745, within(1e-6));
		assertThat(first.at("/metrics/e2e_latency_s/mean").doubleValue()).isCloseTo(7.840616, within(1e-6));
		assertThat(first.at("/metrics/itl_ms/median").doubleValue()).isCloseTo(13.638956, within(1e-6));
		assertThat(first.at("/metrics/throughput_tps").doubleValue()).isCloseTo(537.414285, within(1e-6));
		assertThat(first.at("/output_tokens/mean").doubleValue()).isCloseTo(160347.0 / 300, within(1e-9));
		assertThat(imported.notes()).contains("failed/cancelled counts not recorded by SGLang: unknown");
		assertThat(imported.cellsDocument().at("/harness/name").asString()).isEqualTo("sglang.bench_serving");
		assertThat(imported.cellsDocument().has("model")).isFalse();
	}

	@Test
	void linesWithAnotherDatasetAreOtherCellsNotRepetitions() {
		JsonNode cells = read(Samples.shared("sglang-bench-serving.jsonl")).cellsDocument().path("cells");

		// Rates 4 and 8 ran twice: on "random" and on "sharegpt".
		assertThat(cells.get(2).at("/params/dataset").asString()).isEqualTo("random");
		assertThat(cells.get(5).at("/params/dataset").asString()).isEqualTo("sharegpt");
		assertThat(cells.get(5).at("/params/request_rate").doubleValue()).isEqualTo(4.0);
		assertThat(cells.get(5).path("params").has("prompt_tokens")).isFalse();
		assertThat(cells.get(5).at("/requests/completed").intValue()).isEqualTo(1200);
	}

	@Test
	void detailsBecomeSamplesAndBareInfinityIsAnUnlimitedRate() {
		HarnessImport imported = read(Samples.shared("sglang-bench-serving-details.jsonl"));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/params/request_rate").asString()).isEqualTo("inf");
		assertThat(cell.at("/params/concurrency").intValue()).isEqualTo(100);
		assertThat(cell.at("/params/prompt_tokens").intValue()).isEqualTo(8192);
		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(100);
		assertThat(cell.at("/requests/failed").intValue()).isZero();
		assertThat(cell.at("/requests/cancelled").isNull()).isTrue();
		assertThat(cell.path("samples")).hasSize(100);
		assertThat(cell.at("/metrics/ttft_s/p99").doubleValue()).isCloseTo(5.002684, within(1e-6));
		assertThat(cell.at("/metrics/itl_ms/p95").doubleValue()).isCloseTo(17.867772, within(1e-6));
		// output_lens of the completed requests: 1 … 126 tokens.
		assertThat(cell.at("/output_tokens/min").intValue()).isEqualTo(1);
		assertThat(cell.at("/output_tokens/max").intValue()).isEqualTo(126);
		// Request #28 produced one token and has TTFT 0.0: counted as completed, its TTFT absent.
		JsonNode oneToken = cell.path("samples").get(27);
		assertThat(oneToken.path("status").asString()).isEqualTo("ok");
		assertThat(oneToken.path("output_tokens").intValue()).isEqualTo(1);
		assertThat(oneToken.has("ttft_s")).isFalse();
		assertThat(imported.notes()).anyMatch(note -> note.contains("#28") && note.contains("TTFT written as 0.0"));
		assertThat(imported.cellsDocument().at("/engine/name").asString()).isEqualTo("sglang");
		assertThat(imported.cellsDocument().at("/engine/version").asString()).isEqualTo("0.5.9");
		assertThat(imported.cellsDocument().path("engine").has("flags")).isFalse();
		assertThat(imported.cellsDocument().has("model")).isFalse();
		assertThat(imported.notes()).anyMatch(note -> note.contains("/workspace/qwen-3.5-27b"));
	}

	@Test
	void repeatedLinesAreRepetitionsAndNonFiniteValuesAreAbsent() {
		HarnessImport imported = read(Samples.own("sglang-rates.jsonl"));
		JsonNode cells = imported.cellsDocument().path("cells");

		assertThat(cells).hasSize(2);
		JsonNode twice = cells.get(0);
		assertThat(twice.at("/params/request_rate").doubleValue()).isEqualTo(2.0);
		assertThat(twice.at("/params/concurrency").intValue()).isEqualTo(16);
		assertThat(twice.at("/requests/completed").intValue()).isEqualTo(400);
		assertThat(twice.path("samples")).hasSize(2);
		assertThat(twice.at("/metrics/ttft_s/median").doubleValue()).isCloseTo((0.0924 + 0.0951) / 2, within(1e-9));
		// std_itl_ms is NaN in the file: absent.
		assertThat(twice.at("/metrics/itl_ms").has("std")).isFalse();
		assertThat(twice.at("/metrics/itl_ms/p95").isNumber()).isTrue();
		assertThat(cells.get(1).at("/params/request_rate").asString()).isEqualTo("inf");
		// random_range_ratio 1.0: every request asked for exactly 256 tokens.
		assertThat(imported.cellsDocument().at("/workload/output_tokens").intValue()).isEqualTo(256);
		assertThat(imported.cellsDocument().at("/workload/dataset").asString()).isEqualTo("random");
		ImportedDocuments.read(imported);
	}

	@Test
	void rejectsABrokenLineNamingIt() {
		String good = new String(Samples.own("sglang-rates.jsonl").content(), java.nio.charset.StandardCharsets.UTF_8)
			.lines()
			.findFirst()
			.orElseThrow();
		InputFile broken = InputFile.of("out.jsonl", good + "\n" + good + "\n" + good.substring(0, 80) + "\n");

		assertThatThrownBy(() -> read(broken)).isInstanceOf(ImportRejected.class)
			.hasMessageStartingWith("out.jsonl: not valid JSON: ")
			.hasMessageContaining("at line 3");
	}

	@Test
	void producesDocumentsTheRunModelReads() {
		ImportedDocuments.read(read(Samples.shared("sglang-bench-serving.jsonl")));
		ImportedDocuments.read(read(Samples.shared("sglang-bench-serving-details.jsonl")));
	}

}
