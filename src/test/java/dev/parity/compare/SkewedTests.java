package dev.parity.compare;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static org.assertj.core.api.Assertions.assertThat;

class SkewedTests {

	private final Skewed rule = new Skewed();

	@Test
	void annotatesAMetricWhoseMeanIsFarAboveItsMedian() {
		var flags = TestRuns.check(rule, aRun().cell(c -> c.metric("ttft_s", Map.of("median", 0.045, "mean", 0.217))),
				CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("skewed");
			assertThat(flag.isAnnotation()).isTrue();
			assertThat(flag.metric()).isEqualTo("ttft_s");
			assertThat(flag.message())
				.startsWith("ttft_s: mean 217 ms vs median 45 ms (4.82×, over 2×): a few requests dominate the mean");
		});
	}

	@Test
	void doesNotFireExactlyAtTheFactor() {
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.metric("tpot_ms", Map.of("median", 20.0, "mean", 40.0))),
				CompareSettings.defaults()))
			.isEmpty();
	}

	@Test
	void needsBothAMeanAndAMedian() {
		assertThat(TestRuns.check(rule,
				aRun().cell(c -> c.ttft(0.045).metric("tpot_ms", Map.of("mean", 400.0, "p99", 900.0))),
				CompareSettings.defaults()))
			.isEmpty();
	}

}
