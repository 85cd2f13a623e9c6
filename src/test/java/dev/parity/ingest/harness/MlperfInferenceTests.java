package dev.parity.ingest.harness;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class MlperfInferenceTests {

	@Test
	void aLoadgenServerLogIsOneCellAtItsTargetRate() {
		List<InputFile> run = Samples.ownFolder("mlperf/loadgen-llama2-70b-server");
		assertThat(FormatDetector.detect(run).format()).isEqualTo(HarnessFormat.MLPERF);

		HarnessImport imported = HarnessImporters.read(HarnessFormat.MLPERF, run, null);
		JsonNode cells = imported.cellsDocument().path("cells");
		assertThat(cells).hasSize(1);
		JsonNode cell = cells.get(0);
		// effective_target_qps 83.5; result_query_count 73728 with one sample per query;
		// no failed count.
		assertThat(cell.at("/params/request_rate").doubleValue()).isEqualTo(83.5);
		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(73728);
		assertThat(cell.at("/requests/failed").isNull()).isTrue();
		assertThat(cell.at("/requests/cancelled").isNull()).isTrue();
		// result_first_token_50.00_percentile_latency_ns 875073063, …_99.90_… 2562462764,
		// mean 918456323.
		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(0.875073063, within(1e-12));
		assertThat(cell.at("/metrics/ttft_s/p99.9").doubleValue()).isCloseTo(2.562462764, within(1e-12));
		assertThat(cell.at("/metrics/ttft_s/mean").doubleValue()).isCloseTo(0.918456323, within(1e-12));
		assertThat(cell.at("/metrics/ttft_s/min").doubleValue()).isCloseTo(0.037578735, within(1e-12));
		// result_time_per_output_token_97.00_percentile_ns 175094669;
		// result_time_to_output_token_mean 144594078.
		assertThat(cell.at("/metrics/tpot_ms/p97").doubleValue()).isCloseTo(175.094669, within(1e-9));
		assertThat(cell.at("/metrics/tpot_ms/mean").doubleValue()).isCloseTo(144.594078, within(1e-9));
		assertThat(cell.at("/metrics/tpot_ms/median").doubleValue()).isCloseTo(151.044504, within(1e-9));
		assertThat(cell.at("/metrics/e2e_latency_s/median").doubleValue()).isCloseTo(38.401775522, within(1e-12));
		assertThat(cell.at("/metrics/e2e_latency_s/max").doubleValue()).isCloseTo(165.05712734, within(1e-9));
		assertThat(cell.at("/metrics/throughput_tps").doubleValue()).isEqualTo(24593.8);
		assertThat(cell.at("/metrics/request_throughput").doubleValue()).isEqualTo(81.6768);
		JsonNode document = imported.cellsDocument();
		assertThat(document.at("/recorded_at").asString()).isEqualTo("2025-07-31T09:26:03Z");
		assertThat(document.at("/harness/name").asString()).isEqualTo("mlperf-loadgen");
		assertThat(document.at("/harness/version").asString()).isEqualTo("5.1.0 @ 091d51f041");
		assertThat(imported.notes()).anyMatch(note -> note.contains("LoadGen judged the run VALID"))
			.anyMatch(note -> note.contains("result_token_throughput (6.90935E-9) is not a throughput")
					|| note.contains("result_token_throughput (6.90935e-09) is not a throughput"))
			.anyMatch(note -> note.contains("failed and cancelled are unknown"))
			.anyMatch(note -> note.contains("TTFT 2.0 s, TPOT 200.0 ms"));
		ImportedDocuments.read(imported);
	}

	@Test
	void anEndpointsResultSummaryIsOneCellWithItsCountsAndLoadPattern() {
		InputFile summary = Samples.own("mlperf/endpoints-deepseek-r1-server/result_summary.json");
		assertThat(FormatDetector.detect(List.of(summary)).format()).isEqualTo(HarnessFormat.MLPERF);

		HarnessImport imported = HarnessImporters.read(HarnessFormat.MLPERF, List.of(summary), null);
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		// run_config.load_pattern: poisson at target_qps 325.0; 600000 issued, 600000
		// completed, 0 failed.
		assertThat(cell.at("/params/request_rate").intValue()).isEqualTo(325);
		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(600000);
		assertThat(cell.at("/requests/failed").intValue()).isZero();
		assertThat(cell.at("/requests/cancelled").intValue()).isZero();
		// ttft median 205515887.0 ns, percentiles "99.9" 1874304916.0 ns, avg
		// 212027041.10530335 ns.
		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(0.205515887, within(1e-12));
		assertThat(cell.at("/metrics/ttft_s/p99.9").doubleValue()).isCloseTo(1.874304916, within(1e-12));
		assertThat(cell.at("/metrics/ttft_s/mean").doubleValue()).isCloseTo(0.21202704110530335, within(1e-12));
		assertThat(cell.at("/metrics/ttft_s/p1").doubleValue()).isCloseTo(0.133570788, within(1e-12));
		// tpot median 41105023.54525507 ns is 41.105… ms.
		assertThat(cell.at("/metrics/tpot_ms/median").doubleValue()).isCloseTo(41.10502354525507, within(1e-9));
		assertThat(cell.at("/metrics/e2e_latency_s/p99").doubleValue()).isCloseTo(784.83762076, within(1e-9));
		assertThat(cell.at("/output_tokens/median").intValue()).isEqualTo(2114);
		assertThat(cell.at("/output_tokens/max").intValue()).isEqualTo(20044);
		assertThat(cell.at("/metrics/throughput_tps").doubleValue()).isEqualTo(1175890.2208168241);
		assertThat(cell.at("/metrics/request_throughput").doubleValue()).isEqualTo(310.0842360889801);
		JsonNode document = imported.cellsDocument();
		assertThat(document.at("/workload/warmup_requests").intValue()).isZero();
		// test_started_at is 0 in the file: no time to take.
		assertThat(document.has("recorded_at")).isFalse();
		assertThat(imported.notes()).anyMatch(note -> note.contains("over LoadGen's window (1935 s of 2319 s)"));
		ImportedDocuments.read(imported);
	}

	@Test
	void refusesScenariosAndModesThatAreNotCells() {
		String offline = log("Offline", "PerformanceOnly", true);
		assertThatThrownBy(() -> HarnessImporters.read(HarnessFormat.MLPERF,
				List.of(InputFile.of("mlperf_log_detail.txt", offline)), null))
			.isInstanceOf(ImportRejected.class)
			.hasMessageContaining("the Offline scenario has no arrival rate");
		String accuracy = log("Server", "AccuracyOnly", true);
		assertThatThrownBy(() -> HarnessImporters.read(HarnessFormat.MLPERF,
				List.of(InputFile.of("mlperf_log_detail.txt", accuracy)), null))
			.isInstanceOf(ImportRejected.class)
			.hasMessageContaining("a AccuracyOnly run");
		String unfinished = log("Server", "PerformanceOnly", false);
		assertThatThrownBy(() -> HarnessImporters.read(HarnessFormat.MLPERF,
				List.of(InputFile.of("mlperf_log_detail.txt", unfinished)), null))
			.isInstanceOf(ImportRejected.class)
			.hasMessageContaining("the run did not finish");
	}

	private static String log(String scenario, String mode, boolean finished) {
		return ":::MLLOG {\"key\": \"effective_scenario\", \"value\": \"" + scenario + "\"}\n"
				+ ":::MLLOG {\"key\": \"effective_test_mode\", \"value\": \"" + mode + "\"}\n"
				+ ":::MLLOG {\"key\": \"effective_target_qps\", \"value\": 2}\n"
				+ (finished ? ":::MLLOG {\"key\": \"result_validity\", \"value\": \"VALID\"}\n" : "");
	}

}
