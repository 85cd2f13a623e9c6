package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static dev.parity.compare.TestRuns.settings;
import static org.assertj.core.api.Assertions.assertThat;

class UnstableTests {

	private final Unstable rule = new Unstable();

	@Test
	void greysOutputSensitiveMetricsWhenOutputLengthVaries() {
		var flags = TestRuns.check(rule, aRun().cell(c -> c.sampleOutputTokens(140, 2890, 310, 4120, 860)),
				CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("unstable");
			assertThat(flag.message())
				.startsWith("output tokens per request 140–4,120 over 5 requests (CV 0.944, over 0.5)");
			assertThat(flag.greys()).contains("decode_tps", "e2e_latency_s").doesNotContain("ttft_s", "prefill_tps");
		});
	}

	@Test
	void doesNotFireExactlyAtTheThreshold() {
		// mean 2, population SD 1: CV exactly 0.5
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.sampleOutputTokens(1, 1, 3, 3)), CompareSettings.defaults()))
			.isEmpty();
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.sampleOutputTokens(1, 1, 3, 3)),
				settings("unstable_cv", "0.49")))
			.hasSize(1);
	}

	@Test
	void needsThreeSamples() {
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.sampleOutputTokens(100, 5000)), CompareSettings.defaults()))
			.isEmpty();
	}

	@Test
	void staysQuietWithoutSamples() {
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.outputTokens(860, 140, 4120)), CompareSettings.defaults()))
			.isEmpty();
	}

	@Test
	void staysQuietOnSteadyOutput() {
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.sampleOutputTokens(512, 512, 515, 512, 512)),
				CompareSettings.defaults()))
			.isEmpty();
	}

}
