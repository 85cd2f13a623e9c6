package dev.parity.ingest.harness;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LlamaBenchyProgressTests {

	private static final InputFile STREAM = Samples.own("llama-benchy/rdtand-prismaaura.progress.jsonl");

	private static String text() {
		return new String(STREAM.content(), StandardCharsets.UTF_8);
	}

	private static HarnessImport read(InputFile file) {
		HarnessImport imported = HarnessImporters.read(HarnessFormat.LLAMA_BENCHY_PROGRESS, List.of(file), null);
		ImportedDocuments.read(imported);
		return imported;
	}

	@Test
	void everyRequestIsASampleAndTheCountsAreTheStreams() {
		Detection detection = FormatDetector.detect(List.of(STREAM));
		assertThat(detection.format()).as(detection.explanation()).isEqualTo(HarnessFormat.LLAMA_BENCHY_PROGRESS);

		HarnessImport imported = read(STREAM);
		JsonNode cells = imported.cellsDocument().path("cells");

		// 24 requests: 8 depths × 3 runs, all ended without an error.
		assertThat(cells).hasSize(8);
		JsonNode first = cells.get(0);
		assertThat(first.at("/params/prompt_tokens").intValue()).isEqualTo(2048);
		assertThat(first.at("/params/context_tokens").intValue()).isZero();
		assertThat(first.at("/requests/completed").intValue()).isEqualTo(3);
		assertThat(first.at("/requests/failed").intValue()).isZero();
		assertThat(first.at("/requests/cancelled").intValue()).isZero();
		assertThat(first.path("samples")).hasSize(3);
		// Request 0: ttft_s 0.5749610499988194; 480 tokens in 7.224696870005573 s of
		// decoding: 479 / 7.2247 t/s.
		JsonNode sample = first.path("samples").get(0);
		assertThat(sample.path("ttft_s").doubleValue()).isCloseTo(0.5749610499988194, within(1e-12));
		assertThat(sample.path("decode_tps").doubleValue()).isCloseTo(66.3004, within(1e-4));
		assertThat(sample.path("output_tokens").intValue()).isEqualTo(480);
		assertThat(cells.get(1).at("/params/context_tokens").intValue()).isEqualTo(1000);
		JsonNode document = imported.cellsDocument();
		assertThat(document.at("/harness/version").asString()).isEqualTo("0.3.7");
		// header ts 1783698556.9056506
		assertThat(document.at("/recorded_at").asString()).isEqualTo("2026-07-10T15:49:16.906Z");
		assertThat(document.at("/workload/output_tokens").intValue()).isEqualTo(480);
	}

	@Test
	void theTableBesideTheStreamIsSkippedAndTheStreamRead() {
		List<InputFile> files = List.of(STREAM, Samples.own("llama-benchy/rdtand-prismaaura.md"));

		assertThat(FormatDetector.detect(files).format()).isEqualTo(HarnessFormat.LLAMA_BENCHY_PROGRESS);
	}

	@Test
	void aRequestThatErredOrProducedNothingFailedAndOneCutOffWasCancelled() {
		String text = text();
		// Request 0 ends with an error; request 1 ends with no error but no token; the
		// last request never ends.
		text = text.replace(
				"\"request_id\":0,\"total_tokens\":480,\"prompt_tokens\":2049,\"decode_seconds\":7.224696870005573,\"error\":\"\"",
				"\"request_id\":0,\"total_tokens\":0,\"prompt_tokens\":2049,\"decode_seconds\":0,\"error\":\"HTTP 500\"");
		text = text.replace("\"type\":\"request_first_token\",\"ts\":1783698576.6660662,\"request_id\":1,",
				"\"type\":\"x\",\"ts\":0,");
		text = text.replaceFirst("(\"type\":\"request_end\",\"ts\":[0-9.]+,\"request_id\":1,)\"total_tokens\":480",
				"$1\"total_tokens\":0");
		text = text.substring(0, text.lastIndexOf("{\"schema\":\"llama-benchy-progress.v1\",\"type\":\"request_end\""));
		HarnessImport imported = read(new InputFile("cut.progress.jsonl", text.getBytes(StandardCharsets.UTF_8)));
		JsonNode cells = imported.cellsDocument().path("cells");

		assertThat(cells.get(0).at("/requests/completed").intValue()).isEqualTo(1);
		assertThat(cells.get(0).at("/requests/failed").intValue()).isEqualTo(2);
		assertThat(cells.get(7).at("/requests/completed").intValue()).isEqualTo(2);
		assertThat(cells.get(7).at("/requests/cancelled").intValue()).isEqualTo(1);
		assertThat(imported.notes()).anyMatch(note -> note.contains("before bench_complete"))
			.anyMatch(note -> note.contains("without a single token"));
	}

}
