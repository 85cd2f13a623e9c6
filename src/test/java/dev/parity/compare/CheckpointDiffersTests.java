package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static dev.parity.compare.TestRuns.settings;
import static org.assertj.core.api.Assertions.assertThat;

class CheckpointDiffersTests {

	private final CheckpointDiffers rule = new CheckpointDiffers();

	@Test
	void greysEverythingWhenTheCommitsDiffer() {
		var flags = TestRuns.check(rule, aRun().revision(TestRuns.COMMIT),
				aRun().revision("main").commit(TestRuns.OTHER_COMMIT), CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("checkpoint-differs");
			assertThat(flag.message()).startsWith("checkpoints differ: 4f2a9c1 vs d81e07c ('main')")
				.contains("pin both runs to the same commit");
			assertThat(flag.greys()).contains("ttft_s", "prefill_tps", "decode_tps", "throughput_tps", "e2e_latency_s");
		});
	}

	@Test
	void onlyAnnotatesWhenTheCheckpointIsWhatTheComparisonVaries() {
		var flags = TestRuns.check(rule, aRun(), aRun().commit(TestRuns.OTHER_COMMIT), settings("vary", "checkpoint"));

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.isAnnotation()).isTrue();
			assertThat(flag.message()).contains("vary=checkpoint");
		});
	}

	@Test
	void staysQuietOnTheSameCommitOrAMissingOne() {
		assertThat(TestRuns.check(rule, aRun().revision("main"), aRun().revision("v1"), CompareSettings.defaults()))
			.isEmpty();
		assertThat(TestRuns.check(rule, aRun(), aRun().unpinned(), CompareSettings.defaults())).isEmpty();
	}

}
