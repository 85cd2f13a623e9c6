package dev.parity.ingest.harness;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class InferencePerfTests {

	private static List<InputFile> stages() {
		return Samples.ownFolder("inference-perf").stream().filter(file -> file.name().startsWith("stages/")).toList();
	}

	@Test
	void oneCellPerStageCountedBySuccessesAndFailures() {
		List<InputFile> files = Samples.ownFolder("inference-perf");
		Detection detection = FormatDetector.detect(files);
		assertThat(detection.format()).as(detection.explanation()).isEqualTo(HarnessFormat.INFERENCE_PERF);

		HarnessImport imported = HarnessImporters.read(HarnessFormat.INFERENCE_PERF, files, null);
		JsonNode cells = imported.cellsDocument().path("cells");

		// 7 stages; the summary beside them is skipped, the Prometheus report too.
		assertThat(cells).hasSize(7);
		JsonNode first = cells.get(0);
		// stage 0: requested_rate 1.0, load_summary count 60, successes 60, failures 0
		assertThat(first.at("/params/request_rate").doubleValue()).isEqualTo(1.0);
		assertThat(first.path("order").intValue()).isEqualTo(1);
		assertThat(first.at("/requests/completed").intValue()).isEqualTo(60);
		assertThat(first.at("/requests/failed").intValue()).isZero();
		assertThat(first.at("/requests/cancelled").intValue()).isZero();
		// time_to_first_token median 0.032918093027547 s; time_per_output_token median
		// 0.0034682437246881946 s
		assertThat(first.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(0.032918093027547, within(1e-15));
		assertThat(first.at("/metrics/tpot_ms/median").doubleValue()).isCloseTo(3.4682437246881946, within(1e-12));
		assertThat(first.at("/metrics/ttft_s/p99.9").doubleValue()).isCloseTo(0.042598067724495196, within(1e-15));
		assertThat(first.at("/metrics/ttft_s").has("p0.1")).isFalse();
		// request_latency median 0.4824237964930944 s
		assertThat(first.at("/metrics/e2e_latency_s/median").doubleValue()).isCloseTo(0.4824237964930944,
				within(1e-15));
		// throughput: output_tokens_per_sec 62.15363932698074, requests_per_sec
		// 0.996850670841712
		assertThat(first.at("/metrics/throughput_tps").doubleValue()).isCloseTo(62.15363932698074, within(1e-12));
		assertThat(first.at("/metrics/request_throughput").doubleValue()).isCloseTo(0.996850670841712, within(1e-12));
		// output_len median 65.0, max 66.0
		assertThat(first.at("/output_tokens/median").doubleValue()).isEqualTo(65);
		assertThat(first.at("/output_tokens/max").doubleValue()).isEqualTo(66);
		// stage 6: requested 222.83, 13369 sent and succeeded
		JsonNode last = cells.get(6);
		assertThat(last.at("/params/request_rate").doubleValue()).isEqualTo(222.83);
		assertThat(last.at("/requests/completed").intValue()).isEqualTo(13369);
		assertThat(imported.notes()).anyMatch(note -> note.contains("summary_lifecycle_metrics.json skipped"))
			.anyMatch(note -> note.contains("stage_0_prometheus_metrics.json"))
			.anyMatch(note -> note.contains("requested 222.83 requests/s, achieved 116.32"));
		assertThat(imported.cellsDocument().at("/harness/name").asString()).isEqualTo("inference-perf");
		ImportedDocuments.read(imported);
	}

	@Test
	void theSummaryAloneIsOneCell() {
		InputFile summary = Samples.own("inference-perf/summary_lifecycle_metrics.json");

		HarnessImport imported = HarnessImporters.read(FormatDetector.detect(List.of(summary)).format(),
				List.of(summary), null);
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		// load_summary count 47002, successes 47002, failures 0
		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(47002);
		assertThat(cell.at("/requests/failed").intValue()).isZero();
		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(2.106196197506506, within(1e-15));
		ImportedDocuments.read(imported);
	}

	@Test
	void failuresAreTheFailedCount() {
		List<InputFile> files = new ArrayList<>(stages());
		InputFile stage0 = files.get(0);
		// Stage 0 as if 5 of its 60 requests had failed: successes 55, failures 5.
		String text = new String(stage0.content(), StandardCharsets.UTF_8)
			.replace("\"successes\": {\"count\": 60,", "\"successes\": {\"count\": 55,")
			.replace("\"failures\": {\"count\": 0,", "\"failures\": {\"count\": 5,");
		files.set(0, new InputFile(stage0.name(), text.getBytes(StandardCharsets.UTF_8)));

		JsonNode cell = HarnessImporters.read(HarnessFormat.INFERENCE_PERF, files, null)
			.cellsDocument()
			.path("cells")
			.get(0);

		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(55);
		assertThat(cell.at("/requests/failed").intValue()).isEqualTo(5);
		assertThat(cell.at("/requests/cancelled").intValue()).isZero();
	}

}
