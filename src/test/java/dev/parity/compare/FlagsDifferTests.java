package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static org.assertj.core.api.Assertions.assertThat;

class FlagsDifferTests {

	private final FlagsDiffer rule = new FlagsDiffer();

	@Test
	void annotatesWithBothValuesSideBySide() {
		var flags = TestRuns.check(rule, aRun().flag("max-num-batched-tokens", "8168").flag("kv-cache-dtype", "fp8"),
				aRun().flag("max_num_batched_tokens", "16384").flag("kv-cache-dtype", "auto"),
				CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("flags-differ");
			assertThat(flag.isAnnotation()).isTrue();
			assertThat(flag.message()).contains("engine.flags.max-num-batched-tokens 8168 vs 16384")
				.doesNotContain("kv-cache-dtype");
		});
	}

	@Test
	void staysQuietWhenOnlyOneSideHasAValue() {
		assertThat(TestRuns.check(rule, aRun().flag("max-num-seqs", "64"), aRun(), CompareSettings.defaults()))
			.isEmpty();
	}

	@Test
	void staysQuietWhenTheyAgree() {
		assertThat(TestRuns.check(rule, aRun().flag("max-num-batched-tokens", "8168").flag("kv-cache-dtype", "fp8"),
				aRun().flag("max-num-batched-tokens", "8168").flag("kv-cache-dtype", "fp8"),
				CompareSettings.defaults()))
			.isEmpty();
	}

}
