package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class VllmSweepTests {

	private static HarnessImport read(List<InputFile> files) {
		return HarnessImporters.read(HarnessFormat.VLLM_SWEEP, files, null);
	}

	@Test
	void runFileRecordsTheSweptServerFlagAsAParam() {
		HarnessImport imported = read(List.of(Samples.shared("vllm-bench-sweep-run.json")));
		JsonNode cell = imported.cellsDocument().path("cells").get(0);

		assertThat(cell.at("/params/max_num_seqs").intValue()).isEqualTo(4);
		assertThat(cell.at("/params/concurrency").intValue()).isEqualTo(2);
		assertThat(cell.at("/params/request_rate").asString()).isEqualTo("inf");
		// The cold run: mean TTFT 217 ms against a median of 45 ms.
		assertThat(cell.at("/metrics/ttft_s/mean").doubleValue()).isCloseTo(0.217, within(0.0005));
		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(0.045, within(0.0005));
		assertThat(cell.at("/metrics/ttft_s/std").doubleValue()).isCloseTo(0.309137, within(1e-6));
		assertThat(cell.at("/metrics/e2e_latency_s/p99").doubleValue()).isCloseTo(0.876801, within(1e-6));
		assertThat(cell.at("/metrics/itl_ms/median").doubleValue()).isCloseTo(7.372754, within(1e-6));
		assertThat(cell.at("/metrics/request_throughput").doubleValue()).isCloseTo(5.859230, within(1e-6));
		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(8);
		assertThat(cell.at("/output_tokens/mean").doubleValue()).isEqualTo(16);
		assertThat(cell.path("samples")).hasSize(1);
		assertThat(imported.cellsDocument().at("/harness/name").asString()).isEqualTo("vllm bench sweep serve");
		assertThat(imported.notes()).anyMatch(note -> note.contains("max_num_seqs"));
		ImportedDocuments.read(imported);
	}

	@Test
	void folderWithTwoCombinationsBecomesOneRunWithRepetitionsAsSamples() {
		HarnessImport imported = read(Samples.ownFolder("vllm-sweep"));
		JsonNode cells = imported.cellsDocument().path("cells");

		assertThat(cells).hasSize(2);
		JsonNode first = cells.get(0);
		assertThat(first.at("/params/max_num_seqs").intValue()).isEqualTo(64);
		assertThat(first.at("/params/concurrency").intValue()).isEqualTo(8);
		assertThat(first.path("order").intValue()).isEqualTo(1);
		assertThat(first.at("/requests/completed").intValue()).isEqualTo(64);
		assertThat(first.path("samples")).hasSize(2);
		// Each repetition is a sample with its own median TTFT; the cell's median is the
		// median of those.
		double run0 = first.path("samples").get(0).path("ttft_s").doubleValue();
		double run1 = first.path("samples").get(1).path("ttft_s").doubleValue();
		assertThat(first.at("/metrics/ttft_s/median").doubleValue()).isCloseTo((run0 + run1) / 2, within(1e-12));

		JsonNode second = cells.get(1);
		assertThat(second.at("/params/max_num_seqs").intValue()).isEqualTo(128);
		assertThat(second.path("order").intValue()).isEqualTo(2);
		// run=2 failed as a whole (its failure file): a failed sample, and the cell's
		// counts are unknown.
		assertThat(second.path("samples")).hasSize(3);
		assertThat(second.path("samples").get(2).path("status").asString()).isEqualTo("failed");
		assertThat(second.at("/requests/completed").isNull()).isTrue();
		assertThat(second.at("/requests/failed").isNull()).isTrue();

		assertThat(imported.cellsDocument().at("/workload/warmup_requests").intValue()).isEqualTo(4);
		assertThat(imported.notes()).anyMatch(note -> note.contains("skipped") && note.contains("summary.csv"));
		assertThat(imported.notes()).anyMatch(note -> note.contains("run=2 failed (ClientConnectorError"));
		ImportedDocuments.read(imported);
	}

	@Test
	void readsTheSameFolderZipped() {
		HarnessImport imported = read(List.of(Samples.zip("sweep.zip", Samples.ownFolder("vllm-sweep"))));

		assertThat(imported.cellsDocument().path("cells")).hasSize(2);
	}

	@Test
	void summaryJsonAloneGivesTheSameRepetitions() {
		List<InputFile> summaries = new ArrayList<>();
		for (InputFile file : Samples.ownFolder("vllm-sweep")) {
			if (file.baseName().equals("summary.json")) {
				summaries.add(file);
			}
		}

		JsonNode cells = read(summaries).cellsDocument().path("cells");

		assertThat(cells).hasSize(2);
		assertThat(cells.get(0).path("samples")).hasSize(2);
		assertThat(cells.get(1).at("/requests/completed").intValue()).isEqualTo(63);
		assertThat(cells.get(1).at("/requests/failed").intValue()).isEqualTo(1);
	}

	@Test
	void parsesSweptParametersFromTheCombinationDirectory() {
		assertThat(VllmSweep.combinationPairs("exp/SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8"))
			.containsEntry("max_num_seqs", "4")
			.containsEntry("max_concurrency", "2")
			.containsEntry("num_prompts", "8")
			.hasSize(3);
		assertThat(VllmSweep.combinationPairs("BENCH--request_rate=inf-random_input_len=8192"))
			.containsEntry("request_rate", "inf")
			.containsEntry("random_input_len", "8192");
		assertThat(VllmSweep.paramName("random_input_len")).isEqualTo("prompt_tokens");
		assertThat(VllmSweep.paramName("max_concurrency")).isEqualTo("concurrency");
	}

	@Test
	void rejectsATruncatedRunFileNamingItAndTheLine() {
		List<InputFile> files = new ArrayList<>(Samples.ownFolder("vllm-sweep"));
		InputFile run = files.stream()
			.filter(file -> file.name().endsWith("=64-BENCH--max_concurrency=8/run=1.json"))
			.findFirst()
			.orElseThrow();
		files.set(files.indexOf(run), new InputFile(run.name(), Arrays.copyOf(run.content(), 400)));

		assertThatThrownBy(() -> read(files)).isInstanceOf(ImportRejected.class)
			.hasMessageStartingWith(run.name() + ": not valid JSON: unexpected end of input at line");
	}

}
