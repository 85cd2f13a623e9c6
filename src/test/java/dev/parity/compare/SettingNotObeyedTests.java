package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static dev.parity.compare.TestRuns.settings;
import static org.assertj.core.api.Assertions.assertThat;

class SettingNotObeyedTests {

	private final SettingNotObeyed rule = new SettingNotObeyed();

	@Test
	void annotatesACellThatProducedMoreThanDeclared() {
		var flags = TestRuns.check(rule, aRun().declaredOutputTokens(512).cell(c -> c.outputTokens(4450)),
				CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("setting-not-obeyed");
			assertThat(flag.isAnnotation()).isTrue();
			assertThat(flag.message())
				.startsWith("declared 512, measured 4,450: accepted, not obeyed (+769 %, beyond ±10 %");
		});
	}

	@Test
	void annotatesACellThatProducedLessThanDeclared() {
		var flags = TestRuns.check(rule, aRun().declaredOutputTokens(512).cell(c -> c.outputTokens(140)),
				CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> assertThat(flag.message()).contains("(−73 %,"));
	}

	@Test
	void doesNotFireExactlyAtTheTolerance() {
		assertThat(TestRuns.check(rule, aRun().declaredOutputTokens(512).cell(c -> c.outputTokens(563.2)),
				CompareSettings.defaults()))
			.isEmpty();
		assertThat(TestRuns.check(rule, aRun().declaredOutputTokens(512).cell(c -> c.outputTokens(563.2)),
				settings("output_tolerance", "0.05")))
			.hasSize(1);
	}

	@Test
	void takesTheDeclarationFromTheGridWhenTheGridVariesIt() {
		var flags = TestRuns.check(rule,
				aRun().declaredOutputTokens(512)
					.cell(c -> c.params("output_tokens", 128).outputTokens(130))
					.cell(c -> c.params("output_tokens", 1024).outputTokens(512)),
				CompareSettings.defaults());

		assertThat(flags).singleElement()
			.satisfies(flag -> assertThat(flag.message()).startsWith("declared 1,024, measured 512"));
	}

	@Test
	void readsTheMedianFromSamplesWhenTheCellStatesNone() {
		var flags = TestRuns.check(rule,
				aRun().declaredOutputTokens(512)
					.cell(c -> c.noOutputTokens().sampleOutputTokens(4000, 4400, 4500, 4800)),
				CompareSettings.defaults());

		assertThat(flags).singleElement()
			.satisfies(flag -> assertThat(flag.message()).startsWith("declared 512, measured 4,450"));
	}

	@Test
	void needsBothADeclarationAndAMeasurement() {
		assertThat(TestRuns.check(rule, aRun().declaredOutputTokens(null).cell(c -> c.outputTokens(4450)),
				CompareSettings.defaults()))
			.isEmpty();
		assertThat(TestRuns.check(rule, aRun().declaredOutputTokens(512).cell(c -> c.noOutputTokens()),
				CompareSettings.defaults()))
			.isEmpty();
	}

}
