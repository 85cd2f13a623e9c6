package dev.parity.stats;

import java.util.Arrays;

import org.apache.commons.statistics.distribution.NormalDistribution;

/**
 * The law of contender median / baseline median, the two independent, each with its exact
 * bootstrap law ({@link MedianLaw}): for its quantiles, exactly.
 * <p>
 * P(ratio ≤ r) = Σ P(B = b) · P(A ≤ r·b), summed in one sweep over both sorted laws (as
 * {@link Noise#ratioAtOrBelow} sums it). It rises only where r·b reaches some value a:
 * the ratios the law can take, one for each pair (a, b), a matrix sorted both ways. A
 * quantile q is the smallest r with P(ratio ≤ r) ≥ q; it is one of those ratios.
 * <p>
 * It is found by narrowing a bracket (low, high], P(≤ low) &lt; q ≤ P(≤ high), keeping
 * for each b how many a lie at or below each end, so that the ratios left between the
 * ends are known. The first point is the lognormal quantile with the two laws' own log
 * means and spreads; the next is read off the straight line through the ends on log r
 * against the normal quantile of P (regula falsi, with the Illinois halving), and every
 * fourth halves the bracket on the log scale. Once at most {@value #FEW} ratios are left
 * between the ends they are sorted and walked, each counted from where {@code a ≤ r · b}
 * starts to hold ({@link #threshold}).
 */
final class RatioLaw {

	/** Ratios left between the ends below which they are sorted and searched. */
	static final int FEW = 128;

	private static final NormalDistribution NORMAL = NormalDistribution.of(0, 1);

	/** The contender's values, ascending: the numerators. */
	private final double[] top;

	/** P(A ≤ top[i]). */
	private final double[] topCumulative;

	/** The baseline's values, ascending: the denominators. */
	private final double[] bottom;

	/** P(A = top[i]). */
	private final double[] topMass;

	/** P(B = bottom[i]). */
	private final double[] bottomMass;

	/** Probabilities worked out, for the tests. */
	private int sweeps;

	/** The mean and variance of the log of each side's median. */
	private final double[] topMoments;

	private final double[] bottomMoments;

	RatioLaw(MedianLaw baseline, MedianLaw contender) {
		topMoments = contender.logMoments();
		bottomMoments = baseline.logMoments();
		top = contender.valuesShared();
		topCumulative = contender.cumulativeShared();
		topMass = masses(topCumulative);
		bottom = baseline.valuesShared();
		bottomMass = masses(baseline.cumulativeShared());
	}

	/** How many probabilities the quantiles asked so far have worked out. */
	int sweeps() {
		return sweeps;
	}

	/** The smallest ratio the law can take with P(ratio ≤ it) ≥ {@code q}. */
	double quantile(double q) {
		int rows = bottom.length;
		int columns = top.length;
		double highRatio = top[columns - 1] / bottom[0];
		double highProbability = 0;
		for (int b = 0; b < rows; b++) {
			highProbability += bottomMass[b] * topCumulative[columns - 1];
		}
		if (highProbability < q) {
			return highRatio;
		}
		// The ends: below the smallest ratio (none at or below it), and the largest.
		Bracket bracket = new Bracket(rows, columns);
		double logLow = Math.log(top[0] / bottom[rows - 1]) - 1;
		double lowRatio = Math.exp(logLow);
		double lowProbability = 0;
		double logHigh = Math.log(highRatio);
		// On the scales where a lognormal ratio's law is a straight line: the log of the
		// ratio against the normal quantile of its probability. The first point is the
		// lognormal's with the laws' own log means and spreads; until both ends have
		// been probed, a step along that line.
		double target = NORMAL.inverseCumulativeProbability(q);
		double spread = Math.sqrt(bottomMoments[1] + topMoments[1]);
		double next = topMoments[0] - bottomMoments[0] + target * spread;
		double lowScore = Double.NaN;
		double highScore = Double.NaN;
		// The end kept twice running has its distance to the target halved (Illinois).
		int kept = 0;
		for (int step = 1;; step++) {
			if (bracket.left <= FEW) {
				return amongFew(q, bracket, lowProbability);
			}
			if (step % 4 == 0) {
				next = (logLow + logHigh) / 2;
			}
			else if (!Double.isNaN(lowScore) && !Double.isNaN(highScore)) {
				next = logLow + (logHigh - logLow) * (target - lowScore) / (highScore - lowScore);
			}
			else if (!Double.isNaN(lowScore)) {
				next = logLow + 1.2 * (target - lowScore) * spread;
			}
			else if (!Double.isNaN(highScore)) {
				next = logHigh - 1.2 * (highScore - target) * spread;
			}
			double ratio = Math.exp(next);
			if (!(ratio > lowRatio && ratio < highRatio)) {
				ratio = lowRatio + (highRatio - lowRatio) / 2;
				if (!(ratio > lowRatio && ratio < highRatio)) {
					// The ends are neighbouring doubles: every ratio left is the high
					// end.
					return highRatio;
				}
				next = Math.log(ratio);
			}
			double probability = bracket.atOrBelow(ratio);
			double score = NORMAL.inverseCumulativeProbability(Math.min(1 - 1e-16, Math.max(1e-300, probability)));
			if (probability >= q) {
				logHigh = next;
				highRatio = ratio;
				highScore = score;
				bracket.moveTo(false);
				if (kept == 1 && !Double.isNaN(lowScore)) {
					lowScore = target - (target - lowScore) / 2;
				}
				kept = 1;
			}
			else {
				logLow = next;
				lowRatio = ratio;
				lowProbability = probability;
				lowScore = score;
				bracket.moveTo(true);
				if (kept == -1 && !Double.isNaN(highScore)) {
					highScore = target + (highScore - target) / 2;
				}
				kept = -1;
			}
		}
	}

	/** For each b, how many a lie at or below each end of the bracket. */
	private final class Bracket {

		final int[] low;

		final int[] high;

		final int[] probe;

		/** The ratios between the ends. */
		long left;

		Bracket(int rows, int columns) {
			low = new int[rows];
			high = new int[rows];
			probe = new int[rows];
			Arrays.fill(high, columns);
			left = (long) rows * columns;
		}

		/**
		 * P(ratio ≤ r), each b's count at r in {@link #probe}: the sweep of
		 * {@link Noise#ratioAtOrBelow}, the same sums in the same order, over the arrays
		 * themselves (calling that sweep with a place for the counts made the intervals
		 * 10–40 % slower in the benchmark).
		 */
		double atOrBelow(double r) {
			sweeps++;
			double sum = 0;
			int a = 0;
			int columns = top.length;
			for (int b = 0; b < bottom.length; b++) {
				double limit = r * bottom[b];
				while (a < columns && top[a] <= limit) {
					a++;
				}
				probe[b] = a;
				sum += bottomMass[b] * (a == 0 ? 0 : topCumulative[a - 1]);
			}
			return sum;
		}

		/** The point probed last becomes the low end, or the high. */
		void moveTo(boolean lowEnd) {
			System.arraycopy(probe, 0, lowEnd ? low : high, 0, probe.length);
			long between = 0;
			for (int b = 0; b < probe.length; b++) {
				between += high[b] - low[b];
			}
			left = between;
		}

	}

	/**
	 * The ratios left between the ends, sorted, P(≤ each) the low end's plus theirs up to
	 * it: the first whose P reaches q (the last does: P(≤ it) is the high end's).
	 */
	private double amongFew(double q, Bracket bracket, double lowProbability) {
		double[][] left = new double[FEW][];
		int count = 0;
		for (int b = 0; b < bottom.length; b++) {
			for (int a = bracket.low[b]; a < bracket.high[b]; a++) {
				left[count++] = new double[] { threshold(top[a], bottom[b]), bottomMass[b] * topMass[a] };
			}
		}
		Arrays.sort(left, 0, count, (x, y) -> Double.compare(x[0], y[0]));
		double probability = lowProbability;
		for (int i = 0; i < count - 1; i++) {
			probability += left[i][1];
			if (probability >= q && left[i + 1][0] != left[i][0]) {
				return left[i][0];
			}
		}
		return left[count - 1][0];
	}

	/**
	 * The smallest r with {@code top ≤ r · bottom} as Java multiplies: where the ratio
	 * {@code top / bottom} starts to count in P(ratio ≤ r) (the quotient itself, or a
	 * neighbouring double).
	 */
	static double threshold(double top, double bottom) {
		double r = top / bottom;
		while (r * bottom < top) {
			r = Math.nextUp(r);
		}
		while (Math.nextDown(r) * bottom >= top) {
			r = Math.nextDown(r);
		}
		return r;
	}

	/** P(X = each value) from P(X ≤ each). */
	private static double[] masses(double[] cumulative) {
		double[] mass = new double[cumulative.length];
		double previous = 0;
		for (int i = 0; i < cumulative.length; i++) {
			mass[i] = cumulative[i] - previous;
			previous = cumulative[i];
		}
		return mass;
	}

}
