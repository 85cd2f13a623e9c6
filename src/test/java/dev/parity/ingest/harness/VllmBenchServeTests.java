package dev.parity.ingest.harness;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.parity.run.RunDocument;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class VllmBenchServeTests {

	private static HarnessImport read(InputFile... files) {
		return HarnessImporters.read(HarnessFormat.VLLM, List.of(files), null);
	}

	@Test
	void allFailedFileHasCountsButNoLatencies() {
		HarnessImport imported = read(Samples.shared("vllm-bench-serve-all-failed.json"));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/requests/completed").intValue()).isZero();
		assertThat(cell.at("/requests/failed").intValue()).isEqualTo(8);
		assertThat(cell.at("/requests/cancelled").isNull()).isTrue();
		// vLLM writes 0.0 for every latency and throughput when nothing completed:
		// absent, not zero.
		assertThat(cell.path("metrics").isEmpty()).isTrue();
		assertThat(cell.has("output_tokens")).isFalse();
		assertThat(cell.path("params").get("request_rate").asString()).isEqualTo("inf");
		assertThat(cell.path("params").has("concurrency")).isFalse();
		assertThat(imported.notes()).anyMatch(note -> note.contains("no request completed (8 failed)"));
		assertThat(imported.cellsDocument().at("/model/repo").asString()).isEqualTo("facebook/opt-125m");
	}

	@Test
	void detailedFileKeepsSummariesConvertedAndRequestsAsSamples() {
		HarnessImport imported = read(Samples.shared("vllm-bench-serve-detailed.json"));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/params/concurrency").intValue()).isEqualTo(1);
		assertThat(cell.at("/params/prompt_tokens").intValue()).isEqualTo(4096);
		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(50);
		assertThat(cell.at("/requests/failed").intValue()).isZero();
		// Summary in ms (median_ttft_ms 1153.111…), the catalogue in s.
		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(1.153111, within(1e-6));
		assertThat(cell.at("/metrics/ttft_s/p99").doubleValue()).isCloseTo(1.160964, within(1e-6));
		assertThat(cell.at("/metrics/e2e_latency_s/mean").doubleValue()).isCloseTo(10.352580, within(1e-6));
		assertThat(cell.at("/metrics/tpot_ms/median").doubleValue()).isCloseTo(72.442249, within(1e-6));
		assertThat(cell.at("/metrics/throughput_tps").doubleValue()).isCloseTo(12.363803, within(1e-6));
		assertThat(cell.at("/output_tokens/median").doubleValue()).isEqualTo(128);
		JsonNode samples = cell.path("samples");
		assertThat(samples).hasSize(50);
		assertThat(samples).allMatch(sample -> sample.path("status").asString().equals("ok"));
		// Per-request arrays are in seconds: the first request's TTFT is 1.1457 s
		// (ttfts[0]).
		assertThat(samples).anyMatch(sample -> Math.abs(sample.path("ttft_s").doubleValue() - 1.1456967) < 1e-6);
		assertThat(samples.get(0).path("output_tokens").intValue()).isEqualTo(128);
		assertThat(samples.get(0).path("e2e_latency_s").doubleValue()).isBetween(10.0, 10.5);
	}

	@Test
	void failedRequestsOfTheDetailedArraysBecomeFailedSamples() {
		HarnessImport imported = read(Samples.own("vllm-bench-serve-partial-failure.json"));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(4);
		assertThat(cell.at("/requests/failed").intValue()).isEqualTo(2);
		assertThat(cell.at("/params/request_rate").doubleValue()).isEqualTo(2.0);
		assertThat(cell.at("/params/concurrency").intValue()).isEqualTo(4);
		List<String> statuses = cell.path("samples")
			.valueStream()
			.map(sample -> sample.path("status").asString())
			.toList();
		assertThat(statuses).containsExactly("ok", "ok", "failed", "ok", "ok", "failed");
		JsonNode failed = cell.path("samples").get(2);
		assertThat(failed.has("ttft_s")).isFalse();
		assertThat(failed.has("output_tokens")).isFalse();
		// latencies[i] is used where vLLM writes it.
		assertThat(cell.path("samples").get(0).path("e2e_latency_s").doubleValue()).isCloseTo(1.05, within(0.02));
		assertThat(cell.at("/metrics/ttft_s/p90").isNumber()).isTrue();
		assertThat(cell.at("/output_tokens/max").intValue()).isEqualTo(64);
	}

	@Test
	void severalResultFilesAreCellsOrderedByTheirDate() {
		String first = "{\"date\": \"20260101-100000\", \"num_prompts\": 4, \"burstiness\": 1.0, \"request_rate\": \"inf\","
				+ " \"max_concurrency\": 1, \"completed\": 4, \"failed\": 0, \"median_ttft_ms\": 20.0, \"mean_ttft_ms\": 21.0}";
		String second = first.replace("100000", "090000").replace("\"max_concurrency\": 1", "\"max_concurrency\": 4");

		HarnessImport imported = read(InputFile.of("c1.json", first), InputFile.of("c4.json", second));

		JsonNode cells = imported.cellsDocument().path("cells");
		assertThat(cells).hasSize(2);
		assertThat(cells.get(0).at("/params/concurrency").intValue()).isEqualTo(4);
		assertThat(cells.get(0).path("order").intValue()).isEqualTo(1);
		assertThat(cells.get(1).path("order").intValue()).isEqualTo(2);
	}

	@Test
	void rejectsTwoFilesItCannotTellApart() {
		String result = "{\"num_prompts\": 4, \"request_rate\": \"inf\", \"completed\": 4, \"failed\": 0,"
				+ " \"median_ttft_ms\": 20.0}";

		assertThatThrownBy(() -> read(InputFile.of("a.json", result), InputFile.of("b.json", result)))
			.isInstanceOf(ImportRejected.class)
			.hasMessageContaining("a.json and b.json")
			.hasMessageContaining("same params");
	}

	@Test
	void rejectsTruncatedJsonNamingTheFileAndLine() {
		String text = new String(Samples.shared("vllm-bench-sweep-run.json").content(), StandardCharsets.UTF_8);
		InputFile truncated = InputFile.of("run=0.json", text.substring(0, text.indexOf("\"mean_tpot_ms\"")));

		assertThatThrownBy(() -> read(truncated)).isInstanceOf(ImportRejected.class)
			.hasMessageStartingWith("run=0.json: not valid JSON: unexpected end of input at line");
	}

	@Test
	void producesDocumentsTheRunModelReads() {
		RunDocument document = ImportedDocuments.read(read(Samples.shared("vllm-bench-serve-detailed.json")));

		assertThat(document.cells().get(0).metric("ttft_s").orElseThrow().median().getAsDouble()).isCloseTo(1.153111,
				within(1e-6));
		assertThat(document.cells().get(0).samples()).hasSize(50);
		ImportedDocuments.read(read(Samples.shared("vllm-bench-serve-all-failed.json")));
		ImportedDocuments.read(read(Samples.own("vllm-bench-serve-partial-failure.json")));
	}

	@Test
	void appendedResultsAreOneCellPerDistinctParams() {
		// nerdalert/vllm-benchmark-graphs results.json: 12 lines appended, the rates 1,
		// 10, 20, 30, 35 and inf
		// against "framework": "vllm", then again against "sgl"; no "failed" key;
		// "request_goodput:"; the
		// unlimited rate as the string "inf".
		HarnessImport imported = read(Samples.own("vllm/benchmark_serving-append-result-two-sweeps.json"));
		JsonNode cells = imported.cellsDocument().path("cells");

		assertThat(cells).hasSize(12);
		assertThat(cells.valueStream()
			.map(cell -> cell.at("/params/framework").asString() + " " + cell.at("/params/request_rate").asString()))
			.containsExactly("vllm 1", "vllm 10", "vllm 20", "vllm 30", "vllm 35", "vllm inf", "sgl 1", "sgl 10",
					"sgl 20", "sgl 30", "sgl 35", "sgl inf");
		// At rate inf each sweep sent 2000 prompts and completed 1015: 985 failed.
		JsonNode unlimited = cells.get(5);
		assertThat(unlimited.at("/requests/completed").intValue()).isEqualTo(1015);
		assertThat(unlimited.at("/requests/failed").intValue()).isEqualTo(985);
		assertThat(cells.get(11).at("/requests/failed").intValue()).isEqualTo(985);
		JsonNode slowest = cells.get(0);
		assertThat(slowest.at("/requests/completed").intValue()).isEqualTo(120);
		assertThat(slowest.at("/requests/failed").intValue()).isZero();
		// mean_ttft_ms 45.037437366166465.
		assertThat(slowest.at("/metrics/ttft_s/mean").doubleValue()).isCloseTo(0.045037437, within(1e-9));
		assertThat(imported.notes()).anyMatch(note -> note
			.contains("line 6: vLLM wrote no failed count: failed =" + " num_prompts − completed = 2000 − 1015 = 985"));
		assertThat(imported.notes()).anyMatch(note -> note.contains("grid params: framework"));
		assertThat(imported.cellsDocument().at("/model/repo").asString()).isEqualTo("meta-llama/Llama-3.1-8B-Instruct");
		ImportedDocuments.read(imported);
	}

	@Test
	void metadataThatDiffersBetweenAppendedResultsIsAGridParam() {
		// nerdalert/vllm-bench-automation: three deployments (--metadata deployment=…) ×
		// rates 10, 30, inf.
		HarnessImport imported = read(Samples.own("vllm/benchmark_serving-metadata-deployments.json"));
		JsonNode cells = imported.cellsDocument().path("cells");

		assertThat(cells).hasSize(9);
		assertThat(cells.valueStream().map(cell -> cell.at("/params/deployment").asString()).distinct())
			.containsExactlyInAnyOrder("no-features", "base", "kvcache");
		assertThat(cells).allMatch(cell -> !cell.at("/params").has("gpu") && !cell.at("/params").has("model"));
		assertThat(cells).allMatch(cell -> cell.at("/requests/failed").intValue() == 0);
		assertThat(imported.notes()).anyMatch(note -> note.contains("grid params: deployment"));
	}

	@Test
	void noFailedKeyAndNothingCompletedMeansEveryPromptFailed() {
		// SemiAnalysisAI/InferenceX: num_prompts 640, completed 0, every latency 0.0, no
		// "failed" key.
		HarnessImport imported = read(Samples.own("vllm/bench_serving-completed-0-of-640.json"));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/requests/completed").intValue()).isZero();
		assertThat(cell.at("/requests/failed").intValue()).isEqualTo(640);
		assertThat(cell.path("metrics").isEmpty()).isTrue();
		assertThat(cell.at("/params/concurrency").intValue()).isEqualTo(64);
		assertThat(imported.notes())
			.anyMatch(note -> note.contains("failed = num_prompts − completed = 640 − 0 = 640"));
	}

	@Test
	void noFailedKeyAndSomePromptsNotCompletedCountsTheDifference() {
		// llm-d/llm-d-benchmark (May 2025): num_prompts 250, completed 240, rate 2.5,
		// burstiness 50.
		HarnessImport imported = read(Samples.own("vllm/benchmark_serving-240-of-250.json"));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(240);
		assertThat(cell.at("/requests/failed").intValue()).isEqualTo(10);
		assertThat(cell.at("/params/request_rate").doubleValue()).isEqualTo(2.5);
		// median_ttft_ms 1354.1384050622582.
		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(1.354138405, within(1e-9));
		assertThat(imported.notes())
			.anyMatch(note -> note.contains("failed = num_prompts − completed = 250 − 240 = 10"));
	}

	@Test
	void theGoodputKeyWithAColonAndP999AreRead() {
		// SemiAnalysisAI/InferenceX multi-node result: "request_goodput:": null, p99.9_*
		// keys, backend "openai".
		HarnessImport imported = read(Samples.own("vllm/bench_serving-goodput-colon-p99.9.json"));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(160);
		assertThat(cell.at("/requests/failed").intValue()).isZero();
		assertThat(cell.at("/params/concurrency").intValue()).isEqualTo(16);
		assertThat(cell.at("/params/request_rate").asString()).isEqualTo("inf");
		assertThat(cell.at("/metrics/ttft_s/p99.9").doubleValue()).isCloseTo(0.698208118, within(1e-9));
		assertThat(cell.at("/metrics/e2e_latency_s/median").doubleValue()).isCloseTo(9.359918449, within(1e-9));
	}

	@Test
	void aRequestWithNoOutputNoFirstTokenAndNoErrorIsAFailureAndTheStatisticsAreRecomputed() {
		// Synthetic, shaped as vLLM 0.4 wrote it (no real file found): request 3 returned
		// nothing (output_lens 0,
		// ttfts 0.0, errors ""), and vLLM counted it completed and its TTFT of 0 into
		// mean_ttft_ms.
		String result = """
				{"backend": "vllm", "model_id": "m", "num_prompts": 4, "request_rate": "inf", "duration": 2.0,
				 "completed": 4, "total_input_tokens": 40, "total_output_tokens": 30, "request_throughput": 2.0,
				 "output_throughput": 15.0, "mean_ttft_ms": 75.0, "median_ttft_ms": 100.0, "p99_ttft_ms": 199.0,
				 "mean_itl_ms": 10.0, "input_lens": [10, 10, 10, 10], "output_lens": [10, 10, 0, 10],
				 "ttfts": [0.1, 0.2, 0.0, 0.0], "itls": [[0.01], [0.01], [], [0.01]],
				 "generated_texts": ["a", "b", "", "c"], "errors": ["", "", "", ""]}""";

		HarnessImport imported = read(InputFile.of("old.json", result));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(3);
		assertThat(cell.at("/requests/failed").intValue()).isEqualTo(1);
		assertThat(cell.path("samples").get(2).path("status").asString()).isEqualTo("failed");
		// TTFTs of the successful requests: 0.1, 0.2 and (written as 0.0, so absent)
		// request 4.
		assertThat(cell.at("/metrics/ttft_s/mean").doubleValue()).isCloseTo(0.15, within(1e-9));
		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(0.15, within(1e-9));
		assertThat(cell.at("/metrics/request_throughput").doubleValue()).isCloseTo(1.5, within(1e-9));
		assertThat(imported.notes())
			.anyMatch(note -> note.contains("(#3) returned no output, no first token and no" + " error: failed"));
		assertThat(imported.notes()).anyMatch(note -> note.contains("recomputed from the successful requests"));
	}

	@Test
	void aRequestRateOfABillionIsUnlimited() {
		String result = "{\"num_prompts\": 4, \"request_rate\": 1e9, \"completed\": 4, \"burstiness\": 1.0,"
				+ " \"median_ttft_ms\": 20.0}";

		HarnessImport imported = read(InputFile.of("a.json", result));

		assertThat(imported.cellsDocument().at("/cells/0/params/request_rate").asString()).isEqualTo("inf");
		assertThat(imported.cellsDocument().at("/cells/0/requests/failed").intValue()).isZero();
		assertThat(imported.notes()).anyMatch(note -> note.contains("read as inf"));
	}

}
