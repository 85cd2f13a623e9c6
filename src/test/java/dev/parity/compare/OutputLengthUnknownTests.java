package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static org.assertj.core.api.Assertions.assertThat;

class OutputLengthUnknownTests {

	private final OutputLengthUnknown rule = new OutputLengthUnknown();

	@Test
	void greysOutputSensitiveMetricsWhenOneSideDidNotMeasureOutputTokens() {
		var flags = TestRuns.check(rule, aRun().cell(c -> c.decode(70)),
				aRun().cell(c -> c.noOutputTokens().decode(71)), CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("output-length-unknown");
			assertThat(flag.message())
				.startsWith("the contender did not measure output tokens per request in this cell")
				.contains("a declared length is not a measurement");
			assertThat(flag.greys()).contains("decode_tps", "e2e_latency_s").doesNotContain("ttft_s", "prefill_tps");
		});
	}

	@Test
	void takesSampledOutputTokensAsAMeasurement() {
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.decode(70)),
				aRun().cell(c -> c.noOutputTokens().sampleOutputTokens(512, 512, 513).decode(71)),
				CompareSettings.defaults()))
			.isEmpty();
	}

	@Test
	void needsBothSidesToHaveCompletedRequests() {
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.requests(0, 0, 4).noOutputTokens().throughput(3.2)),
				aRun().cell(c -> c.noOutputTokens().throughput(140)), CompareSettings.defaults()))
			.isEmpty();
	}

	@Test
	void staysQuietWhenBothMeasured() {
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.decode(70)), aRun().cell(c -> c.decode(71)),
				CompareSettings.defaults()))
			.isEmpty();
	}

}
