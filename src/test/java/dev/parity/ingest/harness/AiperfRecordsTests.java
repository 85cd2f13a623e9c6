package dev.parity.ingest.harness;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class AiperfRecordsTests {

	private static HarnessImport read(InputFile file) {
		return HarnessImporters.read(HarnessFormat.AIPERF_RECORDS, List.of(file), null);
	}

	@Test
	void countsCancelledRequestsAsCancelledAndKeepsEveryRequest() {
		HarnessImport imported = read(Samples.shared("aiperf-profile-export.jsonl"));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(89);
		assertThat(cell.at("/requests/failed").intValue()).isZero();
		assertThat(cell.at("/requests/cancelled").intValue()).isEqualTo(11);
		JsonNode samples = cell.path("samples");
		assertThat(samples).hasSize(100);
		assertThat(samples.valueStream().filter(sample -> sample.path("status").asString().equals("cancelled")))
			.hasSize(11);
		assertThat(cell.path("params").isEmpty()).isTrue();
		assertThat(imported.notes()).anyMatch(note -> note.contains("no params"));
	}

	@Test
	void outputTokensIncludeReasoningAndTheReasoningPartIsKept() {
		HarnessImport imported = read(Samples.shared("aiperf-profile-export.jsonl"));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		// output_sequence_length = output_token_count + reasoning_token_count (61 + 132 =
		// 193 for the first).
		JsonNode first = cell.path("samples")
			.valueStream()
			.filter(sample -> sample.path("status").asString().equals("ok"))
			.findFirst()
			.orElseThrow();
		assertThat(first.path("output_tokens").intValue()).isEqualTo(193);
		assertThat(first.path("reasoning_tokens").intValue()).isEqualTo(132);
		assertThat(first.path("ttft_s").doubleValue()).isCloseTo(1.680544, within(1e-6));
		assertThat(first.path("e2e_latency_s").doubleValue()).isCloseTo(7.936968, within(1e-6));
		assertThat(cell.at("/output_tokens/max").intValue()).isEqualTo(247);
		assertThat(cell.at("/output_tokens/min").intValue()).isEqualTo(193);
		assertThat(cell.at("/reasoning_tokens/median").intValue()).isEqualTo(247);
		assertThat(imported.notes())
			.anyMatch(note -> note.contains("59 of 89 completed requests produced only reasoning"));
	}

	@Test
	void statisticsComeFromTheCompletedRequests() {
		JsonNode cell = read(Samples.shared("aiperf-profile-export.jsonl")).cellsDocument().path("cells").get(0);

		// AIPerf's own summary of this run says: TTFT p50 2369.3 ms, avg 2343.2 ms; ITL
		// avg 27.76 ms.
		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(2.369318, within(1e-6));
		assertThat(cell.at("/metrics/ttft_s/mean").doubleValue()).isCloseTo(2.343219, within(1e-6));
		assertThat(cell.at("/metrics/tpot_ms/mean").doubleValue()).isCloseTo(27.763065, within(1e-6));
		assertThat(cell.at("/metrics/itl_ms/mean").doubleValue()).isCloseTo(27.755153, within(1e-6));
		assertThat(cell.at("/metrics/request_throughput").doubleValue()).isCloseTo(9.55, within(0.01));
	}

	@Test
	void warmUpRecordsAreCountedNotMeasured() {
		InputFile records = Samples.own("aiperf-0.1/profile_export.jsonl");

		HarnessImport imported = read(records);

		JsonNode cell = imported.cellsDocument().path("cells").get(0);
		assertThat(cell.path("samples")).hasSize(8);
		assertThat(imported.cellsDocument().at("/workload/warmup_requests").intValue()).isEqualTo(2);
		ImportedDocuments.read(imported);
	}

	@Test
	void producesDocumentsTheRunModelReads() {
		ImportedDocuments.read(read(Samples.shared("aiperf-profile-export.jsonl")));
	}

}
