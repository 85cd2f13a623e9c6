package dev.parity.compare;

import java.util.Map;

import dev.parity.run.Provenance;
import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static dev.parity.compare.TestRuns.settings;
import static org.assertj.core.api.Assertions.assertThat;

class EnvironmentDiffersTests {

	private static Provenance.Environment environment(String driver, String cuda, String kernel, String torch) {
		return new Provenance.Environment("NVIDIA GB10", 1, driver, cuda, "vllm/vllm-openai:v0.11.2", "sha256:4c1e9f",
				"Ubuntu 24.04.1 LTS", kernel, Map.of("torch", torch, "vllm", "0.11.2"), Map.of());
	}

	private final Provenance.Environment usual = environment("580.95.05", "13.0.88", "6.11.0-1016-nvidia", "2.9.0");

	private Comparison compare(Provenance.Environment baseline, Provenance.Environment contender,
			CompareSettings settings) {
		return TestRuns.compare(aRun().environment(baseline).cell(c -> c.decode(70).ttft(1.0)),
				aRun().environment(contender).cell(c -> c.decode(71).ttft(1.0)), settings);
	}

	@Test
	void aDifferentDriverGreysEverything() {
		Comparison comparison = compare(usual, environment("575.57.08", "13.0.88", "6.11.0-1016-nvidia", "2.9.0"),
				CompareSettings.defaults());

		assertThat(comparison.flags()).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("environment-differs");
			assertThat(flag.message()).contains("environment.driver 580.95.05 vs 575.57.08")
				.contains("vary=environment");
			assertThat(flag.greys()).contains("decode_tps", "ttft_s");
		});
		assertThat(comparison.cells().get(0).metrics()).noneMatch(ComparedMetric::comparable);
		assertThat(comparison.cells().get(0).metrics()).allMatch(metric -> metric.verdict() == null);
	}

	@Test
	void aDifferentKernelOnlyAnnotates() {
		Comparison comparison = compare(usual, environment("580.95.05", "13.0.88", "6.8.0-88-generic", "2.9.0"),
				CompareSettings.defaults());

		assertThat(comparison.flags()).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("environment-differs");
			assertThat(flag.message()).contains("environment.kernel 6.11.0-1016-nvidia vs 6.8.0-88-generic");
			assertThat(flag.greys()).isEmpty();
		});
		assertThat(comparison.cells().get(0).metric("decode_tps").orElseThrow().comparable()).isTrue();
	}

	@Test
	void cudaComparesOnMajorAndMinor() {
		assertThat(compare(usual, environment("580.95.05", "13.0.48", "6.11.0-1016-nvidia", "2.9.0"),
				CompareSettings.defaults())
			.flags()).isEmpty();
		assertThat(compare(usual, environment("580.95.05", "12.9.86", "6.11.0-1016-nvidia", "2.9.0"),
				CompareSettings.defaults())
			.flags()).singleElement().satisfies(flag -> assertThat(flag.greys()).isNotEmpty());
	}

	@Test
	void aPackageVersionAnnotatesSideBySide() {
		Comparison comparison = compare(usual, environment("580.95.05", "13.0.88", "6.11.0-1016-nvidia", "2.8.0"),
				CompareSettings.defaults());

		assertThat(comparison.flags()).singleElement().satisfies(flag -> {
			assertThat(flag.message()).contains("environment.python_packages.torch 2.9.0 vs 2.8.0");
			assertThat(flag.greys()).isEmpty();
		});
		assertThat(comparison.provenance()).anySatisfy(row -> {
			assertThat(row.field()).isEqualTo("environment.python_packages.torch");
			assertThat(row.status()).isEqualTo(ProvenanceDifference.DIFFERS);
		});
	}

	@Test
	void varyingTheEnvironmentAnnotatesIt() {
		Comparison comparison = compare(usual, environment("575.57.08", "13.0.88", "6.11.0-1016-nvidia", "2.9.0"),
				settings("vary", "environment"));

		assertThat(comparison.flags()).singleElement().satisfies(flag -> {
			assertThat(flag.greys()).isEmpty();
			assertThat(flag.message()).contains("vary=environment");
		});
	}

	@Test
	void anEnvironmentOnOneSideOnlyIsUnknownAndGreysNothing() {
		Comparison comparison = TestRuns.compare(aRun().environment(usual).cell(c -> c.decode(70)),
				aRun().cell(c -> c.decode(71)), CompareSettings.defaults());

		assertThat(comparison.flags()).isEmpty();
		assertThat(comparison.provenance()).anySatisfy(row -> {
			assertThat(row.field()).isEqualTo("environment.driver");
			assertThat(row.status()).isEqualTo(ProvenanceDifference.UNKNOWN);
		});
	}

}
