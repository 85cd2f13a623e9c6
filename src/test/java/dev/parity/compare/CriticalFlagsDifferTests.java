package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static dev.parity.compare.TestRuns.settings;
import static org.assertj.core.api.Assertions.assertThat;

class CriticalFlagsDifferTests {

	private final CriticalFlagsDiffer rule = new CriticalFlagsDiffer();

	@Test
	void greysEverythingWhenBothSidesDeclareDifferentValues() {
		var flags = TestRuns.check(rule, aRun().flag("kv-cache-dtype", "fp8"), aRun().flag("--kv_cache_dtype", "auto"),
				CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("critical-flags-differ");
			assertThat(flag.message()).contains("engine.flags.kv-cache-dtype fp8 vs auto")
				.contains("serve both with the same values for these flags, or compare with vary=flags");
			assertThat(flag.greys()).contains("ttft_s", "prefill_tps", "decode_tps", "throughput_tps");
		});
	}

	@Test
	void onlyAnnotatesWhenItIsWhatTheComparisonVaries() {
		var flags = TestRuns.check(rule, aRun().flag("kv-cache-dtype", "fp8"), aRun().flag("--kv_cache_dtype", "auto"),
				settings("vary", "flags"));

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.isAnnotation()).isTrue();
			assertThat(flag.message()).contains("engine.flags.kv-cache-dtype fp8 vs auto").contains("vary=flags");
		});
	}

	@Test
	void staysQuietWhenOnlyOneSideHasAValue() {
		assertThat(TestRuns.check(rule, aRun().flag("kv-cache-dtype", "fp8"), aRun(), CompareSettings.defaults()))
			.isEmpty();
	}

	@Test
	void staysQuietWhenTheyAgree() {
		assertThat(TestRuns.check(rule, aRun().flag("kv-cache-dtype", "fp8"), aRun().flag("kv-cache-dtype", "fp8"),
				CompareSettings.defaults()))
			.isEmpty();
	}

	@Test
	void firesOnlyOnFlagsConfiguredAsCritical() {
		TestRuns.RunBuilder baseline = aRun().flag("max-num-seqs", "64");
		TestRuns.RunBuilder contender = aRun().flag("max-num-seqs", "128");

		assertThat(TestRuns.check(rule, baseline, contender, CompareSettings.defaults())).isEmpty();
		assertThat(TestRuns.check(rule, baseline, contender, settings("critical_flags", "--MAX_NUM_SEQS"))).hasSize(1);
	}

}
