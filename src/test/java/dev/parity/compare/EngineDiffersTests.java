package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static dev.parity.compare.TestRuns.settings;
import static org.assertj.core.api.Assertions.assertThat;

class EngineDiffersTests {

	private final EngineDiffers rule = new EngineDiffers();

	@Test
	void greysEverythingWhenBothSidesDeclareDifferentValues() {
		var flags = TestRuns.check(rule, aRun().engine("vllm"), aRun().engine("sglang"), CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("engine-differs");
			assertThat(flag.message()).contains("engine.name vllm vs sglang")
				.contains("serve both with the same engine, or compare with vary=engine");
			assertThat(flag.greys()).contains("ttft_s", "prefill_tps", "decode_tps", "throughput_tps");
		});
	}

	@Test
	void onlyAnnotatesWhenItIsWhatTheComparisonVaries() {
		var flags = TestRuns.check(rule, aRun().engine("vllm"), aRun().engine("sglang"), settings("vary", "engine"));

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.isAnnotation()).isTrue();
			assertThat(flag.message()).contains("engine.name vllm vs sglang").contains("vary=engine");
		});
	}

	@Test
	void staysQuietWhenTheyAgree() {
		assertThat(TestRuns.check(rule, aRun().engine("vllm"), aRun().engine("vllm"), CompareSettings.defaults()))
			.isEmpty();
	}

}
