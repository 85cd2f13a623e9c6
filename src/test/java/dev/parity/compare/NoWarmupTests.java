package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static org.assertj.core.api.Assertions.assertThat;

class NoWarmupTests {

	private final NoWarmup rule = new NoWarmup();

	@Test
	void annotatesAZeroWarmup() {
		var flags = rule
			.check(TestRuns.context(aRun().warmup(0).cell(c -> c.decode(70)).document(), CompareSettings.defaults()));

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("no-warmup");
			assertThat(flag.isAnnotation()).isTrue();
			assertThat(flag.message())
				.isEqualTo("declared warm-up is 0 requests: early cells may be cold — warm up before measuring");
		});
	}

	@Test
	void annotatesAnUnknownWarmup() {
		var flags = rule.check(
				TestRuns.context(aRun().warmup(null).cell(c -> c.decode(70)).document(), CompareSettings.defaults()));

		assertThat(flags).singleElement()
			.satisfies(flag -> assertThat(flag.message()).startsWith("no warm-up declared: early cells may be cold"));
	}

	@Test
	void staysQuietAfterAWarmup() {
		assertThat(rule
			.check(TestRuns.context(aRun().warmup(1).cell(c -> c.decode(70)).document(), CompareSettings.defaults())))
			.isEmpty();
	}

}
