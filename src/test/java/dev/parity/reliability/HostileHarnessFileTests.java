package dev.parity.reliability;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.parity.Fixtures;
import dev.parity.ingest.harness.HarnessFormat;
import dev.parity.ingest.harness.HarnessImport;
import dev.parity.ingest.harness.HarnessImporters;
import dev.parity.ingest.harness.ImportRejected;
import dev.parity.ingest.harness.InputFile;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Harness files the fuzzing found to break an importer are read, or refused with a
 * reason, never a crash.
 */
class HostileHarnessFileTests {

	@Test
	void anIntegerBeyondTheRangeOfADoubleIsAnAbsentValueNotACrash() {
		String sample = sample("aiperf-profile-export.json");
		String hostile = sample.replaceFirst("\"p1\": [0-9.]+", "\"p1\": 1" + "0".repeat(400));
		assertThat(hostile).isNotEqualTo(sample);

		HarnessImport imported = HarnessImporters.read(HarnessFormat.AIPERF,
				List.of(InputFile.of("profile_export_aiperf.json", hostile)), null);

		assertThat(imported.cellsDocument().path("cells")).hasSize(1);
	}

	@Test
	void aRequestRateBeyondTheRangeOfADoubleIsNotACrash() {
		String sample = sample("sglang-bench-serving-details.jsonl");
		String hostile = sample.replaceFirst("\"request_rate\": [^,]+,", "\"request_rate\": 1" + "0".repeat(400) + ",");
		assertThat(hostile).isNotEqualTo(sample);

		HarnessImport imported = HarnessImporters.read(HarnessFormat.SGLANG,
				List.of(InputFile.of("details.jsonl", hostile)), null);

		assertThat(imported.cellsDocument().at("/cells/0/params/request_rate").asString()).isEqualTo("inf");
	}

	@Test
	void aFieldNameThatCannotBeStoredIsRefusedNamingTheFile() {
		String sample = sample("vllm-bench-sweep-run.json");
		String hostile = sample.replaceFirst("\"request_throughput\"", "\"request_throughput\\\\u0000\"");
		assertThat(hostile).isNotEqualTo(sample);

		assertThatThrownBy(() -> HarnessImporters.read(HarnessFormat.VLLM_SWEEP,
				List.of(InputFile.of("run=0.json", hostile)), null))
			.isInstanceOf(ImportRejected.class)
			.hasMessageStartingWith(
					"run=0.json: cannot be imported as it is: $.cells[0].params['request_throughput\\u0000']: ")
			.hasMessageContaining("NUL character");
	}

	@Test
	void aNegativeTokenCountIsRefusedNamingTheFileAndTheValue() {
		String sample = sample("llmperf-individual-responses.json");
		String hostile = sample.replaceFirst("\"number_output_tokens\": [0-9]+", "\"number_output_tokens\": -152");
		assertThat(hostile).isNotEqualTo(sample);

		assertThatThrownBy(() -> HarnessImporters.read(HarnessFormat.LLMPERF_RESPONSES,
				List.of(InputFile.of("bedrock_70b_individual_responses.json", hostile)), null))
			.isInstanceOf(ImportRejected.class)
			.hasMessageStartingWith("bedrock_70b_individual_responses.json: cannot be imported as it is: $.cells[0].")
			.hasMessageContaining("must be at least 0, not -152");
	}

	@Test
	void anErrorCodeThatIsAnObjectIsAFailedRequestNotACrash() {
		String sample = sample("llmperf-individual-responses.json");
		String hostile = sample.replaceFirst("\"error_code\": null", "\"error_code\": {}");
		assertThat(hostile).isNotEqualTo(sample);

		HarnessImport imported = HarnessImporters.read(HarnessFormat.LLMPERF_RESPONSES,
				List.of(InputFile.of("bedrock_70b_individual_responses.json", hostile)), null);

		assertThat(imported.cellsDocument().at("/cells/0/requests/failed").asInt()).isEqualTo(50);
	}

	private static String sample(String name) {
		return new String(Fixtures.read(Fixtures.sample(name)), StandardCharsets.UTF_8);
	}

}
