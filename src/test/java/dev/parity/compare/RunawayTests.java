package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static org.assertj.core.api.Assertions.assertThat;

class RunawayTests {

	private final Runaway rule = new Runaway();

	@Test
	void greysOutputSensitiveMetricsWhenOneRequestRunsAway() {
		var flags = TestRuns.check(rule,
				aRun().cell(c -> c.outputTokens(4011).sampleOutputTokens(3650, 4120, 3902, 1015784)),
				CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("runaway");
			assertThat(flag.message()).startsWith(
					"request 4 of 4 produced 1,015,784 output tokens against a median of 4,011 (253×, over 10×)");
			assertThat(flag.greys()).containsExactly("decode_tps", "throughput_tps", "tpot_ms", "itl_ms",
					"e2e_latency_s", "request_throughput");
		});
	}

	@Test
	void readsTheCellsMaxWithoutSamples() {
		var flags = TestRuns.check(rule, aRun().cell(c -> c.outputTokens(4011, 3650, 1015784)),
				CompareSettings.defaults());

		assertThat(flags).singleElement()
			.satisfies(flag -> assertThat(flag.message())
				.startsWith("the longest request produced 1,015,784 output tokens"));
	}

	@Test
	void doesNotFireExactlyAtTheFactor() {
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.outputTokens(500, 400, 5000)), CompareSettings.defaults()))
			.isEmpty();
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.outputTokens(500, 400, 5001)), CompareSettings.defaults()))
			.hasSize(1);
	}

	@Test
	void needsAMedian() {
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.noOutputTokens()), CompareSettings.defaults())).isEmpty();
	}

	@Test
	void ignoresFailedSamples() {
		assertThat(TestRuns.check(rule, aRun()
			.cell(c -> c.outputTokens(500, 400, 600).sampleOutputTokens(500, 600, 90000).sampleStatus(2, "failed")),
				CompareSettings.defaults()))
			.isEmpty();
	}

}
