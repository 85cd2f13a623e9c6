package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static org.assertj.core.api.Assertions.assertThat;

class ParamsDifferTests {

	private final ParamsDiffer rule = new ParamsDiffer();

	@Test
	void annotatesWithBothValuesSideBySide() {
		var flags = TestRuns.check(rule,
				aRun().reasoning("off").requestParams("{\"chat_template_kwargs\":{\"thinking\":false}}"),
				aRun().reasoning("high").requestParams("{\"reasoning_effort\":\"off\"}"), CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("params-differ");
			assertThat(flag.isAnnotation()).isTrue();
			assertThat(flag.message()).contains("workload.reasoning off vs high")
				.contains(
						"workload.request_params {\"chat_template_kwargs\":{\"thinking\":false}} vs {\"reasoning_effort\":\"off\"}");
		});
	}

	@Test
	void staysQuietWhenOnlyOneSideHasAValue() {
		assertThat(TestRuns.check(rule, aRun().reasoning("off"), aRun().reasoning(null), CompareSettings.defaults()))
			.isEmpty();
	}

	@Test
	void staysQuietWhenTheyAgree() {
		assertThat(TestRuns.check(rule,
				aRun().reasoning("off").requestParams("{\"chat_template_kwargs\":{\"thinking\":false}}"),
				aRun().reasoning("off").requestParams("{\"chat_template_kwargs\":{\"thinking\":false}}"),
				CompareSettings.defaults()))
			.isEmpty();
	}

}
