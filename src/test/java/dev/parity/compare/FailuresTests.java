package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static dev.parity.compare.TestRuns.settings;
import static org.assertj.core.api.Assertions.assertThat;

class FailuresTests {

	private final Failures rule = new Failures();

	@Test
	void greysEveryMetricOfACancelledCell() {
		var flags = TestRuns.check(rule, aRun().cell(c -> c.requests(0, 0, 4).throughput(3.2)),
				CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("failures");
			assertThat(flag.message())
				.startsWith("4 of 4 requests cancelled: a ratio against a failed probe is never a result");
			assertThat(flag.greys()).contains("ttft_s", "prefill_tps", "decode_tps", "throughput_tps");
		});
	}

	@Test
	void firesOnASingleFailureByDefault() {
		var flags = TestRuns.check(rule, aRun().cell(c -> c.requests(7, 1, 0)), CompareSettings.defaults());

		assertThat(flags).singleElement()
			.satisfies(flag -> assertThat(flag.message()).startsWith("1 of 8 requests failed"));
	}

	@Test
	void namesBothOutcomesWhenMixed() {
		var flags = TestRuns.check(rule, aRun().cell(c -> c.requests(5, 2, 1)), CompareSettings.defaults());

		assertThat(flags).singleElement()
			.satisfies(flag -> assertThat(flag.message())
				.startsWith("3 of 8 requests failed or were cancelled (2 failed, 1 cancelled)"));
	}

	@Test
	void doesNotFireExactlyAtTheTolerance() {
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.requests(3, 1, 0)), settings("failure_tolerance", "0.25")))
			.isEmpty();
	}

	@Test
	void firesAboveTheTolerance() {
		var flags = TestRuns.check(rule, aRun().cell(c -> c.requests(2, 1, 1)), settings("failure_tolerance", "0.25"));

		assertThat(flags).singleElement()
			.satisfies(flag -> assertThat(flag.message()).contains("2 of 4 requests").contains("(tolerance 25 %)"));
	}

	@Test
	void countsUnknownOutcomesAsZero() {
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.requests(4, null, null)), CompareSettings.defaults()))
			.isEmpty();
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.requests(4, null, 1)), CompareSettings.defaults()))
			.singleElement()
			.satisfies(flag -> assertThat(flag.message()).startsWith("1 of 5 requests cancelled"));
	}

}
