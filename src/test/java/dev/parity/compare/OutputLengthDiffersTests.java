package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static dev.parity.compare.TestRuns.settings;
import static org.assertj.core.api.Assertions.assertThat;

class OutputLengthDiffersTests {

	private final OutputLengthDiffers rule = new OutputLengthDiffers();

	@Test
	void greysOutputSensitiveMetricsWhenTheSidesDidDifferentWork() {
		var flags = TestRuns.check(rule, aRun().cell(c -> c.outputTokens(512)), aRun().cell(c -> c.outputTokens(4450)),
				CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("output-length-differs");
			assertThat(flag.message())
				.startsWith("median output tokens per request 512 vs 4,450 (+769 %, beyond ±10 %)")
				.contains("match output length, e.g. disable thinking");
			assertThat(flag.greys()).containsExactly("decode_tps", "throughput_tps", "tpot_ms", "itl_ms",
					"e2e_latency_s", "request_throughput");
		});
	}

	@Test
	void takesTheBaselineAsTheDenominatorAndDoesNotFireExactlyAtTheTolerance() {
		// 563.2 is 10 % above 512; 512 is 9.1 % below 563.2
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.outputTokens(512)), aRun().cell(c -> c.outputTokens(563.2)),
				CompareSettings.defaults()))
			.isEmpty();
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.outputTokens(512)), aRun().cell(c -> c.outputTokens(563.3)),
				CompareSettings.defaults()))
			.hasSize(1);
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.outputTokens(563.2)), aRun().cell(c -> c.outputTokens(512)),
				CompareSettings.defaults()))
			.isEmpty();
	}

	@Test
	void followsTheConfiguredTolerance() {
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.outputTokens(512)), aRun().cell(c -> c.outputTokens(828)),
				settings("output_tolerance", "1")))
			.isEmpty();
	}

	@Test
	void leavesAMissingMeasurementToOutputLengthUnknown() {
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.outputTokens(512)), aRun().cell(c -> c.noOutputTokens()),
				CompareSettings.defaults()))
			.isEmpty();
	}

}
