package dev.parity.ingest.harness;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class AiperfCsvTests {

	private static final InputFile CSV = Samples.own("aiperf/profile_export_aiperf.csv");

	/**
	 * The per-request records of the same AIPerf run (ai-dynamo/aiperf
	 * examples/artifacts/run1).
	 */
	private static final InputFile RECORDS = new InputFile("profile_export.jsonl",
			Samples.shared("aiperf-profile-export.jsonl").content());

	@Test
	void statisticsTableAndSingleValuesBecomeOneCellInCatalogueUnits() {
		Detection detection = FormatDetector.detect(List.of(CSV));
		assertThat(detection.format()).as(detection.explanation()).isEqualTo(HarnessFormat.AIPERF_CSV);

		HarnessImport imported = HarnessImporters.read(HarnessFormat.AIPERF_CSV, List.of(CSV), null);
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		// Time to First Token (ms): avg 2343.22, p50 2369.32, p99 3833.39, std 1049.82
		assertThat(cell.at("/metrics/ttft_s/mean").doubleValue()).isCloseTo(2.34322, within(1e-9));
		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(2.36932, within(1e-9));
		assertThat(cell.at("/metrics/ttft_s/p99").doubleValue()).isCloseTo(3.83339, within(1e-9));
		assertThat(cell.at("/metrics/ttft_s/std").doubleValue()).isCloseTo(1.04982, within(1e-9));
		// Inter Token Latency is AIPerf's (latency − TTFT) / (output − 1): TPOT; Inter
		// Chunk Latency is ITL.
		assertThat(cell.at("/metrics/tpot_ms/median").doubleValue()).isCloseTo(27.62, within(1e-9));
		assertThat(cell.at("/metrics/itl_ms/median").doubleValue()).isCloseTo(22.67, within(1e-9));
		assertThat(cell.at("/metrics/e2e_latency_s/median").doubleValue()).isCloseTo(9.09735, within(1e-9));
		assertThat(cell.at("/metrics/decode_tps/median").doubleValue()).isCloseTo(36.21, within(1e-9));
		// From the second table: Output Token Throughput (tokens/sec) 2320.72, Request
		// Throughput 9.55.
		assertThat(cell.at("/metrics/throughput_tps").doubleValue()).isCloseTo(2320.72, within(1e-9));
		assertThat(cell.at("/metrics/request_throughput").doubleValue()).isCloseTo(9.55, within(1e-9));
		assertThat(cell.at("/output_tokens/median").doubleValue()).isEqualTo(247);
		assertThat(cell.at("/output_tokens/min").doubleValue()).isEqualTo(193);
		// Request Count 89, Error Request Count 11: the CSV alone cannot tell failed from
		// cancelled.
		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(89);
		assertThat(cell.at("/requests/failed").intValue()).isEqualTo(11);
		assertThat(cell.at("/requests/cancelled").isNull()).isTrue();
		assertThat(imported.notes()).anyMatch(note -> note.contains("11 errored requests"));
		assertThat(imported.cellsDocument().at("/harness/name").asString()).isEqualTo("aiperf");
		ImportedDocuments.read(imported);
	}

	@Test
	void theRecordsBesideTheCsvTellTheErroredRequestsWereCancelled() {
		List<InputFile> files = List.of(CSV, RECORDS);
		Detection detection = FormatDetector.detect(files);
		assertThat(detection.format()).as(detection.explanation()).isEqualTo(HarnessFormat.AIPERF_CSV);

		JsonNode cell = HarnessImporters.read(HarnessFormat.AIPERF_CSV, files, null)
			.cellsDocument()
			.path("cells")
			.get(0);

		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(89);
		assertThat(cell.at("/requests/failed").intValue()).isZero();
		assertThat(cell.at("/requests/cancelled").intValue()).isEqualTo(11);
		assertThat(cell.path("samples")).hasSize(100);
		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(2.36932, within(1e-9));
	}

	@Test
	void theJsonExportWithItsCsvIsStillTheJsonFormat() {
		assertThat(FormatDetector.detect(Samples.ownFolder("aiperf-0.1")).format()).isEqualTo(HarnessFormat.AIPERF);
	}

	@Test
	void noErrorRowBesideARequestCountMeansNoneFailed() {
		InputFile clean = InputFile.of("profile_export_aiperf.csv", """
				Metric,avg,min,max,p50,p99,std
				Time to First Token (ms),106.67,25.65,238.75,106.28,234.56,52.33

				Metric,Value
				Request Count,96.00
				""");

		JsonNode cell = HarnessImporters.read(HarnessFormat.AIPERF_CSV, List.of(clean), null)
			.cellsDocument()
			.path("cells")
			.get(0);

		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(96);
		assertThat(cell.at("/requests/failed").intValue()).isZero();
		assertThat(cell.at("/requests/cancelled").intValue()).isZero();
	}

}
