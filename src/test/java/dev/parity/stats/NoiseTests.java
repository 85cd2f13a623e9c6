package dev.parity.stats;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.apache.commons.statistics.descriptive.Median;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class NoiseTests {

	@Test
	void theIntervalFromPairedRatiosIsOverSamplesAndLeavesTheRatiosForTheHeadline() {
		SplittableRandom random = new SplittableRandom(7);
		for (long seed = 1; seed <= 20; seed++) {
			double[] samples = random.doubles(60, 0.5, 1.5).toArray();
			double[] other = random.doubles(60, 0.6, 1.6).toArray();
			double[] baseline = Noise.bootstrapMedians(samples, seed);
			double[] contender = Noise.bootstrapMedians(other, seed + 100);
			assertThat(Noise.pairable(baseline, contender)).isTrue();
			double[] ratios = Noise.pairedRatios(baseline, contender, seed);
			double[] kept = ratios.clone();
			assertThat(Noise.overPairedRatios(ratios))
				.isEqualTo(Noise.overSamples(baseline, contender, seed).orElseThrow());
			// The headline pairs the b-th ratios of every cell: they must stay in their
			// drawn order.
			assertThat(ratios).containsExactly(kept);
		}
		assertThat(Noise.pairable(new double[Noise.RESAMPLES], new double[3])).isFalse();
	}

	@Test
	void welchOnLogValuesForThreeToSevenRuns() {
		double[] baseline = { 100, 102, 98 };
		double[] contender = { 120, 123, 118 };

		RatioInterval interval = Noise.overRuns(baseline, contender, 1).orElseThrow();

		assertThat(interval.method()).isEqualTo(RatioInterval.WELCH);
		assertThat(interval.confidence()).isEqualTo(0.95);
		// Geometric means 99.99 and 120.32: ratio 1.203, inside the interval, well away
		// from 1.
		assertThat(interval.low()).isLessThan(1.203).isGreaterThan(1.1);
		assertThat(interval.high()).isGreaterThan(1.203).isLessThan(1.3);
		assertThat(interval.pValue()).isLessThan(0.01);
	}

	@Test
	void welchMatchesScipy() {
		// SciPy 1.x: ttest_ind(log([120,123,118]), log([100,102,98]), equal_var=False) →
		// p 0.000380, df 3.9927,
		// 95 % CI of the log difference 0.138706 … 0.231461, i.e. ratios 1.148786 …
		// 1.260440.
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

		RatioInterval interval = Noise
			.overSamples(Noise.bootstrapMedians(baseline, 1), Noise.bootstrapMedians(contender, 2), 3)
			.orElseThrow();

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
		// The order intervals were computed with before (published snapshots hold them):
		// the seeded draws' distinct
		// values, in the order they first came.
		for (long seed = -50; seed < 50; seed++) {
			long s = Seed.of("a...b", "cell-" + seed, "ttft_s", "median");
			assertThat(Noise.permutation(s)).containsExactly(
					new SplittableRandom(s).ints(0, Noise.RESAMPLES).distinct().limit(Noise.RESAMPLES).toArray());
		}
	}

	@Test
	void bootstrapMediansAreTheMediansEveryEarlierVersionComputed() {
		// Stored medians and published intervals were computed this way: a copy of each
		// resample, its median.
		SplittableRandom values = new SplittableRandom(42);
		for (int size : new int[] { 10, 11, 30, 249, 250, 1001 }) {
			double[] samples = values.doubles(size, 0.01, 2).toArray();
			// Ties and repeated values, as latency samples rounded to milliseconds have.
			double[] rounded = Arrays.stream(samples).map(v -> Math.round(v * 100) / 100.0).toArray();
			double[] withZeros = rounded.clone();
			withZeros[0] = 0;
			withZeros[size - 1] = -0.0;
			double[] withNaN = samples.clone();
			withNaN[size / 2] = Double.NaN;
			// Bit for bit (NaN included): Arrays.equals compares doubles as their bits.
			assertThat(Arrays.equals(Noise.bootstrapMedians(withZeros, 5), reference(withZeros, 5))).isTrue();
			assertThat(Arrays.equals(Noise.bootstrapMedians(withNaN, 5), reference(withNaN, 5))).isTrue();
			for (double[] input : new double[][] { samples, rounded }) {
				for (long seed : new long[] { -7, 0, 1, Seed.of("run", "cell", "ttft_s", "median") }) {
					double[] before = input.clone();

					assertThat(Noise.bootstrapMedians(input, seed)).containsExactly(reference(input, seed));
					assertThat(input).containsExactly(before);
				}
			}
		}
		// Pinned: the first medians of one seed, as the code before this one gave them.
		double[] pinned = Noise.bootstrapMedians(new SplittableRandom(3).doubles(25).toArray(), 11);
		assertThat(new double[] { pinned[0], pinned[1], pinned[999] }).containsExactly(PINNED);
	}

	private static final double[] PINNED = { 0.4910624550614454, 0.6129746825466243, 0.6129746825466243 };

	/**
	 * The bootstrap medians as first written: each resample copied by the median, which
	 * sorts the copy.
	 */
	private static double[] reference(double[] samples, long seed) {
		SplittableRandom random = new SplittableRandom(seed);
		Median median = Median.withDefaults();
		double[] medians = new double[Noise.RESAMPLES];
		for (int b = 0; b < Noise.RESAMPLES; b++) {
			double[] resampled = new double[samples.length];
			for (int i = 0; i < resampled.length; i++) {
				resampled[i] = samples[random.nextInt(samples.length)];
			}
			medians[b] = median.evaluate(resampled);
		}
		return medians;
	}

}
