package dev.parity.ingest.harness;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

import dev.parity.run.MetricCatalogue;
import dev.parity.run.RunDocument;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HarnessImportersTests {

	static List<String> samples() {
		return Samples.sharedNames();
	}

	@ParameterizedTest
	@MethodSource("samples")
	void everySampleImportsIntoADocumentTheRunModelReads(String sample) {
		InputFile file = Samples.shared(sample);
		HarnessFormat format = FormatDetector.detect(List.of(file)).format();

		HarnessImport imported = HarnessImporters.read(format, List.of(file), null);

		ObjectNode completed = ImportedDocuments.withProvenance(imported);
		assertThat(ImportedDocuments.problems(completed)).isEmpty();
		RunDocument document = ImportedDocuments.read(imported);
		assertThat(document.cells()).isNotEmpty();
		Set<String> declared = Set.copyOf(imported.cellsDocument().path("metric_definitions").propertyNames());
		document.cells()
			.forEach(cell -> assertThat(cell.metrics().keySet())
				.allMatch(name -> MetricCatalogue.defaults().knows(name) || declared.contains(name)));
	}

	@ParameterizedTest
	@MethodSource("samples")
	void statesNoProvenanceTheFilesDoNotRecord(String sample) {
		InputFile file = Samples.shared(sample);
		JsonNode document = HarnessImporters.read(FormatDetector.detect(List.of(file)).format(), List.of(file), null)
			.cellsDocument();

		assertThat(document.path("model").has("commit")).isFalse();
		assertThat(document.path("engine").has("flags")).isFalse();
		assertThat(document.has("title")).isFalse();
		assertThat(document.has("system")).isFalse();
		assertThat(document.has("role")).isFalse();
	}

	@Test
	void rejectsFilesOfAnotherFormatNamingThem() {
		assertThatThrownBy(() -> HarnessImporters.read(HarnessFormat.GUIDELLM,
				List.of(Samples.shared("llmperf-summary.json")), null))
			.isInstanceOf(ImportRejected.class)
			.hasMessage("llmperf-summary.json: not guidellm benchmark report output");
	}

	@Test
	void rejectsTruncatedJsonNamingTheFileAndWhere() {
		byte[] content = Samples.shared("guidellm-report.json").content();
		InputFile truncated = new InputFile("benchmarks.json", Arrays.copyOf(content, 5_000));

		assertThatThrownBy(() -> HarnessImporters.read(HarnessFormat.GUIDELLM, List.of(truncated), null))
			.isInstanceOf(ImportRejected.class)
			.hasMessageMatching("benchmarks\\.json: not valid JSON: unexpected end of input at line \\d+, column \\d+");
	}

	@Test
	void readsZipsItself() {
		HarnessImport imported = HarnessImporters.read(HarnessFormat.LLMPERF_SUMMARY,
				List.of(Samples.zip("llmperf.zip", Samples.ownFolder("llmperf"))), null);

		assertThat(imported.cellsDocument().path("cells").get(0).path("samples")).hasSize(6);
	}

	@Test
	void ownCasesImportIntoValidDocuments() {
		List<List<InputFile>> cases = List.of(Samples.ownFolder("vllm-sweep"), Samples.ownFolder("aiperf-0.1"),
				Samples.ownFolder("aiperf-sweep"), Samples.ownFolder("llmperf"),
				List.of(Samples.own("vllm-bench-serve-partial-failure.json")),
				List.of(Samples.own("sglang-rates.jsonl")), List.of(Samples.own("llama-benchy-depth.json")),
				List.of(Samples.own("guidellm-errors.json")));

		for (List<InputFile> files : cases) {
			HarnessImport imported = HarnessImporters.read(FormatDetector.detect(files).format(), files, null);
			assertThat(ImportedDocuments.problems(ImportedDocuments.withProvenance(imported))).as(files.get(0).name())
				.isEmpty();
			ImportedDocuments.read(imported);
		}
	}

}
