package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static dev.parity.compare.TestRuns.settings;
import static org.assertj.core.api.Assertions.assertThat;

class HarnessDiffersTests {

	private final HarnessDiffers rule = new HarnessDiffers();

	@Test
	void greysEverythingWhenBothSidesDeclareDifferentValues() {
		var flags = TestRuns.check(rule, aRun().harness("reference-harness"), aRun().harness("vllm-bench"),
				CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("harness-differs");
			assertThat(flag.message()).contains("harness.name reference-harness vs vllm-bench")
				.contains("measure both with the same harness, or compare with vary=harness");
			assertThat(flag.greys()).contains("ttft_s", "prefill_tps", "decode_tps", "throughput_tps");
		});
	}

	@Test
	void onlyAnnotatesWhenItIsWhatTheComparisonVaries() {
		var flags = TestRuns.check(rule, aRun().harness("reference-harness"), aRun().harness("vllm-bench"),
				settings("vary", "harness"));

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.isAnnotation()).isTrue();
			assertThat(flag.message()).contains("harness.name reference-harness vs vllm-bench")
				.contains("vary=harness");
		});
	}

	@Test
	void staysQuietWhenTheyAgree() {
		assertThat(TestRuns.check(rule, aRun().harness("reference-harness"), aRun().harness("reference-harness"),
				CompareSettings.defaults()))
			.isEmpty();
	}

}
