package dev.parity.ingest.harness;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class LlmdBenchmarkReportTests {

	private static final String WIDE_EP = "llm-d/wide-ep/benchmark_report_v0.2,_stage_0_lifecycle_metrics.json.yaml";

	@Test
	void theRealWideEpReportIsRecognisedByItsContentAndReadAsOneCell() {
		InputFile report = Samples.own(WIDE_EP);
		assertThat(FormatDetector.detect(List.of(new InputFile("report.txt", report.content()))).format())
			.isEqualTo(HarnessFormat.LLMD_REPORT);

		HarnessImport imported = HarnessImporters.read(HarnessFormat.LLMD_REPORT, List.of(report), null);
		JsonNode cells = imported.cellsDocument().path("cells");
		assertThat(cells).hasSize(1);
		JsonNode cell = cells.get(0);
		// scenario.load.standardized: concurrency 2048, input_seq_len value
		// 2046.793701171875 (gaussian).
		assertThat(cell.at("/params/concurrency").intValue()).isEqualTo(2048);
		assertThat(cell.at("/params/prompt_tokens").doubleValue()).isEqualTo(2046.793701171875);
		assertThat(cell.path("params").has("request_rate")).isFalse();
		// requests: total 8192, failures 0, no incomplete count.
		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(8192);
		assertThat(cell.at("/requests/failed").intValue()).isZero();
		assertThat(cell.at("/requests/cancelled").isNull()).isTrue();
		// time_to_first_token in s: p50 11.075260647572577, mean 21.29069098684954, p99p9
		// 97.31417823833262.
		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isEqualTo(11.075260647572577);
		assertThat(cell.at("/metrics/ttft_s/mean").doubleValue()).isEqualTo(21.29069098684954);
		assertThat(cell.at("/metrics/ttft_s/p99.9").doubleValue()).isEqualTo(97.31417823833262);
		assertThat(cell.at("/metrics/ttft_s").has("p0.1")).isFalse();
		// time_per_output_token 0.07990098050042406 s/token is 79.90098… ms.
		assertThat(cell.at("/metrics/tpot_ms/median").doubleValue()).isCloseTo(79.90098050042406, within(1e-9));
		assertThat(cell.at("/metrics/itl_ms/max").doubleValue()).isCloseTo(30341.21842868626, within(1e-6));
		assertThat(cell.at("/metrics/e2e_latency_s/median").doubleValue()).isEqualTo(166.57856354676187);
		assertThat(cell.at("/metrics/ntpot_ms/median").doubleValue()).isCloseTo(83.41223422272201, within(1e-9));
		assertThat(cell.at("/metrics/throughput_tps").doubleValue()).isEqualTo(22124.879416240507);
		assertThat(cell.at("/metrics/request_throughput").doubleValue()).isEqualTo(11.034890199531286);
		assertThat(cell.at("/output_tokens/median").intValue()).isEqualTo(2001);
		assertThat(cell.at("/output_tokens/min").intValue()).isEqualTo(7);
		assertThat(cell.at("/output_tokens/max").intValue()).isEqualTo(4065);
		JsonNode document = imported.cellsDocument();
		assertThat(document.at("/harness/name").asString()).isEqualTo("inference-perf");
		assertThat(document.at("/metric_definitions/ntpot_ms/unit").asString()).isEqualTo("ms");
		assertThat(document.has("recorded_at")).isFalse();
		assertThat(imported.notes()).anyMatch(note -> note.contains("rate_qps 8192 beside a concurrency of 2048"))
			.anyMatch(note -> note.contains("gaussian distribution (2016 to 2081 tokens)"))
			.anyMatch(note -> note.contains("cancelled requests are unknown"));
		ImportedDocuments.read(imported);
	}

	@Test
	void inferencePerfPartialsAreCellsToldApartByStageInTheOrderTheyRan() {
		List<InputFile> partials = Samples.ownFolder("llm-d/inference-perf");
		assertThat(FormatDetector.detect(partials).format()).isEqualTo(HarnessFormat.LLMD_REPORT);

		HarnessImport imported = HarnessImporters.read(HarnessFormat.LLMD_REPORT, partials, null);
		JsonNode cells = imported.cellsDocument().path("cells");

		assertThat(cells).hasSize(2);
		JsonNode first = cells.get(0);
		assertThat(first.at("/params/stage").intValue()).isZero();
		assertThat(first.path("order").intValue()).isEqualTo(1);
		assertThat(first.at("/requests/completed").intValue()).isEqualTo(100);
		assertThat(first.at("/metrics/ttft_s/median").doubleValue()).isEqualTo(0.09368429360264469);
		assertThat(first.at("/metrics/ttft_s/std").doubleValue()).isEqualTo(0.03386117071751266);
		assertThat(first.at("/metrics/ntpot_ms/mean").doubleValue()).isCloseTo(12.581771240987437, within(1e-9));
		assertThat(first.at("/metrics/ntpot_ms/median").doubleValue()).isCloseTo(12.594465413524866, within(1e-9));
		assertThat(first.at("/metrics/throughput_tps").doubleValue()).isEqualTo(410.8550916505572);
		assertThat(first.at("/output_tokens/median").doubleValue()).isEqualTo(217.5);
		JsonNode second = cells.get(1);
		assertThat(second.at("/params/stage").intValue()).isEqualTo(1);
		assertThat(second.at("/requests/completed").intValue()).isEqualTo(397);
		assertThat(second.at("/requests/failed").intValue()).isEqualTo(3);
		assertThat(second.at("/metrics/tpot_ms/median").doubleValue()).isCloseTo(15.799543794782826, within(1e-9));
		assertThat(imported.cellsDocument().at("/recorded_at").asString()).isEqualTo("2026-05-20T14:30:12.123Z");
		assertThat(imported.notes()).anyMatch(note -> note.contains("no scenario in the report"));
		ImportedDocuments.read(imported);
	}

	@Test
	void aJsonExportOfTheReportReadsTheSame() {
		String json = """
				{"version": "0.2", "run": {"uid": "x"},
				 "scenario": {"load": {"standardized": {"tool": "guidellm", "tool_version": "0.3.0", "source": "random",
				   "stage": 0, "rate_qps": 4.0, "concurrency": ".inf",
				   "input_seq_len": {"distribution": "fixed", "value": 1024},
				   "output_seq_len": {"distribution": "fixed", "value": 128}}}},
				 "results": {"request_performance": {"aggregate": {
				   "requests": {"total": 40, "failures": 1, "incomplete": 2},
				   "latency": {"time_to_first_token": {"units": "ms", "mean": 210.0, "p50": 200.0}}}}}}
				""";
		HarnessImport imported = HarnessImporters.read(HarnessFormat.LLMD_REPORT,
				List.of(InputFile.of("br.json", json)), null);
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/params/request_rate").intValue()).isEqualTo(4);
		assertThat(cell.at("/params/prompt_tokens").intValue()).isEqualTo(1024);
		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(37);
		assertThat(cell.at("/requests/cancelled").intValue()).isEqualTo(2);
		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isEqualTo(0.2);
		assertThat(cell.at("/metrics/ttft_s/mean").doubleValue()).isEqualTo(0.21);
		assertThat(imported.cellsDocument().at("/workload/output_tokens").intValue()).isEqualTo(128);
		assertThat(imported.cellsDocument().at("/workload/dataset").asString()).isEqualTo("random");
		assertThat(imported.cellsDocument().at("/harness/version").asString()).isEqualTo("0.3.0");
	}

	@Test
	void refusesUnitsItCannotConvertAndBrokenYamlNamingThePlace() {
		String yaml = """
				version: '0.2'
				run: {uid: x}
				results:
				  request_performance:
				    aggregate:
				      requests: {total: 4, failures: 0}
				      latency:
				        time_to_first_token: {units: tokens/s, mean: 1.0}
				""";
		assertThatThrownBy(
				() -> HarnessImporters.read(HarnessFormat.LLMD_REPORT, List.of(InputFile.of("br.yaml", yaml)), null))
			.isInstanceOf(ImportRejected.class)
			.hasMessageContaining("br.yaml: results.request_performance.aggregate.latency.time_to_first_token.units"
					+ " 'tokens/s' is not a time");
		String broken = "version: '0.2'\nresults:\n  request_performance: [\n";
		assertThatThrownBy(() -> HarnessImporters.read(HarnessFormat.LLMD_REPORT,
				List.of(InputFile.of("broken.yaml", broken)), null))
			.isInstanceOf(ImportRejected.class)
			.hasMessageContaining("broken.yaml: not valid YAML");
	}

}
