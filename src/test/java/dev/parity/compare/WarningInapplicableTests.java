package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static org.assertj.core.api.Assertions.assertThat;

class WarningInapplicableTests {

	private static final String CLAMPED = "max_num_batched_tokens was clamped to 8168; this may lead to suboptimal performance";

	private final WarningInapplicable rule = new WarningInapplicable();

	@Test
	void annotatesShortPromptCellsOnly() {
		var flags = TestRuns.check(rule,
				aRun().flag("max-num-batched-tokens", "8168").warning(CLAMPED)
					.cell(c -> c.params("prompt_tokens", 280, "concurrency", 1))
					.cell(c -> c.params("prompt_tokens", 8192, "concurrency", 1)),
				CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("warning-inapplicable");
			assertThat(flag.isAnnotation()).isTrue();
			assertThat(flag.message()).startsWith("engine warning \"" + CLAMPED + "\" cannot explain this cell: 280 prompt tokens vs max-num-batched-tokens limit 8,168");
		});
	}

	@Test
	void firesAtExactlyATenthOfTheLimitSinceTheRuleSaysAtMost() {
		assertThat(TestRuns.check(rule,
				aRun().warning("max_num_batched_tokens was clamped to 8000").cell(c -> c.params("prompt_tokens", 800)),
				CompareSettings.defaults())).hasSize(1);
		assertThat(TestRuns.check(rule,
				aRun().warning("max_num_batched_tokens was clamped to 8000").cell(c -> c.params("prompt_tokens", 801)),
				CompareSettings.defaults())).isEmpty();
	}

	@Test
	void matchesFlagNamesAsFlagsCompareAndTakesTheFlagsValueWhenTheWarningHasNoNumber() {
		var flags = TestRuns.check(rule,
				aRun().flag("--Max_Num_Batched_Tokens", "16384").warning("MAX-NUM-BATCHED-TOKENS is below the model length")
					.cell(c -> c.params("prompt_tokens", 1024)),
				CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> assertThat(flag.message()).contains("limit 16,384"));
	}

	@Test
	void staysQuietWithoutANumericLimitOrPromptLength() {
		assertThat(TestRuns.check(rule, aRun().warning("the tokenizer is slow").cell(c -> c.params("prompt_tokens", 10)),
				CompareSettings.defaults())).isEmpty();
		assertThat(TestRuns.check(rule, aRun().warning(CLAMPED).cell(c -> c.params("concurrency", 1)),
				CompareSettings.defaults())).isEmpty();
	}

}
