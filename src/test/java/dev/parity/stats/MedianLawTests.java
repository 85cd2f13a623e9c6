package dev.parity.stats;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.apache.commons.statistics.descriptive.Median;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The exact bootstrap law of a sample median ({@link MedianLaw}) against seeded
 * Monte-Carlo bootstraps of the same samples: odd and even counts, ties.
 */
class MedianLawTests {

	/** Resampled medians of these samples: 20 seeded bootstraps of 1,000 each. */
	private static double[] monteCarlo(double[] samples) {
		double[] all = new double[0];
		for (int seed = 0; seed < 20; seed++) {
			double[] medians = Noise.bootstrapMedians(samples, 1000L + seed);
			int from = all.length;
			all = Arrays.copyOf(all, from + medians.length);
			System.arraycopy(medians, 0, all, from, medians.length);
		}
		Arrays.sort(all);
		return all;
	}

	private static double[] samples(int n, long seed, double roundTo) {
		SplittableRandom random = new SplittableRandom(seed);
		double[] samples = new double[n];
		for (int i = 0; i < n; i++) {
			double value = 100 * Math.exp(0.3 * random.nextGaussian());
			samples[i] = roundTo > 0 ? Math.max(roundTo, Math.round(value / roundTo) * roundTo) : value;
		}
		return samples;
	}

	@ParameterizedTest(name = "{0} samples, rounded to {1}")
	@CsvSource({ "11, 0", "51, 0", "50, 0", "250, 0", "251, 0", "250, 5", "60, 10" })
	void theLawIsTheBootstrapsWithinItsMonteCarloError(int n, double roundTo) {
		double[] samples = samples(n, 7 + n, roundTo);
		MedianLaw law = MedianLaw.ofSamples(samples);
		double[] drawn = monteCarlo(samples);
		// Every value a resample's median took is one the law gives.
		for (double median : drawn) {
			assertThat(Arrays.binarySearch(law.values(), median)).isNotNegative();
		}
		// The distribution at each value: 20,000 draws are within 0.012 of it (four
		// standard errors at most).
		for (double x : law.values()) {
			int upper = 0;
			while (upper < drawn.length && drawn[upper] <= x) {
				upper++;
			}
			assertThat((double) upper / drawn.length).as("P(median ≤ %s)", x)
				.isCloseTo(law.atOrBelow(x), within(0.012));
		}
	}

	@ParameterizedTest(name = "{0} samples, rounded to {1}")
	@CsvSource({ "10, 0", "11, 0", "250, 0", "251, 0", "250, 5", "250, 0.5", "1000, 1", "60, 10" })
	void theLawIsTheSameToTheLastBitAsByABoxedSort(int n, double roundTo) {
		for (long seed = 0; seed < 20; seed++) {
			double[] sorted = samples(n, seed * 31 + n, roundTo);
			Arrays.sort(sorted);
			MedianLaw.Ranks ranks = MedianLaw.ranks(n);
			MedianLaw fast = MedianLaw.of(n, 0, sorted);
			MedianLaw boxed = MedianLaw.bySorting(ranks, MedianLaw.atomValues(ranks, 0, sorted));
			assertThat(fast.values()).as("seed %d", seed).isEqualTo(boxed.values());
			for (int i = 0; i < fast.size(); i++) {
				assertThat(Double.doubleToRawLongBits(fast.cumulative(i))).as("seed %d, value %d", seed, i)
					.isEqualTo(Double.doubleToRawLongBits(boxed.cumulative(i)));
			}
		}
	}

	@Test
	void theMidpointIsTheLibrarysToTheLastBit() {
		SplittableRandom random = new SplittableRandom(5);
		double[][] pairs = { { Double.MAX_VALUE, Double.MAX_VALUE }, { -Double.MAX_VALUE, Double.MAX_VALUE },
				{ Double.MIN_VALUE, Double.MIN_VALUE }, { 0.1, 0.2 }, { -0.0, 0.0 }, { 1e308, 1e308 },
				{ Double.NaN, 1 } };
		for (double[] pair : pairs) {
			assertThat(Double.doubleToRawLongBits(MedianLaw.midpoint(pair[0], pair[1]))).as("%s", Arrays.toString(pair))
				.isEqualTo(Double.doubleToRawLongBits(Median.withDefaults().evaluate(pair.clone())));
		}
		for (int i = 0; i < 100_000; i++) {
			double low = Math.scalb(random.nextDouble(), random.nextInt(-1074, 1024));
			double high = Math.scalb(random.nextDouble(), random.nextInt(-1074, 1024));
			assertThat(Double.doubleToRawLongBits(MedianLaw.midpoint(low, high)))
				.isEqualTo(Double.doubleToRawLongBits(Median.withDefaults().evaluate(new double[] { low, high })));
		}
	}

	@ParameterizedTest(name = "{0} samples, rounded to {1}")
	@CsvSource({ "10, 0", "11, 0", "250, 0", "250, 5", "1000, 0.01", "40, 1000" })
	void aDrawIsTheValueABinarySearchFinds(int n, double roundTo) {
		MedianLaw law = MedianLaw.ofSamples(samples(n, n + 11, roundTo));
		SplittableRandom random = new SplittableRandom(n);
		for (int i = 0; i < 20_000; i++) {
			double u = random.nextDouble();
			assertThat(law.draw(u)).isEqualTo(law.drawBySearch(u));
		}
		// Each cumulative probability itself, and just beside it.
		for (int i = 0; i < law.size(); i++) {
			for (double u : new double[] { law.cumulative(i), Math.nextDown(law.cumulative(i)),
					Math.nextUp(law.cumulative(i)) }) {
				if (u < 1) {
					assertThat(law.draw(u)).as("u = %s", u).isEqualTo(law.drawBySearch(u));
				}
			}
		}
		assertThat(law.draw(0)).isEqualTo(law.drawBySearch(0));
	}

	@Test
	void aLawOverRanksSumsToOneAndIsKeptPerCount() {
		for (int n : new int[] { 10, 11, 250, 251, 10_000, 10_001 }) {
			MedianLaw.Ranks ranks = MedianLaw.ranks(n);
			assertThat(Arrays.stream(ranks.probability).sum()).as("n = %d", n).isCloseTo(1, within(1e-11));
			assertThat(MedianLaw.ranks(n)).isSameAs(ranks);
			assertThat(ranks.first()).isGreaterThanOrEqualTo(0);
			assertThat(ranks.last()).isLessThan(n);
		}
	}

	@Test
	void everySampleEqualGivesThatValueForCertain() {
		double[] same = new double[40];
		Arrays.fill(same, 3.5);
		MedianLaw law = MedianLaw.ofSamples(same);
		assertThat(law.values()).containsExactly(3.5);
		assertThat(law.atOrBelow(3.5)).isEqualTo(1);
	}

	@ParameterizedTest(name = "{0} and {1} samples")
	@CsvSource({ "51, 51", "50, 80", "250, 250", "251, 249" })
	void theExactIntervalIsTheResampledOneWithinItsMonteCarloError(int baseN, int otherN) {
		double[] base = samples(baseN, 3, 0);
		double[] other = samples(otherN, 4, 0);
		for (int i = 0; i < other.length; i++) {
			other[i] *= 1.05;
		}
		RatioInterval exact = Noise.overSampleLaws(MedianLaw.ofSamples(base), MedianLaw.ofSamples(other)).orElseThrow();
		// The resampled interval's ends, averaged over seeds: each seed's are within a
		// few per cent of them.
		double low = 0;
		double high = 0;
		int seeds = 40;
		for (int seed = 0; seed < seeds; seed++) {
			RatioInterval drawn = Noise
				.overSamples(Noise.bootstrapMedians(base, 100 + seed), Noise.bootstrapMedians(other, 200 + seed), seed)
				.orElseThrow();
			low += drawn.low() / seeds;
			high += drawn.high() / seeds;
		}
		assertThat(exact.low()).isCloseTo(low, within(0.005 * low));
		assertThat(exact.high()).isCloseTo(high, within(0.005 * high));
		assertThat(exact.method()).isEqualTo(RatioInterval.BOOTSTRAP_SAMPLES);
		assertThat(exact.pValue()).isBetween(0.0, 1.0);
	}

	@Test
	void theDrawnRatiosFollowTheLaws() {
		double[] base = samples(250, 3, 0);
		double[] other = samples(250, 4, 0);
		MedianLaw baseLaw = MedianLaw.ofSamples(base);
		MedianLaw otherLaw = MedianLaw.ofSamples(other);
		double[] ratios = Noise.drawnRatios(baseLaw, otherLaw, 42);
		assertThat(ratios).hasSize(Noise.RESAMPLES);
		assertThat(Noise.drawnRatios(baseLaw, otherLaw, 42)).containsExactly(ratios);
		RatioInterval exact = Noise.overSampleLaws(baseLaw, otherLaw).orElseThrow();
		long inside = Arrays.stream(ratios).filter(r -> r >= exact.low() && r <= exact.high()).count();
		assertThat(inside).isBetween(930L, 970L);
	}

	@Test
	void aWindowIsEnoughAndItsRanksAreFew() {
		double[] sorted = samples(250, 9, 0);
		Arrays.sort(sorted);
		MedianLaw.Ranks ranks = MedianLaw.ranks(250);
		double[] window = Arrays.copyOfRange(sorted, ranks.first(), ranks.last() + 1);
		assertThat(MedianLaw.of(250, ranks.first(), window).values())
			.containsExactly(MedianLaw.ofSamples(sorted).values());
		assertThat(window.length).isLessThan(250);
	}

}
