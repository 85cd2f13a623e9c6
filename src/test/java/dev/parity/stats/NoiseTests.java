package dev.parity.stats;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class NoiseTests {

	@Test
	void welchOnLogValuesForThreeToSevenRuns() {
		double[] baseline = { 100, 102, 98 };
		double[] contender = { 120, 123, 118 };

		RatioInterval interval = Noise.overRuns(baseline, contender, 1).orElseThrow();

		assertThat(interval.method()).isEqualTo(RatioInterval.WELCH);
		assertThat(interval.confidence()).isEqualTo(0.95);
		// Geometric means 99.99 and 120.32: ratio 1.203, inside the interval, well away from 1.
		assertThat(interval.low()).isLessThan(1.203).isGreaterThan(1.1);
		assertThat(interval.high()).isGreaterThan(1.203).isLessThan(1.3);
		assertThat(interval.pValue()).isLessThan(0.01);
	}

	@Test
	void welchMatchesScipy() {
		// SciPy 1.x: ttest_ind(log([120,123,118]), log([100,102,98]), equal_var=False) → p 0.000380, df 3.9927,
		// 95 % CI of the log difference 0.138706 … 0.231461, i.e. ratios 1.148786 … 1.260440.
		RatioInterval interval = Noise.overRuns(new double[] { 100, 102, 98 }, new double[] { 120, 123, 118 }, 1)
			.orElseThrow();

		assertThat(interval.low()).isCloseTo(1.148786, within(1e-5));
		assertThat(interval.high()).isCloseTo(1.260440, within(1e-5));
		assertThat(interval.pValue()).isCloseTo(0.000380, within(1e-5));
	}

	@Test
	void noIntervalFromTwoRunsOrFromValuesThatAreNotPositive() {
		assertThat(Noise.overRuns(new double[] { 1, 2 }, new double[] { 1, 2, 3 }, 1)).isEmpty();
		assertThat(Noise.overRuns(new double[] { 0, 2, 3 }, new double[] { 1, 2, 3 }, 1)).isEmpty();
	}

	@Test
	void bootstrapOverRunsFromEightRunsPerSide() {
		double[] baseline = { 100, 101, 99, 102, 98, 100, 103, 97 };
		double[] contender = { 110, 111, 109, 112, 108, 110, 113, 107 };

		RatioInterval interval = Noise.overRuns(baseline, contender, 42).orElseThrow();

		assertThat(interval.method()).isEqualTo(RatioInterval.BOOTSTRAP_RUNS);
		assertThat(interval.low()).isGreaterThan(1.0).isLessThan(1.10);
		assertThat(interval.high()).isGreaterThan(1.10).isLessThan(1.2);
		assertThat(interval.pValue()).isLessThan(0.01);
		assertThat(Noise.overRuns(baseline, contender, 42)).contains(interval);
	}

	@Test
	void bootstrapOverSamplesIsLabelledWithinRunNoiseOnly() {
		SplittableRandom random = new SplittableRandom(7);
		double[] baseline = random.doubles(50, 95, 105).toArray();
		double[] contender = random.doubles(50, 95, 105).toArray();

		RatioInterval interval = Noise.overSamples(Noise.bootstrapMedians(baseline, 1),
				Noise.bootstrapMedians(contender, 2), 3).orElseThrow();

		assertThat(interval.method()).isEqualTo(RatioInterval.BOOTSTRAP_SAMPLES);
		assertThat(interval.withinRunOnly()).isTrue();
		assertThat(interval.caution()).isEqualTo("within-run noise only: run-to-run drift not measured");
		assertThat(interval.low()).isLessThan(1.02);
		assertThat(interval.high()).isGreaterThan(0.98);
	}

	@Test
	void noBootstrapMediansFromFewerThanTenSamples() {
		assertThat(Noise.bootstrapMedians(new double[] { 1, 2, 3, 4, 5, 6, 7, 8, 9 }, 1)).isEmpty();
		assertThat(Noise.bootstrapMedians(new double[] { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, 1)).hasSize(1000);
	}

	@Test
	void theSameSeedGivesTheSameMedians() {
		double[] samples = new SplittableRandom(1).doubles(30).toArray();

		assertThat(Noise.bootstrapMedians(samples, Seed.of("run", "cell", "ttft_s", "median")))
			.containsExactly(Noise.bootstrapMedians(samples, Seed.of("run", "cell", "ttft_s", "median")));
		assertThat(Noise.bootstrapMedians(samples, Seed.of("run", "cell", "ttft_s", "median")))
			.isNotEqualTo(Noise.bootstrapMedians(samples, Seed.of("run", "cell", "tpot_ms", "median")));
	}

	@Test
	void pairsBootstrapMediansInTheOrderEveryEarlierIntervalUsed() {
		// The order intervals were computed with before (published snapshots hold them): the seeded draws' distinct
		// values, in the order they first came.
		for (long seed = -50; seed < 50; seed++) {
			long s = Seed.of("a...b", "cell-" + seed, "ttft_s", "median");
			assertThat(Noise.permutation(s))
				.containsExactly(new SplittableRandom(s).ints(0, Noise.RESAMPLES).distinct().limit(Noise.RESAMPLES).toArray());
		}
	}

}
