package dev.parity.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class VerdictTests {

	private static RatioInterval interval(double low, double high) {
		return new RatioInterval(low, high, 0.95, RatioInterval.WELCH, 0.01);
	}

	@Test
	void inTheMetricsDirection() {
		assertThat(Verdict.of(1.3, interval(1.2, 1.4), 0.1, true)).isEqualTo(Verdict.BETTER);
		assertThat(Verdict.of(1.3, interval(1.2, 1.4), 0.1, false)).isEqualTo(Verdict.WORSE);
		assertThat(Verdict.of(0.7, interval(0.6, 0.8), 0.1, true)).isEqualTo(Verdict.WORSE);
		assertThat(Verdict.of(0.7, interval(0.6, 0.8), 0.1, false)).isEqualTo(Verdict.BETTER);
	}

	@Test
	void withinTheBandOnlyWhenTheWholeIntervalIs() {
		assertThat(Verdict.of(1.02, interval(0.95, 1.1), 0.1, true)).isEqualTo(Verdict.WITHIN_BAND);
		assertThat(Verdict.of(1.02, interval(0.95, 1.15), 0.1, true)).isEqualTo(Verdict.INCONCLUSIVE);
		assertThat(Verdict.of(1.2, interval(0.85, 1.5), 0.1, true)).isEqualTo(Verdict.INCONCLUSIVE);
	}

	@Test
	void fromThePointRatioWithoutAnInterval() {
		assertThat(Verdict.of(1.1, null, 0.1, true)).isEqualTo(Verdict.WITHIN_BAND);
		assertThat(Verdict.of(1.11, null, 0.1, true)).isEqualTo(Verdict.BETTER);
		assertThat(Verdict.of(0.729, null, 0.1, false)).isEqualTo(Verdict.BETTER);
	}

}
