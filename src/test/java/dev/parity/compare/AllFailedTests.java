package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static org.assertj.core.api.Assertions.assertThat;

class AllFailedTests {

	private final AllFailed rule = new AllFailed();

	@Test
	void greysEverythingWhenNoRequestCompleted() {
		TestRuns.RunBuilder run = aRun().cell(c -> c.params("prompt_tokens", 280).requests(0, 4, 0).noOutputTokens())
			.cell(c -> c.params("prompt_tokens", 8192).requests(0, 3, 1).noOutputTokens());

		var flags = rule.check(TestRuns.context(run.document(), CompareSettings.defaults()));

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("all-failed");
			assertThat(flag.message())
				.startsWith("every request failed (7 failed, 1 cancelled, none completed in 2 cells)")
				.contains("a healthy server is not a working run");
			assertThat(flag.greys()).containsExactly("ttft_s", "prefill_tps", "decode_tps", "throughput_tps", "tpot_ms",
					"itl_ms", "e2e_latency_s", "request_throughput");
		});
	}

	@Test
	void staysQuietWhenOneCellCompleted() {
		TestRuns.RunBuilder run = aRun().cell(c -> c.params("prompt_tokens", 280).requests(0, 4, 0))
			.cell(c -> c.params("prompt_tokens", 8192).requests(1, 3, 0).decode(70));

		assertThat(rule.check(TestRuns.context(run.document(), CompareSettings.defaults()))).isEmpty();
	}

	@Test
	void staysQuietWhenNothingFailed() {
		TestRuns.RunBuilder run = aRun().cell(c -> c.requests(0, 0, 0));

		assertThat(rule.check(TestRuns.context(run.document(), CompareSettings.defaults()))).isEmpty();
	}

	@Test
	void takesMetricValuesAsCompletionWhenTheCompletedCountIsUnknown() {
		TestRuns.RunBuilder run = aRun().cell(c -> c.params("prompt_tokens", 280).requests(null, 4, 0))
			.cell(c -> c.params("prompt_tokens", 8192).requests(null, 0, 0).decode(70));

		assertThat(rule.check(TestRuns.context(run.document(), CompareSettings.defaults()))).isEmpty();
	}

	@Test
	void greysTheRunsOwnMetricsToo() {
		TestRuns.RunBuilder run = aRun().metricDefinition("gpu_power_w", "W", false, false)
			.cell(c -> c.requests(0, 4, 0));

		assertThat(rule.check(TestRuns.context(run.document(), CompareSettings.defaults()))).singleElement()
			.satisfies(flag -> assertThat(flag.greys()).contains("gpu_power_w", "ttft_s"));
	}

}
