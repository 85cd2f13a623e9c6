package dev.parity.stats;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The quantiles of contender median / baseline median ({@link RatioLaw}): the smallest
 * double r at which P(contender ≤ r · baseline), as the p-value's sweep computes it,
 * reaches q; for small laws the same ratio as every ratio the two laws can give, listed
 * and sorted; and at most 10⁻¹² below what the bisection they replace gave.
 */
class RatioLawTests {

	private static final double[] QUANTILES = { 0.025, 0.975, 0.5, 0.001, 0.999, 0.3 };

	private static double[] samples(int n, long seed, double scale, double spread, double roundTo) {
		SplittableRandom random = new SplittableRandom(seed);
		double[] samples = new double[n];
		for (int i = 0; i < n; i++) {
			double value = scale * Math.exp(spread * random.nextGaussian());
			samples[i] = roundTo > 0 ? Math.max(roundTo, Math.round(value / roundTo) * roundTo) : value;
		}
		return samples;
	}

	/**
	 * Every ratio with its probability, sorted: the smallest whose running sum reaches q.
	 */
	private static double listed(MedianLaw baseline, MedianLaw contender, double q) {
		int count = baseline.size() * contender.size();
		double[][] ratios = new double[count][];
		int i = 0;
		for (int b = 0; b < baseline.size(); b++) {
			double massB = baseline.cumulative(b) - (b == 0 ? 0 : baseline.cumulative(b - 1));
			for (int a = 0; a < contender.size(); a++) {
				double massA = contender.cumulative(a) - (a == 0 ? 0 : contender.cumulative(a - 1));
				ratios[i++] = new double[] { RatioLaw.threshold(contender.value(a), baseline.value(b)), massA * massB };
			}
		}
		Arrays.sort(ratios, (x, y) -> Double.compare(x[0], y[0]));
		double sum = 0;
		for (int k = 0; k < count; k++) {
			sum += ratios[k][1];
			boolean lastOfItsValue = k == count - 1 || ratios[k + 1][0] != ratios[k][0];
			if (lastOfItsValue && sum >= q) {
				return ratios[k][0];
			}
		}
		return ratios[count - 1][0];
	}

	@ParameterizedTest(name = "{0} and {1} samples, spreads {2} and {3}, rounded to {4}")
	@CsvSource({ "11, 11, 0.3, 0.3, 0", "51, 60, 0.1, 0.4, 0", "100, 100, 0.3, 0.3, 0", "100, 100, 0.02, 0.02, 0",
			"250, 31, 0.5, 0.05, 0", "60, 60, 0.3, 0.3, 10", "100, 99, 0.2, 0.2, 1", "40, 40, 0.0001, 3, 0" })
	void eachQuantileIsTheRatioTheSortedListGives(int baselineSamples, int contenderSamples, double baselineSpread,
			double contenderSpread, double roundTo) {
		for (long seed = 0; seed < 5; seed++) {
			MedianLaw baseline = MedianLaw
				.ofSamples(samples(baselineSamples, 100 + seed, 100, baselineSpread, roundTo));
			MedianLaw contender = MedianLaw
				.ofSamples(samples(contenderSamples, 200 + seed, 120, contenderSpread, roundTo));
			for (double q : QUANTILES) {
				double found = new RatioLaw(baseline, contender).quantile(q);
				if ((long) baseline.size() * contender.size() <= 200_000) {
					assertThat(found).as("quantile %s, seed %s", q, seed).isEqualTo(listed(baseline, contender, q));
				}
				// The smallest double at which P(contender ≤ r · baseline), swept as the
				// p-value sweeps it, reaches q.
				assertThat(Noise.ratioAtOrBelow(baseline, contender, found, false)).isGreaterThanOrEqualTo(q);
				assertThat(Noise.ratioAtOrBelow(baseline, contender, Math.nextDown(found), false)).isLessThan(q);
				// The bisection stopped within 10⁻¹² above it.
				assertThat(BisectedRatioQuantile.quantile(baseline, contender, q))
					.as("bisection, quantile %s, seed %s", q, seed)
					.isBetween(found, found * (1 + 1e-12));
			}
		}
	}

	@Test
	void aLawOfOneValueOnEitherSideGivesTheirRatio() {
		MedianLaw three = MedianLaw.ofSamples(new double[] { 3, 3, 3, 3, 3, 3, 3, 3, 3, 3 });
		MedianLaw spread = MedianLaw.ofSamples(samples(30, 5, 100, 0.3, 0));
		assertThat(new RatioLaw(three, three).quantile(0.025)).isEqualTo(1.0);
		for (double q : QUANTILES) {
			assertThat(new RatioLaw(three, spread).quantile(q)).isEqualTo(listed(three, spread, q));
			assertThat(new RatioLaw(spread, three).quantile(q)).isEqualTo(listed(spread, three, q));
		}
	}

	@Test
	void aQuantileOfLargeLawsTakesFewerSweepsThanTheBisection() {
		MedianLaw baseline = MedianLaw.ofSamples(samples(2_000, 1, 100, 0.3, 0));
		MedianLaw contender = MedianLaw.ofSamples(samples(2_000, 2, 110, 0.3, 0));
		RatioLaw law = new RatioLaw(baseline, contender);
		law.quantile(0.025);
		law.quantile(0.975);
		// The bisection swept both laws whole about 40 times per end.
		assertThat(law.sweeps()).isLessThan(40);
	}

}
