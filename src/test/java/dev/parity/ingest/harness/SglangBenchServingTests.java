package dev.parity.ingest.harness;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

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
		// Request #28 produced one token and has TTFT 0.0: counted as completed, its TTFT
		// absent.
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
		String good = new String(Samples.own("sglang-rates.jsonl").content(), StandardCharsets.UTF_8).lines()
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

	/**
	 * The real details sample edited in memory (no public SGLang file with such a request
	 * was found): request #5 (9 tokens, TTFT 5.008 s) becomes one that returned nothing —
	 * output_lens 0, ttfts 0.0, no inter-token latencies, empty text and empty error —
	 * while the file still counts 100 completed.
	 */
	private static InputFile detailsWithRequest5Empty(Integer completed) {
		InputFile sample = Samples.shared("sglang-bench-serving-details.jsonl");
		ObjectNode result = (ObjectNode) HarnessJson.parse(sample.name(), sample.content());
		((ArrayNode) result.get("output_lens")).set(4, 0);
		((ArrayNode) result.get("ttfts")).set(4, 0.0);
		((ArrayNode) result.get("itls")).set(4, result.arrayNode());
		((ArrayNode) result.get("generated_texts")).set(4, "");
		result.put("request_rate", "inf");
		if (completed != null) {
			result.put("completed", completed);
		}
		return InputFile.of("edited.jsonl", result.toString());
	}

	@Test
	void aRequestWithNoOutputNoFirstTokenAndNoErrorFailsAndTheStatisticsComeFromTheSuccesses() {
		HarnessImport imported = read(detailsWithRequest5Empty(null));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(99);
		assertThat(cell.at("/requests/failed").intValue()).isEqualTo(1);
		assertThat(cell.at("/requests/cancelled").isNull()).isTrue();
		assertThat(cell.path("samples").get(4).path("status").asString()).isEqualTo("failed");
		// By hand from the arrays: the 98 positive TTFTs of the 99 successes (#28's 0.0
		// is absent) average
		// 2.839651 s, where SGLang's mean_ttft_ms (2832.940 ms) counted request #5 and
		// #28's 0.0 too; their 5995
		// inter-token gaps average 48.042688 ms; 99 successes in 6.548484 s are 15.118002
		// requests/s.
		assertThat(cell.at("/metrics/ttft_s/mean").doubleValue()).isCloseTo(2.839651, within(1e-6));
		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(2.849955, within(1e-6));
		assertThat(cell.at("/metrics/itl_ms/mean").doubleValue()).isCloseTo(48.042688, within(1e-6));
		assertThat(cell.at("/metrics/request_throughput").doubleValue()).isCloseTo(15.118002, within(1e-6));
		assertThat(cell.at("/metrics/e2e_latency_s/mean").doubleValue()).isCloseTo(5.778589, within(1e-6));
		assertThat(imported.notes()).anyMatch(note -> note
			.contains("(#5) returned no output, no first token and no" + " error: failed, not completed"));
		assertThat(imported.notes()).anyMatch(note -> note
			.contains("SGLang counted 100 completed request(s) where its" + " per-request arrays show 99 successful")
				&& note.contains("recomputed from the successful requests"));
		ImportedDocuments.read(imported);
	}

	@Test
	void whenSglangAlreadyLeftTheEmptyRequestOutItsStatisticsStay() {
		// SGLang itself leaves out a request it marked unsuccessful, even with an empty
		// error: completed 99.
		HarnessImport imported = read(detailsWithRequest5Empty(99));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(99);
		assertThat(cell.at("/requests/failed").intValue()).isEqualTo(1);
		// median_ttft_ms of the file, 2849.954623 ms, kept.
		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(2.849955, within(1e-6));
		assertThat(cell.at("/metrics/ttft_s/mean").doubleValue()).isCloseTo(2.832940, within(1e-6));
		assertThat(imported.notes()).noneMatch(note -> note.contains("recomputed"));
	}

	@Test
	void withoutAFailedCountTheDifferenceFromNumPromptsFailed() {
		// The first line of the real summary sample (completed 300), edited in memory: a
		// num_prompts of 310 added,
		// as a script wrapping bench_serving may write it; SGLang itself writes neither
		// num_prompts nor failed.
		String line = new String(Samples.shared("sglang-bench-serving.jsonl").content(), StandardCharsets.UTF_8).lines()
			.findFirst()
			.orElseThrow();
		ObjectNode result = (ObjectNode) HarnessJson.parse("line", line);
		result.put("num_prompts", 310);
		HarnessImport imported = read(InputFile.of("one.jsonl", result.toString()));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(300);
		assertThat(cell.at("/requests/failed").intValue()).isEqualTo(10);
		assertThat(cell.at("/requests/cancelled").isNull()).isTrue();
		assertThat(imported.notes())
			.anyMatch(note -> note.contains("failed = num_prompts − completed = 310 − 300 = 10"));
	}

}
