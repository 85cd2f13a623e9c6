package dev.parity.ingest.harness;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LlmperfResponsesTests {

	private static HarnessImport read(InputFile file) {
		return HarnessImporters.read(HarnessFormat.LLMPERF_RESPONSES, List.of(file), null);
	}

	@Test
	void requestsThatFailedTheClientSideCheckCountAsFailedAndKeepTheirMeasurements() {
		HarnessImport imported = read(Samples.shared("llmperf-individual-responses.json"));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(101);
		assertThat(cell.at("/requests/failed").intValue()).isEqualTo(49);
		assertThat(cell.at("/requests/cancelled").isNull()).isTrue();
		JsonNode samples = cell.path("samples");
		assertThat(samples).hasSize(150);
		// The first response: error −100 "Output too few tokens 102", with full metrics.
		JsonNode first = samples.get(0);
		assertThat(first.path("status").asString()).isEqualTo("failed");
		assertThat(first.path("output_tokens").intValue()).isEqualTo(102);
		assertThat(first.path("ttft_s").doubleValue()).isCloseTo(0.613839, within(1e-6));
		// Its inter-token latency was never divided by its tokens (5.04 s): left out.
		assertThat(first.has("latency_per_output_token_ms")).isFalse();
		assertThat(samples.get(1).path("latency_per_output_token_ms").doubleValue()).isCloseTo(48.696915, within(1e-6));
		assertThat(imported.notes())
			.anyMatch(note -> note.contains("49 of 150 requests") && note.contains("Output too few tokens"));
	}

	@Test
	void statisticsAreOverTheRequestsWithoutAnErrorAsLlmperfComputesThem() {
		JsonNode cell = read(Samples.shared("llmperf-individual-responses.json")).cellsDocument().path("cells").get(0);

		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(0.387720, within(1e-6));
		assertThat(cell.at("/output_tokens/median").intValue()).isEqualTo(151);
		assertThat(cell.at("/params/prompt_tokens").intValue()).isEqualTo(550);
		assertThat(cell.path("params").has("concurrency")).isFalse();
	}

	@Test
	void producesDocumentsTheRunModelReads() {
		ImportedDocuments.read(read(Samples.shared("llmperf-individual-responses.json")));
		ImportedDocuments.read(read(Samples.own("llmperf/mistral-7b_512_128_individual_responses.json")));
	}

}
