package dev.parity.ingest.harness;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

class GuidellmReportTests {

	private static HarnessImport read(InputFile file) {
		return HarnessImporters.read(HarnessFormat.GUIDELLM, List.of(file), null);
	}

	@Test
	void countsComeFromTheReportTotalsAndTheOtherReadingsAreShown() {
		HarnessImport imported = read(Samples.shared("guidellm-report.json"));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		// metrics.request_totals: 19 successful, 0 errored, 0 incomplete; the scheduler
		// made 23/0/2; the
		// report stores 23 successful and 1 incomplete request.
		assertThat(cell.at("/params/concurrency").intValue()).isEqualTo(1);
		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(19);
		assertThat(cell.at("/requests/failed").intValue()).isZero();
		assertThat(cell.at("/requests/cancelled").intValue()).isZero();
		assertThat(imported.countReadings())
			.extracting(CountReading::source, CountReading::completed, CountReading::failed, CountReading::cancelled,
					CountReading::chosen)
			.containsExactly(tuple("report totals (request_totals)", 19, 0, 0, true),
					tuple("scheduler (requests made)", 23, 0, 2, false),
					tuple("stored requests (a sample: successful / errored / incomplete)", 23, 0, 1, false));
		assertThat(imported.notes())
			.anyMatch(note -> note.contains("counts from its totals (request_totals)") && note.contains("19 successful")
					&& note.contains("scheduler says 23/0/2") && note.contains("stored requests says 23/0/1"));
	}

	@Test
	void aReportOfGuidellm03CountsItsTotalsNotTheOneRequestItStores() {
		// vllm-project/guidellm v0.3.0,
		// tests/unit/entrypoints/assets/benchmarks_stripped.json: request_totals
		// 46 successful + 1 incomplete, run_stats.requests_made 1/0/0, one stored
		// request.
		HarnessImport imported = read(Samples.own("guidellm/guidellm-0.3.0-benchmarks_stripped.json"));
		JsonNode cells = imported.cellsDocument().path("cells");

		assertThat(cells).hasSize(1);
		JsonNode cell = cells.get(0);
		assertThat(cell.at("/params/concurrency").intValue()).isEqualTo(1);
		assertThat(cell.at("/params/prompt_tokens").intValue()).isEqualTo(256);
		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(46);
		assertThat(cell.at("/requests/failed").intValue()).isZero();
		assertThat(cell.at("/requests/cancelled").intValue()).isEqualTo(1);
		// time_to_first_token_ms.successful: median 16.38054847717285, p99
		// 21.281957626342773 (ms).
		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(0.016380548, within(1e-9));
		assertThat(cell.at("/metrics/ttft_s/p99").doubleValue()).isCloseTo(0.021281958, within(1e-9));
		assertThat(cell.path("samples")).hasSize(1);
		assertThat(imported.notes()).anyMatch(note -> note.contains("'example_model' (model)"));
		assertThat(imported.countReadings())
			.extracting(CountReading::source, CountReading::completed, CountReading::chosen)
			.containsExactly(tuple("report totals (request_totals)", 46, true),
					tuple("scheduler (requests made)", 1, false),
					tuple("stored requests (a sample: successful / errored / incomplete)", 1, false));
		ImportedDocuments.read(imported);
	}

	@Test
	void theV2ReportOfGuidellm08CountsItsTotalsThoughItStoresNoRequest() {
		// llm-d/llm-d-benchmark tests/fixtures/guidellm_report_v2.json (guidellm
		// 0.8.0.dev18, metadata version 2):
		// two constant-rate benchmarks (2 and 4 req/s), request_totals 2/0/0 each, no
		// stored request.
		HarnessImport imported = read(Samples.own("guidellm/guidellm-0.8.0.dev18-v2-report.json"));
		JsonNode cells = imported.cellsDocument().path("cells");

		assertThat(cells).hasSize(2);
		assertThat(cells.get(0).at("/params/request_rate").doubleValue()).isEqualTo(2.0);
		assertThat(cells.get(1).at("/params/request_rate").doubleValue()).isEqualTo(4.0);
		for (JsonNode cell : cells) {
			assertThat(cell.at("/requests/completed").intValue()).isEqualTo(2);
			assertThat(cell.at("/requests/failed").intValue()).isZero();
			assertThat(cell.at("/requests/cancelled").intValue()).isZero();
			assertThat(cell.has("samples")).isFalse();
		}
		// time_to_first_token_ms.successful.median 11.276006698608398 and
		// 9.419918060302734 (ms).
		assertThat(cells.get(0).at("/metrics/ttft_s/median").doubleValue()).isCloseTo(0.011276007, within(1e-9));
		assertThat(cells.get(1).at("/metrics/ttft_s/median").doubleValue()).isCloseTo(0.009419918, within(1e-9));
		assertThat(imported.cellsDocument().at("/harness/version").asString()).isEqualTo("0.8.0.dev18");
		assertThat(imported.notes()).anyMatch(note -> note.contains("'e2e-mock-model'"));
		ImportedDocuments.read(imported);
	}

	@Test
	void theYamlReportReadsAsItsJsonTwin() {
		HarnessImport json = read(Samples.own("guidellm/guidellm-0.3.0-benchmarks_stripped.json"));
		HarnessImport yaml = read(Samples.own("guidellm/guidellm-0.3.0-benchmarks_stripped.yaml"));

		JsonNode cell = yaml.cellsDocument().path("cells").get(0);
		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(46);
		assertThat(cell.at("/requests/cancelled").intValue()).isEqualTo(1);
		assertThat(cell.path("metrics")).isEqualTo(json.cellsDocument().path("cells").get(0).path("metrics"));
		assertThat(FormatDetector.detect(List.of(Samples.own("guidellm/guidellm-0.3.0-benchmarks_stripped.yaml")))
			.format()).isEqualTo(HarnessFormat.GUIDELLM);
	}

	@Test
	void aYamlReportWrittenByAUserOfGuidellm02() {
		// rh-aiservices-bu/guidellm-pipeline: request_totals 14 successful, 1 incomplete;
		// synchronous; TTFT
		// median 410.4878902435303 ms; emulated data of 512 prompt tokens.
		HarnessImport imported = read(Samples.own("guidellm/guidellm-0.2-benchmark-results.yaml"));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/params/concurrency").intValue()).isEqualTo(1);
		assertThat(cell.at("/params/prompt_tokens").intValue()).isEqualTo(512);
		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(14);
		assertThat(cell.at("/requests/cancelled").intValue()).isEqualTo(1);
		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(0.41048789, within(1e-8));
		assertThat(cell.at("/metrics/ttft_s/p99").doubleValue()).isCloseTo(0.46003985, within(1e-8));
		assertThat(cell.at("/metrics/e2e_latency_s/median").doubleValue()).isCloseTo(3.90811491, within(1e-8));
		assertThat(imported.notes()).anyMatch(note -> note.contains("'llama-3-2-3b' (model)"));
		ImportedDocuments.read(imported);
	}

	@Test
	void anEarlierReportWithOnlyTheSuccessfulListStillCountsItsTotals() {
		// vllm-project/guidellm 379c64fd: the stored requests hold only a "successful"
		// list of one request.
		HarnessImport imported = read(Samples.own("guidellm/guidellm-0.2-main-benchmarks_stripped.json"));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(46);
		assertThat(cell.at("/requests/failed").intValue()).isZero();
		assertThat(cell.at("/requests/cancelled").intValue()).isEqualTo(1);
	}

	@Test
	void metricsAreGuidellmsOverTheMeasuredWindowAndEveryRequestIsASample() {
		HarnessImport imported = read(Samples.shared("guidellm-report.json"));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(0.058101, within(1e-6));
		assertThat(cell.at("/metrics/ttft_s/mean").doubleValue()).isCloseTo(0.059993, within(1e-6));
		assertThat(cell.at("/metrics/ttft_s/p99").doubleValue()).isCloseTo(0.072798, within(1e-6));
		assertThat(cell.at("/metrics/ttft_s/p99.9").doubleValue()).isCloseTo(0.072798, within(1e-6));
		assertThat(cell.at("/metrics/ttft_s").has("p0.1")).isFalse();
		assertThat(cell.at("/metrics/e2e_latency_s/median").doubleValue()).isCloseTo(40.018130, within(1e-6));
		assertThat(cell.at("/metrics/tpot_ms/median").doubleValue()).isCloseTo(39.079260, within(1e-6));
		assertThat(cell.at("/metrics/itl_ms/median").doubleValue()).isCloseTo(39.060666, within(1e-6));
		assertThat(cell.at("/metrics/throughput_tps").doubleValue()).isCloseTo(25.859765, within(1e-6));
		assertThat(cell.at("/output_tokens/median").intValue()).isEqualTo(1024);
		JsonNode samples = cell.path("samples");
		assertThat(samples).hasSize(24);
		assertThat(samples.get(23).path("status").asString()).isEqualTo("cancelled");
		assertThat(samples.get(0).path("ttft_s").doubleValue()).isCloseTo(1.243598, within(1e-6));
		JsonNode document = imported.cellsDocument();
		assertThat(document.at("/model/repo").asString()).isEqualTo("Qwen/Qwen3-30B-A3B");
		assertThat(document.at("/harness/version").asString()).isEqualTo("0.5.0.dev0");
		assertThat(document.at("/recorded_at").asString()).startsWith("2026-03-02T");
		assertThat(imported.notes()).anyMatch(note -> note.contains("time limit"));
		ImportedDocuments.read(imported);
	}

	@Test
	void errorsAndStrategiesOfAnotherReport() {
		HarnessImport imported = read(Samples.own("guidellm-errors.json"));
		JsonNode cells = imported.cellsDocument().path("cells");

		assertThat(cells).hasSize(2);
		JsonNode concurrent = cells.get(0);
		assertThat(concurrent.at("/params/concurrency").intValue()).isEqualTo(4);
		assertThat(concurrent.at("/params/prompt_tokens").intValue()).isEqualTo(256);
		assertThat(concurrent.at("/requests/failed").intValue()).isEqualTo(2);
		assertThat(concurrent.path("samples")
			.valueStream()
			.filter(sample -> sample.path("status").asString().equals("failed"))).hasSize(2);
		JsonNode constant = cells.get(1);
		assertThat(constant.at("/params/request_rate").doubleValue()).isEqualTo(2.0);
		// Its totals: 3 successful, none incomplete (the scheduler made 5 and cancelled 1
		// outside them).
		assertThat(constant.at("/requests/completed").intValue()).isEqualTo(3);
		assertThat(constant.at("/requests/cancelled").intValue()).isZero();
		assertThat(constant.path("order").intValue()).isEqualTo(2);
		assertThat(imported.cellsDocument().at("/workload/output_tokens").intValue()).isEqualTo(128);
		assertThat(imported.cellsDocument().at("/workload/dataset").asString()).isEqualTo("synthetic");
		ImportedDocuments.read(imported);
	}

	@Test
	void namesGuidellmPercentilesAsDocumentsDo() {
		assertThat(GuidellmReport.percentile("p01")).isEqualTo("p1");
		assertThat(GuidellmReport.percentile("p05")).isEqualTo("p5");
		assertThat(GuidellmReport.percentile("p95")).isEqualTo("p95");
		assertThat(GuidellmReport.percentile("p999")).isEqualTo("p99.9");
		assertThat(GuidellmReport.percentile("p001")).isNull();
		assertThat(GuidellmReport.percentile("p50")).isNull();
	}

	@Test
	void aDeeplyNestedOrBrokenYamlFileIsNotAReport() {
		InputFile nested = InputFile.of("benchmarks.yaml", "benchmarks: " + "[".repeat(200_000));
		InputFile aliases = InputFile.of("benchmarks.yml", "benchmarks: &a [*a, *a]\nx: : :\n");

		assertThatThrownBy(() -> read(nested)).isInstanceOf(ImportRejected.class);
		assertThatThrownBy(() -> read(aliases)).isInstanceOf(ImportRejected.class);
		assertThat(FormatDetector.detect(List.of(nested)).format()).isNull();
	}

}
