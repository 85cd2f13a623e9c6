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

/** Harness files the fuzzing found to break an importer are read, or refused with a reason, never a crash. */
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
	void aFieldNameThatCannotBeStoredIsRefusedNamingTheFile() {
		String sample = sample("vllm-bench-sweep-run.json");
		String hostile = sample.replaceFirst("\"request_throughput\"", "\"request_throughput\\\\u0000\"");
		assertThat(hostile).isNotEqualTo(sample);

		assertThatThrownBy(() -> HarnessImporters.read(HarnessFormat.VLLM_SWEEP, List.of(InputFile.of("run=0.json", hostile)),
				null))
			.isInstanceOf(ImportRejected.class)
			.hasMessageStartingWith("run=0.json: holds a value that cannot be stored: ")
			.hasMessageContaining("NUL character");
	}

	private static String sample(String name) {
		return new String(Fixtures.read(Fixtures.shared().resolve("samples").resolve(name)), StandardCharsets.UTF_8);
	}

}
