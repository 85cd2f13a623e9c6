package dev.parity.ingest.harness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.parity.Fixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FormatDetectorTests {

	@ParameterizedTest
	@CsvSource({ "aiperf-profile-export.json, aiperf", "aiperf-profile-export.jsonl, aiperf-records",
			"guidellm-report.json, guidellm", "llama-benchy-report.json, llama-benchy",
			"llmperf-individual-responses.json, llmperf-responses", "llmperf-summary.json, llmperf-summary",
			"sglang-bench-serving-details.jsonl, sglang", "sglang-bench-serving.jsonl, sglang",
			"vllm-bench-serve-all-failed.json, vllm", "vllm-bench-serve-detailed.json, vllm",
			"vllm-bench-sweep-run.json, vllm-sweep" })
	void recognisesEverySampleForCertain(String sample, String format) {
		Detection detection = FormatDetector.detect(List.of(Samples.shared(sample)));

		assertThat(detection.certain()).as(detection.explanation()).isTrue();
		assertThat(detection.format()).isEqualTo(HarnessFormat.ofId(format).orElseThrow());
		assertThat(detection.candidates()).containsExactly(detection.format());
	}

	@Test
	void everySampleIsCoveredByTheTableAbove() {
		assertThat(Samples.sharedNames()).hasSize(11);
	}

	@Test
	void recognisesByContentNotByName() {
		InputFile renamed = new InputFile("results.csv", Samples.shared("vllm-bench-sweep-run.json").content());

		assertThat(FormatDetector.detect(List.of(renamed)).format()).isEqualTo(HarnessFormat.VLLM_SWEEP);
	}

	@Test
	void recognisesOwnCasesFoldersAndZips() {
		Map<HarnessFormat, List<InputFile>> cases = Map.of(HarnessFormat.VLLM_SWEEP,
				List.of(Samples.zip("sweep.zip", Samples.ownFolder("vllm-sweep"))), HarnessFormat.AIPERF,
				Samples.ownFolder("aiperf-0.1"), HarnessFormat.AIPERF_SWEEP, Samples.ownFolder("aiperf-sweep"),
				HarnessFormat.LLMPERF_SUMMARY, Samples.ownFolder("llmperf"), HarnessFormat.TABLE_CSV,
				List.of(Samples.own("published-table.csv")), HarnessFormat.TABLE_MARKDOWN,
				List.of(Samples.own("published-table.md")), HarnessFormat.GUIDELLM,
				List.of(Samples.own("guidellm-errors.json")), HarnessFormat.LLAMA_BENCHY,
				List.of(Samples.own("llama-benchy-depth.json")), HarnessFormat.SGLANG,
				List.of(Samples.own("sglang-rates.jsonl")));

		cases.forEach((format, files) -> {
			Detection detection = FormatDetector.detect(files);
			assertThat(detection.format()).as(format + ": " + detection.explanation()).isEqualTo(format);
		});
	}

	@Test
	void recognisesTheNativeDocument() throws Exception {
		Path fixture = Fixtures.seedStory("reference.json");
		InputFile document = new InputFile("reference.json", Files.readAllBytes(fixture));

		assertThat(FormatDetector.detect(List.of(document)).format()).isEqualTo(HarnessFormat.NATIVE);
		assertThat(HarnessImporters.read(HarnessFormat.NATIVE, List.of(document), null)
			.cellsDocument()
			.path("title")
			.asString()).startsWith("Published reference");
	}

	@Test
	void asksWhenNothingInTheContentIsDistinctive() {
		InputFile bare = InputFile.of("result.json",
				"{\"completed\": 10, \"median_ttft_ms\": 45.1, \"output_throughput\": 90.2}");

		Detection detection = FormatDetector.detect(List.of(bare));

		assertThat(detection.certain()).isFalse();
		assertThat(detection.format()).isNull();
		assertThat(detection.candidates()).containsExactlyInAnyOrder(HarnessFormat.VLLM, HarnessFormat.SGLANG);
		assertThat(detection.explanation()).contains("pick one");
	}

	@Test
	void asksWhenTheFilesFitSeveralFormats() {
		List<InputFile> artifacts = new ArrayList<>(Samples.ownFolder("aiperf-0.1"));
		artifacts.addAll(Samples.ownFolder("aiperf-sweep"));

		Detection detection = FormatDetector.detect(artifacts);

		assertThat(detection.certain()).isFalse();
		assertThat(detection.candidates()).containsExactly(HarnessFormat.AIPERF, HarnessFormat.AIPERF_SWEEP);
		assertThat(detection.explanation()).startsWith("the files fit more than one format, pick one");
	}

	@Test
	void saysSoWhenTheFilesAreOfDifferentFormats() {
		Detection detection = FormatDetector
			.detect(List.of(Samples.shared("vllm-bench-serve-detailed.json"), Samples.shared("guidellm-report.json")));

		assertThat(detection.certain()).isFalse();
		assertThat(detection.candidates()).isEmpty();
		assertThat(detection.explanation()).contains("more than one format")
			.contains("vllm-bench-serve-detailed.json: vLLM bench serve")
			.contains("guidellm-report.json: guidellm benchmark report");
	}

	@Test
	void saysSoForAnUnknownFile() {
		Detection detection = FormatDetector.detect(List.of(InputFile.of("weights.json", "{\"layers\": 32}")));

		assertThat(detection.certain()).isFalse();
		assertThat(detection.candidates()).isEmpty();
		assertThat(detection.explanation()).contains("weights.json");
	}

	@Test
	void explainsTruncatedJsonNamingTheFileAndLine() {
		byte[] content = Samples.shared("vllm-bench-sweep-run.json").content();
		InputFile truncated = new InputFile("run=0.json", Arrays.copyOf(content, content.length / 2));

		Detection detection = FormatDetector.detect(List.of(truncated));

		assertThat(detection.certain()).isFalse();
		assertThat(detection.explanation()).contains("run=0.json: not valid JSON: unexpected end of input at line");
	}

	@Test
	void staysCertainWhenOneFileOfASweepIsBrokenSoReadingCanSayWhere() {
		List<InputFile> files = new ArrayList<>(Samples.ownFolder("vllm-sweep"));
		InputFile run = files.get(0);
		files.set(0, new InputFile(run.name(), Arrays.copyOf(run.content(), 100)));

		Detection detection = FormatDetector.detect(files);

		assertThat(detection.format()).isEqualTo(HarnessFormat.VLLM_SWEEP);
		assertThat(detection.explanation()).contains(run.name() + ": not valid JSON");
	}

	@Test
	void mapsFormatIds() {
		assertThat(HarnessFormat.ofId("vllm-sweep")).contains(HarnessFormat.VLLM_SWEEP);
		assertThat(HarnessFormat.ofId("table-markdown")).contains(HarnessFormat.TABLE_MARKDOWN);
		assertThat(HarnessFormat.ofId("nope")).isEmpty();
		assertThat(HarnessFormat.values()).extracting(HarnessFormat::id)
			.containsExactly("native", "vllm", "vllm-sweep", "sglang", "aiperf", "aiperf-records", "aiperf-sweep",
					"aiperf-csv", "genai-perf-csv", "llmperf-summary", "llmperf-responses", "llama-benchy",
					"llama-benchy-md", "llama-benchy-progress", "guidellm", "inference-perf", "llm-d-report", "mlperf",
					"table-csv", "table-markdown");
	}

}
