package dev.parity.ingest.harness;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class GuidellmReportTests {

	private static HarnessImport read(InputFile file) {
		return HarnessImporters.read(HarnessFormat.GUIDELLM, List.of(file), null);
	}

	@Test
	void countsComeFromTheRequestListsAndTheOtherReadingsAreShown() {
		HarnessImport imported = read(Samples.shared("guidellm-report.json"));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/params/concurrency").intValue()).isEqualTo(1);
		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(23);
		assertThat(cell.at("/requests/failed").intValue()).isZero();
		assertThat(cell.at("/requests/cancelled").intValue()).isEqualTo(1);
		assertThat(imported.countReadings()).extracting(CountReading::source, CountReading::completed,
				CountReading::failed, CountReading::cancelled, CountReading::chosen)
			.containsExactly(
					org.assertj.core.groups.Tuple.tuple("request lists (successful / errored / incomplete)", 23, 0, 1,
							true),
					org.assertj.core.groups.Tuple.tuple("scheduler (requests made)", 23, 0, 2, false),
					org.assertj.core.groups.Tuple.tuple("measured window (metrics.request_totals)", 19, 0, 0, false));
		assertThat(imported.notes()).anyMatch(note -> note.contains("counts from the request lists (23 successful")
				&& note.contains("measured window says 19/0/0"));
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
		assertThat(concurrent.path("samples").valueStream()
			.filter(sample -> sample.path("status").asString().equals("failed"))).hasSize(2);
		JsonNode constant = cells.get(1);
		assertThat(constant.at("/params/request_rate").doubleValue()).isEqualTo(2.0);
		assertThat(constant.at("/requests/cancelled").intValue()).isEqualTo(1);
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

}
