package dev.parity.ingest.harness;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class AiperfProfileExportTests {

	private static HarnessImport read(List<InputFile> files) {
		return HarnessImporters.read(HarnessFormat.AIPERF, files, null);
	}

	@Test
	void metricObjectsBecomeCatalogueStatisticsInCatalogueUnits() {
		HarnessImport imported = read(List.of(Samples.shared("aiperf-profile-export.json")));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/params/concurrency").intValue()).isEqualTo(2);
		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(96);
		// error_summary is empty: none failed, none cancelled.
		assertThat(cell.at("/requests/failed").intValue()).isZero();
		assertThat(cell.at("/requests/cancelled").intValue()).isZero();
		// time_to_first_token in ms: avg 154.264…, p50 136.486…, p99 292.497…
		assertThat(cell.at("/metrics/ttft_s/mean").doubleValue()).isCloseTo(0.154264, within(1e-6));
		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(0.136486, within(1e-6));
		assertThat(cell.at("/metrics/ttft_s/p99").doubleValue()).isCloseTo(0.292497, within(1e-6));
		assertThat(cell.at("/metrics/ttft_s").has("p50")).isFalse();
		// AIPerf's inter token latency is (latency − TTFT) / (output − 1): the
		// catalogue's TPOT.
		assertThat(cell.at("/metrics/tpot_ms/median").doubleValue()).isCloseTo(5.566365, within(1e-6));
		assertThat(cell.at("/metrics/itl_ms/median").doubleValue()).isCloseTo(5.415599, within(1e-6));
		assertThat(cell.at("/metrics/decode_tps/median").doubleValue()).isCloseTo(179.650458, within(1e-6));
		assertThat(cell.at("/metrics/prefill_tps/median").doubleValue()).isCloseTo(14317.318410, within(1e-6));
		assertThat(cell.at("/metrics/e2e_latency_s/median").doubleValue()).isCloseTo(1.560044, within(1e-6));
		assertThat(cell.at("/metrics/throughput_tps").doubleValue()).isCloseTo(324.314246, within(1e-6));
		assertThat(cell.at("/metrics/request_throughput").doubleValue()).isCloseTo(0.746050, within(1e-6));
		assertThat(cell.at("/output_tokens/median").doubleValue()).isEqualTo(256.5);
		assertThat(cell.at("/output_tokens/max").doubleValue()).isEqualTo(1854);
		// Only catalogue metrics: no http_req_*, no osl_mismatch_*.
		assertThat(cell.path("metrics").propertyNames())
			.allMatch(name -> MetricUnit.ofCatalogueMetric(name).isPresent());

		JsonNode document = imported.cellsDocument();
		assertThat(document.at("/harness/name").asString()).isEqualTo("aiperf");
		assertThat(document.at("/harness/version").asString()).isEqualTo("0.10.0");
		assertThat(document.at("/harness/command").asString()).startsWith("aiperf profile --model 'qwen3.6-nvfp4'");
		assertThat(document.at("/workload/warmup_requests").intValue()).isEqualTo(16);
		// The served name is no repository and the start time has no zone: both left to
		// the uploader.
		assertThat(document.has("model")).isFalse();
		assertThat(document.has("recorded_at")).isFalse();
		assertThat(imported.notes()).anyMatch(note -> note.contains("'qwen3.6-nvfp4'"));
		ImportedDocuments.read(imported);
	}

	@Test
	void olderSummaryUnderRecordsWithItsPerRequestRecordsAsSamples() {
		HarnessImport imported = read(Samples.ownFolder("aiperf-0.1"));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/params/concurrency").intValue()).isEqualTo(4);
		assertThat(cell.at("/params/prompt_tokens").intValue()).isEqualTo(512);
		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(5);
		assertThat(cell.at("/requests/failed").intValue()).isEqualTo(1);
		assertThat(cell.at("/requests/cancelled").intValue()).isEqualTo(2);
		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(0.18, within(1e-9));
		assertThat(cell.at("/reasoning_tokens/max").intValue()).isEqualTo(120);
		List<String> statuses = cell.path("samples")
			.valueStream()
			.map(sample -> sample.path("status").asString())
			.toList();
		assertThat(statuses).containsExactly("ok", "cancelled", "ok", "failed", "ok", "cancelled", "ok", "ok");
		assertThat(imported.countReadings()).isEmpty();
		JsonNode document = imported.cellsDocument();
		assertThat(document.at("/model/repo").asString()).isEqualTo("meta-llama/Llama-3.1-8B-Instruct");
		assertThat(document.at("/workload/output_tokens").intValue()).isEqualTo(128);
		assertThat(document.at("/workload/warmup_requests").intValue()).isEqualTo(2);
		assertThat(imported.notes())
			.anyMatch(note -> note.contains("skipped") && note.contains("profile_export_aiperf.csv"));
		assertThat(imported.notes()).anyMatch(note -> note.contains("--request-cancellation-rate"));
		ImportedDocuments.read(imported);
	}

	/**
	 * The real summary sample (request_count 96, an empty error_summary) edited in
	 * memory, as no public profile_export_aiperf.json without an error_summary was found:
	 * the error_summary removed and an error_request_count of the given average added.
	 */
	private static InputFile withoutErrorSummary(double errored, boolean requestCount) {
		InputFile sample = Samples.shared("aiperf-profile-export.json");
		ObjectNode summary = (ObjectNode) HarnessJson.parse(sample.name(), sample.content());
		summary.remove("error_summary");
		summary.putObject("error_request_count").put("unit", "requests").put("avg", errored);
		if (!requestCount) {
			summary.remove("request_count");
		}
		return InputFile.of("profile_export_aiperf.json", summary.toString());
	}

	@Test
	void erroredRequestsWithoutAnErrorSummaryCountAsFailed() {
		HarnessImport imported = read(List.of(withoutErrorSummary(4, true)));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(96);
		assertThat(cell.at("/requests/failed").intValue()).isEqualTo(4);
		// AIPerf counts its cancellations (HTTP 499) among the errors too: which of the 4
		// were is not known.
		assertThat(cell.at("/requests/cancelled").isNull()).isTrue();
		assertThat(imported.notes())
			.anyMatch(note -> note.contains("4 errored requests (error_request_count) without an"
					+ " error_summary to tell failed from cancelled: counted as failed, cancelled unknown"));
		ImportedDocuments.read(imported);
	}

	@Test
	void noErroredRequestsWithoutAnErrorSummaryIsNoneFailedNoneCancelled() {
		JsonNode cell = read(List.of(withoutErrorSummary(0, true))).cellsDocument().path("cells").get(0);

		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(96);
		assertThat(cell.at("/requests/failed").intValue()).isZero();
		assertThat(cell.at("/requests/cancelled").intValue()).isZero();
	}

	@Test
	void onlyErroredRequestsWithoutARequestCountIsNoneCompleted() {
		// AIPerf's JSON of a run whose every request erred holds error_request_count and
		// no request_count.
		HarnessImport imported = read(List.of(withoutErrorSummary(5, false)));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/requests/completed").intValue()).isZero();
		assertThat(cell.at("/requests/failed").intValue()).isEqualTo(5);
		assertThat(imported.notes()).anyMatch(note -> note.contains("no request_count beside 5 errored requests"));
	}

}
