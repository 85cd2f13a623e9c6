package dev.parity.compare;

import java.util.Map;

import dev.parity.run.Provenance;
import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static org.assertj.core.api.Assertions.assertThat;

class ReplicatesTests {

	private static Provenance.Environment environment(String driver) {
		return new Provenance.Environment("NVIDIA L40S", 1, driver, "12.4", null, null, null, "6.8.0", Map.of(),
				Map.of());
	}

	@Test
	void runsWithIdenticalProvenanceAreReplicatesWhateverTheirNumbers() {
		assertThat(Replicates.differingField(aRun().cell(c -> c.decode(70)).build(),
				aRun().cell(c -> c.decode(90)).warning("printed something else").build()))
			.isEmpty();
	}

	@Test
	void namesTheFirstFieldThatDiffers() {
		assertThat(Replicates.differingField(aRun().build(), aRun().flag("max-num-seqs", "64").build()))
			.contains("engine.flags");
		assertThat(Replicates.differingField(aRun().build(), aRun().declaredOutputTokens(1024).build()))
			.contains("workload.output_tokens");
		assertThat(Replicates.differingField(aRun().environment(environment("550.90.07")).build(),
				aRun().environment(environment("570.133.20")).build()))
			.contains("environment.driver");
	}

}
