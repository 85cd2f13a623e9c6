package dev.parity.stats;

import java.util.Arrays;
import java.util.Optional;
import java.util.SplittableRandom;

import org.apache.commons.statistics.descriptive.Mean;
import org.apache.commons.statistics.descriptive.Median;
import org.apache.commons.statistics.descriptive.NaNPolicy;
import org.apache.commons.statistics.descriptive.Quantile;
import org.apache.commons.statistics.descriptive.Variance;
import org.apache.commons.statistics.distribution.TDistribution;
import org.apache.commons.statistics.inference.DataDispersion;
import org.apache.commons.statistics.inference.TTest;

/**
 * The 95 % interval of a ratio contender / baseline, from what is known of each side's
 * noise:
 * <ul>
 * <li>3–7 runs on the smaller side: Welch's t on the log of each run's value (interval
 * and p-value);</li>
 * <li>8 runs or more on each side: percentile bootstrap over runs, p-value by the same
 * resampling;</li>
 * <li>one run per side with at least 10 samples each: percentile bootstrap over samples,
 * which measures the noise of requests within a run, not the drift between runs (several
 * times larger): it says so;</li>
 * <li>otherwise no interval: a normal approximation on 3 numbers or fewer is not an
 * interval.</li>
 * </ul>
 * Every resampling draws from a {@link SplittableRandom} seeded by the caller
 * ({@link Seed}), so the same inputs give the same interval everywhere. Stateless.
 */
public final class Noise {

	/** Resamples of every bootstrap. */
	public static final int RESAMPLES = 1000;

	/** Runs per side from which Welch's t gives an interval. */
	public static final int MIN_RUNS = 3;

	/** Runs per side from which the bootstrap over runs replaces Welch's t. */
	public static final int MIN_RUNS_BOOTSTRAP = 8;

	/** Samples per side from which one run per side gets an interval from its samples. */
	public static final int MIN_SAMPLES = 10;

	public static final double CONFIDENCE = 0.95;

	private static final double LOW = (1 - CONFIDENCE) / 2;

	private static final double HIGH = 1 - LOW;

	private Noise() {
	}

	/**
	 * The interval from each run's value on each side; empty with fewer than 3 runs on a
	 * side or a value that is not positive (a ratio's logarithm needs positive values).
	 */
	public static Optional<RatioInterval> overRuns(double[] baseline, double[] contender, long seed) {
		int runs = Math.min(baseline.length, contender.length);
		if (runs < MIN_RUNS || !positive(baseline) || !positive(contender)) {
			return Optional.empty();
		}
		return Optional
			.of(runs < MIN_RUNS_BOOTSTRAP ? welch(baseline, contender) : bootstrapRuns(baseline, contender, seed));
	}

	/**
	 * Welch's t on log values: the interval of exp(mean log contender − mean log
	 * baseline), a ratio of geometric means, with the Welch–Satterthwaite degrees of
	 * freedom.
	 */
	static RatioInterval welch(double[] baseline, double[] contender) {
		double[] logBase = logs(baseline);
		double[] logOther = logs(contender);
		double difference = Mean.of(logOther).getAsDouble() - Mean.of(logBase).getAsDouble();
		double standardError = Math.sqrt(Variance.of(logOther).getAsDouble() / logOther.length
				+ Variance.of(logBase).getAsDouble() / logBase.length);
		if (standardError == 0) {
			// Every run measured the same on each side: nothing varies, the difference is
			// exact.
			double ratio = Math.exp(difference);
			return new RatioInterval(ratio, ratio, CONFIDENCE, RatioInterval.WELCH, difference == 0 ? 1.0 : 0.0);
		}
		TTest.Result test = TTest.withDefaults().with(DataDispersion.HETEROSCEDASTIC).test(logOther, logBase);
		double quantile = TDistribution.of(test.getDegreesOfFreedom()).inverseCumulativeProbability(HIGH);
		return new RatioInterval(Math.exp(difference - quantile * standardError),
				Math.exp(difference + quantile * standardError), CONFIDENCE, RatioInterval.WELCH, test.getPValue());
	}

	/**
	 * Percentile bootstrap over runs: each side's runs resampled with replacement, the
	 * ratio of their medians.
	 */
	static RatioInterval bootstrapRuns(double[] baseline, double[] contender, long seed) {
		SplittableRandom random = new SplittableRandom(seed);
		Median median = Median.withDefaults();
		double[] ratios = new double[RESAMPLES];
		double[] base = new double[baseline.length];
		double[] other = new double[contender.length];
		for (int b = 0; b < RESAMPLES; b++) {
			resample(baseline, base, random);
			resample(contender, other, random);
			ratios[b] = median.evaluate(other) / median.evaluate(base);
		}
		return percentile(ratios, RatioInterval.BOOTSTRAP_RUNS);
	}

	/**
	 * A run's bootstrap medians of one cell × metric: {@link #RESAMPLES} medians of its
	 * samples resampled with replacement. Computed once at ingest; a comparison only
	 * pairs them ({@link #overSamples}).
	 * @return the medians; empty with fewer than {@link #MIN_SAMPLES} samples
	 */
	public static double[] bootstrapMedians(double[] samples, long seed) {
		if (samples.length < MIN_SAMPLES) {
			return new double[0];
		}
		if (Arrays.stream(samples).anyMatch(value -> Double.isNaN(value) || value == 0)) {
			return bootstrapMediansBySelection(samples, seed);
		}
		// A resample's median depends only on how often each sample was drawn: count the
		// draws by the sample's rank
		// in sorted order, then walk the counts to the middle. The same draws, the same
		// order statistics and the same
		// midpoint as selecting the median of each resample (what earlier versions did,
		// for NaN and zeros still), in a
		// fraction of the time: this runs 1,000 times for every cell × metric of every
		// run stored.
		int n = samples.length;
		double[] sorted = samples.clone();
		Arrays.sort(sorted);
		int[] rank = new int[n];
		for (int i = 0; i < n; i++) {
			rank[i] = Arrays.binarySearch(sorted, samples[i]); // any of equal values:
																// they are the same value
		}
		int lowMiddle = (n - 1) >>> 1;
		int highMiddle = n >>> 1;
		Median ofTwo = Median.withDefaults().withCopy(false);
		double[] middle = new double[2];
		SplittableRandom random = new SplittableRandom(seed);
		int[] drawn = new int[n];
		double[] medians = new double[RESAMPLES];
		for (int b = 0; b < RESAMPLES; b++) {
			Arrays.fill(drawn, 0);
			for (int i = 0; i < n; i++) {
				drawn[rank[random.nextInt(n)]]++;
			}
			int r = 0;
			int below = drawn[0];
			while (below <= lowMiddle) {
				below += drawn[++r];
			}
			double low = sorted[r];
			while (below <= highMiddle) {
				below += drawn[++r];
			}
			if (highMiddle == lowMiddle) {
				medians[b] = low;
			}
			else {
				middle[0] = low;
				middle[1] = sorted[r];
				medians[b] = ofTwo.evaluate(middle); // the library's midpoint, to the
														// last bit
			}
		}
		return medians;
	}

	/**
	 * {@link #bootstrapMedians} as first written: the median selected from each resample.
	 */
	static double[] bootstrapMediansBySelection(double[] samples, long seed) {
		SplittableRandom random = new SplittableRandom(seed);
		// The resample is drawn again each time: the median may reorder it in place.
		Median median = Median.withDefaults().withCopy(false);
		double[] resampled = new double[samples.length];
		double[] medians = new double[RESAMPLES];
		for (int b = 0; b < RESAMPLES; b++) {
			resample(samples, resampled, random);
			medians[b] = median.evaluate(resampled);
		}
		return medians;
	}

	/**
	 * The interval from one run per side, pairing each side's bootstrap medians in an
	 * order drawn from the seed: within-run noise only.
	 * @return empty unless both sides have {@link #RESAMPLES} positive medians
	 */
	public static Optional<RatioInterval> overSamples(double[] baselineMedians, double[] contenderMedians, long seed) {
		if (!pairable(baselineMedians, contenderMedians)) {
			return Optional.empty();
		}
		return Optional.of(overPairedRatios(pairedRatios(baselineMedians, contenderMedians, seed)));
	}

	/**
	 * Whether both sides have {@link #RESAMPLES} positive medians: what
	 * {@link #overSamples} needs.
	 */
	public static boolean pairable(double[] baselineMedians, double[] contenderMedians) {
		return baselineMedians.length == RESAMPLES && contenderMedians.length == RESAMPLES && positive(baselineMedians)
				&& positive(contenderMedians);
	}

	/**
	 * The interval {@link #overSamples} gives, from the ratios {@link #pairedRatios} gave
	 * for the same medians and seed (a comparison keeps them for its headline, so they
	 * are drawn once). The ratios are left as they are (the quantiles are taken over a
	 * copy: commons-statistics' {@code Quantile} partitions the array it is given).
	 */
	public static RatioInterval overPairedRatios(double[] ratios) {
		return percentile(ratios.clone(), RatioInterval.BOOTSTRAP_SAMPLES);
	}

	/**
	 * The resampled ratios behind {@link #overSamples}: contender medians in an order
	 * drawn from the seed over the baseline's medians. Must be given {@link #RESAMPLES}
	 * medians on each side.
	 */
	public static double[] pairedRatios(double[] baselineMedians, double[] contenderMedians, long seed) {
		int[] order = permutation(seed);
		double[] ratios = new double[RESAMPLES];
		for (int b = 0; b < RESAMPLES; b++) {
			ratios[b] = contenderMedians[order[b]] / baselineMedians[b];
		}
		return ratios;
	}

	/**
	 * An order of {@code 0 … RESAMPLES − 1} drawn from the seed: the distinct values of
	 * the seeded draws, in the order they first come
	 * ({@code random.ints(0, RESAMPLES).distinct().limit(RESAMPLES)}, without boxing
	 * every draw into a set: this runs for every compared cell × metric).
	 */
	static int[] permutation(long seed) {
		SplittableRandom random = new SplittableRandom(seed);
		boolean[] seen = new boolean[RESAMPLES];
		int[] order = new int[RESAMPLES];
		int found = 0;
		while (found < RESAMPLES - 1) {
			int next = random.nextInt(0, RESAMPLES);
			if (!seen[next]) {
				seen[next] = true;
				order[found++] = next;
			}
		}
		// The last value is the one not seen yet, however many draws it would take to
		// come (a thousand, on average).
		for (int last = 0; last < RESAMPLES; last++) {
			if (!seen[last]) {
				order[found] = last;
			}
		}
		return order;
	}

	/**
	 * The interval from one run per side, from the exact bootstrap laws of their sample
	 * medians ({@link MedianLaw}): the 2.5 % and 97.5 % quantiles of contender median /
	 * baseline median, the two independent, and the p-value twice the smaller of P(ratio
	 * ≤ 1) and P(ratio ≥ 1). What a bootstrap over samples with infinitely many resamples
	 * gives: no resampling, no seed. Each end is the exact quantile, the smallest r with
	 * P(ratio ≤ r) ≥ q, P(ratio ≤ r) = Σ P(B = b) · P(A ≤ r·b) summed in one sweep over
	 * both sorted laws ({@link RatioLaw}).
	 * @return empty unless both laws take only positive values
	 */
	public static Optional<RatioInterval> overSampleLaws(MedianLaw baseline, MedianLaw contender) {
		if (!baseline.positive() || !contender.positive()) {
			return Optional.empty();
		}
		RatioLaw ratio = new RatioLaw(baseline, contender);
		return Optional.of(interval(ratio.quantile(LOW), ratio.quantile(HIGH), baseline, contender));
	}

	/**
	 * The interval over the two exact laws with these ends, and its p-value: twice the
	 * smaller of P(ratio ≤ 1) and P(ratio ≥ 1).
	 */
	static RatioInterval interval(double low, double high, MedianLaw baseline, MedianLaw contender) {
		double atOrBelow = ratioAtOrBelow(baseline, contender, 1, false);
		double atOrAbove = 1 - ratioAtOrBelow(baseline, contender, 1, true);
		double p = Math.min(1, 2 * Math.max(0, Math.min(atOrBelow, atOrAbove)));
		return new RatioInterval(low, high, CONFIDENCE, RatioInterval.BOOTSTRAP_SAMPLES, p);
	}

	/**
	 * {@link #RESAMPLES} ratios contender / baseline drawn from the two exact laws,
	 * seeded: what a headline's median ratio over cells is resampled from (each cell's
	 * ratios drawn independently of the other cells').
	 */
	public static double[] drawnRatios(MedianLaw baseline, MedianLaw contender, long seed) {
		SplittableRandom random = new SplittableRandom(seed);
		double[] ratios = new double[RESAMPLES];
		for (int b = 0; b < RESAMPLES; b++) {
			double base = baseline.draw(random.nextDouble());
			ratios[b] = contender.draw(random.nextDouble()) / base;
		}
		return ratios;
	}

	/**
	 * P(contender / baseline ≤ r), or {@code < r} when {@code strictly}: Σ over the
	 * baseline's values b of P(B = b) · P(A ≤ r·b), in one sweep (both ascending).
	 */
	static double ratioAtOrBelow(MedianLaw baseline, MedianLaw contender, double r, boolean strictly) {
		double sum = 0;
		double previous = 0;
		int a = 0;
		int size = contender.size();
		for (int b = 0; b < baseline.size(); b++) {
			double limit = r * baseline.value(b);
			while (a < size && (strictly ? contender.value(a) < limit : contender.value(a) <= limit)) {
				a++;
			}
			double below = a == 0 ? 0 : contender.cumulative(a - 1);
			double mass = baseline.cumulative(b) - previous;
			previous = baseline.cumulative(b);
			sum += mass * below;
		}
		return sum;
	}

	/**
	 * The median ratio over cells, resampled: for each resample, the median over the
	 * cells of their resampled ratios ({@code ratios[cell][b]}), then the percentile
	 * interval of those medians.
	 */
	public static RatioInterval medianOverCells(double[][] ratios, String method) {
		Median median = Median.withDefaults().with(NaNPolicy.EXCLUDE);
		double[] medians = new double[RESAMPLES];
		double[] across = new double[ratios.length];
		for (int b = 0; b < RESAMPLES; b++) {
			for (int cell = 0; cell < ratios.length; cell++) {
				across[cell] = ratios[cell][b];
			}
			medians[b] = median.evaluate(across);
		}
		return percentile(medians, method);
	}

	/**
	 * The median ratio over cells with the runs resampled together (a run is drawn for
	 * all its cells at once, so what a run shares across cells stays together):
	 * {@code baseline[cell][run]}, {@code NaN} where a run has no value. Only from
	 * {@link #MIN_RUNS_BOOTSTRAP} runs per side; empty otherwise.
	 */
	public static Optional<RatioInterval> medianOverCellsByRuns(double[][] baseline, double[][] contender, long seed) {
		if (baseline.length == 0 || Math.min(baseline[0].length, contender[0].length) < MIN_RUNS_BOOTSTRAP) {
			return Optional.empty();
		}
		SplittableRandom random = new SplittableRandom(seed);
		Median median = Median.withDefaults().with(NaNPolicy.EXCLUDE);
		int[] baseRuns = new int[baseline[0].length];
		int[] otherRuns = new int[contender[0].length];
		double[][] ratios = new double[baseline.length][RESAMPLES];
		double[] base = new double[baseRuns.length];
		double[] other = new double[otherRuns.length];
		for (int b = 0; b < RESAMPLES; b++) {
			for (int i = 0; i < baseRuns.length; i++) {
				baseRuns[i] = random.nextInt(baseRuns.length);
			}
			for (int i = 0; i < otherRuns.length; i++) {
				otherRuns[i] = random.nextInt(otherRuns.length);
			}
			for (int cell = 0; cell < baseline.length; cell++) {
				for (int i = 0; i < baseRuns.length; i++) {
					base[i] = baseline[cell][baseRuns[i]];
				}
				for (int i = 0; i < otherRuns.length; i++) {
					other[i] = contender[cell][otherRuns[i]];
				}
				ratios[cell][b] = median.evaluate(other) / median.evaluate(base);
			}
		}
		return Optional.of(medianOverCells(ratios, RatioInterval.BOOTSTRAP_RUNS));
	}

	/**
	 * The 2.5 % and 97.5 % quantiles of resampled ratios; p-value: twice the smaller tail
	 * beyond ratio 1.
	 */
	private static RatioInterval percentile(double[] ratios, String method) {
		double[] ends = Quantile.withDefaults().with(NaNPolicy.EXCLUDE).evaluate(ratios, LOW, HIGH);
		long atOrBelow = Arrays.stream(ratios).filter(ratio -> ratio <= 1).count();
		long atOrAbove = Arrays.stream(ratios).filter(ratio -> ratio >= 1).count();
		double p = Math.min(1, 2.0 * (Math.min(atOrBelow, atOrAbove) + 1) / (ratios.length + 1));
		return new RatioInterval(ends[0], ends[1], CONFIDENCE, method, p);
	}

	private static void resample(double[] from, double[] into, SplittableRandom random) {
		for (int i = 0; i < into.length; i++) {
			into[i] = from[random.nextInt(from.length)];
		}
	}

	private static double[] logs(double[] values) {
		return Arrays.stream(values).map(Math::log).toArray();
	}

	private static boolean positive(double[] values) {
		return Arrays.stream(values).allMatch(value -> value > 0 && Double.isFinite(value));
	}

}
