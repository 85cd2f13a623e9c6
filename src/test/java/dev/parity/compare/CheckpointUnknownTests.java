package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static dev.parity.compare.TestRuns.settings;
import static org.assertj.core.api.Assertions.assertThat;

class CheckpointUnknownTests {

	private final CheckpointUnknown rule = new CheckpointUnknown();

	@Test
	void greysEverythingWhenASideIsUnpinned() {
		var flags = TestRuns.check(rule, aRun().revision(TestRuns.COMMIT), aRun().revision("main").unpinned(),
				CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("checkpoint-unknown");
			assertThat(flag.message())
				.startsWith("the contender has no resolved commit (4f2a9c1 vs 'main', unresolved)")
				.contains("pin the commit");
			assertThat(flag.greys()).contains("ttft_s", "decode_tps");
		});
	}

	@Test
	void greysEvenWhenTheCheckpointIsWhatTheComparisonVaries() {
		assertThat(TestRuns.check(rule, aRun().unpinned(), aRun(), settings("vary", "checkpoint"))).singleElement()
			.satisfies(flag -> {
				assertThat(flag.message()).startsWith("the baseline has no resolved commit");
				assertThat(flag.isAnnotation()).isFalse();
			});
	}

	@Test
	void staysQuietWhenBothArePinned() {
		assertThat(TestRuns.check(rule, aRun(), aRun().commit(TestRuns.OTHER_COMMIT), CompareSettings.defaults()))
			.isEmpty();
	}

}
