package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static org.assertj.core.api.Assertions.assertThat;

class OutcomesUnknownTests {

	private final OutcomesUnknown rule = new OutcomesUnknown();

	@Test
	void annotatesACellWithoutFailureCounts() {
		var flags = TestRuns.check(rule, aRun().cell(c -> c.requests(4, null, null)), CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("outcomes-unknown");
			assertThat(flag.isAnnotation()).isTrue();
			assertThat(flag.message()).startsWith("the failed and cancelled counts were not recorded")
				.contains("count as 0");
		});
	}

	@Test
	void namesTheOneCountThatIsMissing() {
		var flags = TestRuns.check(rule, aRun().cell(c -> c.requests(4, 0, null)), CompareSettings.defaults());

		assertThat(flags).singleElement()
			.satisfies(flag -> assertThat(flag.message()).startsWith("the cancelled count was not recorded"));
	}

	@Test
	void staysQuietWhenBothCountsAreKnown() {
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.requests(4, 0, 0)), CompareSettings.defaults())).isEmpty();
	}

}
