package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static org.assertj.core.api.Assertions.assertThat;

class VersionsDifferTests {

	private final VersionsDiffer rule = new VersionsDiffer();

	@Test
	void annotatesWithBothValuesSideBySide() {
		var flags = TestRuns.check(rule, aRun().engineVersion("0.11.2").harnessVersion("1.4.2"),
				aRun().engineVersion("0.12.0").harnessVersion("1.5.0"), CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("versions-differ");
			assertThat(flag.isAnnotation()).isTrue();
			assertThat(flag.message()).contains("engine.version 0.11.2 vs 0.12.0; harness.version 1.4.2 vs 1.5.0");
		});
	}

	@Test
	void staysQuietWhenOnlyOneSideHasAValue() {
		assertThat(TestRuns.check(rule, aRun().engineVersion("0.11.2"), aRun().engineVersion(null),
				CompareSettings.defaults()))
			.isEmpty();
	}

	@Test
	void staysQuietWhenTheyAgree() {
		assertThat(TestRuns.check(rule, aRun().engineVersion("0.11.2").harnessVersion("1.4.2"),
				aRun().engineVersion("0.11.2").harnessVersion("1.4.2"), CompareSettings.defaults()))
			.isEmpty();
	}

}
