package dev.parity.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.apache.commons.statistics.distribution.TDistribution;
import org.jspecify.annotations.Nullable;

/**
 * Change points of one series of values by E-Divisive means with a Student t-test,
 * computed exactly as Apache Otava ({@code otava/analysis.py},
 * {@code otava/change_point_divisive/}) computes them, so that the same values give the
 * same change points: split on sliding windows of {@code window} points stepping by half
 * a window, with a first-pass threshold of 10 × {@code maxPvalue}; then merge, dropping
 * the weakest change point while its p-value is at least {@code maxPvalue} and
 * recomputing the points after it. The test is the pooled two-sided Student test fed with
 * the population standard deviations of both sides (not Welch's test, not sample
 * deviations), as Otava does.
 * <p>
 * Every step follows Otava's order of operations (sums, cumulative sums, the first
 * maximum in row-major order, the neighbours recomputed after a merge), because a
 * different order can pick a different point on a tie. The tests compare with Otava's own
 * outputs ({@code src/test/resources/history/otava/}).
 */
public final class EDivisive {

	private EDivisive() {
	}

	/**
	 * The statistics of a split: means and population deviations of both sides and the
	 * t-test's p-value.
	 *
	 * @param meanBefore the mean of the points before the change
	 * @param meanAfter the mean of the points from the change on
	 * @param stdBefore their population standard deviation (0 for a single point)
	 * @param stdAfter likewise after the change
	 * @param pvalue the two-sided pooled Student t-test's p-value
	 */
	public record Stats(double meanBefore, double meanAfter, double stdBefore, double stdAfter, double pvalue) {

		/**
		 * Relative change from before to after: {@code after / before - 1} (0 when before
		 * is 0, as Otava).
		 */
		public double forwardChange() {
			return meanBefore == 0 ? 0 : meanAfter / meanBefore - 1.0;
		}

		/** Relative change from after to before (0 when after is 0, as Otava). */
		public double backwardChange() {
			return meanAfter == 0 ? 0 : meanBefore / meanAfter - 1.0;
		}

		/**
		 * Otava's magnitude: the larger of the two relative changes, in absolute value.
		 */
		public double magnitude() {
			return Math.max(Math.abs(forwardChange()), Math.abs(backwardChange()));
		}

	}

	/**
	 * A change point: the index of the first point after the shift.
	 *
	 * @param index the first point of the new level
	 * @param qhat the divergence that picked it (within the window it was found in)
	 * @param stats the split's statistics over the neighbouring change points
	 */
	public record ChangePoint(int index, double qhat, Stats stats) {
	}

	/**
	 * The change points of {@code series} with Otava's defaults for the minimum magnitude
	 * (0).
	 */
	public static List<ChangePoint> changePoints(double[] series, int window, double maxPvalue) {
		return changePoints(series, window, maxPvalue, 0.0);
	}

	/**
	 * Otava's
	 * {@code compute_change_points(series, window_len, max_pvalue, min_magnitude)}.
	 */
	public static List<ChangePoint> changePoints(double[] series, int window, double maxPvalue, double minMagnitude) {
		return changePoints(series, window, maxPvalue, minMagnitude, null).changePoints();
	}

	/**
	 * The change points of a series, and where its split can go on from when points are
	 * appended to it.
	 *
	 * @param changePoints what {@link #changePoints(double[], int, double, double)} finds
	 * @param resume for a longer series that begins with these values
	 */
	public record Found(List<ChangePoint> changePoints, Resume resume) {
	}

	/**
	 * Where the sliding windows of a split reach the end of the series: every window
	 * before the first that does is made of the same values in any longer series that
	 * begins with these, so it finds the same points, and (Otava's walk goes left to
	 * right, each window's start following from what the windows before it found) the
	 * windows begin at the same places up to there. A split of the longer series goes on
	 * from that window. With it, the statistics of the splits this series' change points
	 * were tested on: over the same values, the same numbers.
	 */
	public static final class Resume {

		/** The values, never changed once given. */
		private final double[] series;

		private final int window;

		private final double maxPvalue;

		/**
		 * The start of the first window that reaches past the values' end, and the points
		 * found before it.
		 */
		private final int start;

		private final List<ChangePoint> found;

		private final Map<Span, Stats> stats;

		private Resume(double[] series, int window, double maxPvalue, int start, List<ChangePoint> found,
				Map<Span, Stats> stats) {
			this.series = series;
			this.window = window;
			this.maxPvalue = maxPvalue;
			this.start = start;
			this.found = found;
			this.stats = stats;
		}

		/**
		 * Whether {@code longer} begins with the values this split was made of, under the
		 * same window and threshold.
		 */
		boolean continues(double[] longer, int window, double maxPvalue) {
			return this.window == window && Double.compare(this.maxPvalue, maxPvalue) == 0
					&& longer.length >= series.length
					&& Arrays.equals(series, 0, series.length, longer, 0, series.length);
		}

	}

	/**
	 * The two sides of a split, {@code [leftStart, leftEnd)} and
	 * {@code [rightStart, rightEnd)}.
	 */
	private record Span(int leftStart, int leftEnd, int rightStart, int rightEnd) {
	}

	/**
	 * One computation of the change points of a series: the statistics it tested splits
	 * on (those of the series it goes on from, where their sides lie within that series'
	 * values, are taken from there) and where its split reached the end of the series.
	 */
	private static final class Walk {

		private final double[] series;

		private final Map<Span, Stats> known;

		private final int knownLength;

		private final Map<Span, Stats> used = new HashMap<>();

		private int resumeStart = -1;

		private List<ChangePoint> resumeFound = List.of();

		Walk(double[] series, @Nullable Resume from) {
			this.series = series;
			known = from == null ? Map.of() : from.stats;
			knownLength = from == null ? 0 : from.series.length;
		}

		Stats compare(int leftStart, int leftEnd, int rightStart, int rightEnd) {
			Span span = new Span(leftStart, leftEnd, rightStart, rightEnd);
			Stats stats = used.get(span);
			if (stats == null) {
				stats = Math.max(leftEnd, rightEnd) <= knownLength ? known.get(span) : null;
				if (stats == null) {
					stats = EDivisive.compare(series, leftStart, leftEnd, rightStart, rightEnd);
				}
				used.put(span, stats);
			}
			return stats;
		}

		Resume resume(int window, double maxPvalue) {
			return resumeStart < 0 ? new Resume(series, window, maxPvalue, 0, List.of(), Map.copyOf(used))
					: new Resume(series, window, maxPvalue, resumeStart, resumeFound, Map.copyOf(used));
		}

	}

	/**
	 * {@link #changePoints(double[], int, double, double)}, its split going on from
	 * {@code from} when {@code series} begins with the values {@code from} was made of
	 * (else from the start): the same change points either way.
	 * @param series the values, which the caller does not change afterwards (the resume
	 * keeps them)
	 */
	public static Found changePoints(double[] series, int window, double maxPvalue, double minMagnitude,
			@Nullable Resume from) {
		double firstPass = maxPvalue < 0.05 ? maxPvalue * 10 : (maxPvalue < 0.5 ? maxPvalue * 2 : maxPvalue);
		Resume goesOn = from != null && from.continues(series, window, firstPass) ? from : null;
		Walk walk = new Walk(series, goesOn);
		List<ChangePoint> weak = split(series, window, firstPass, goesOn, walk);
		List<ChangePoint> merged = merge(weak, series, maxPvalue, minMagnitude, walk);
		return new Found(merged, walk.resume(window, firstPass));
	}

	/**
	 * Otava's {@code split}: the weak change points of every sliding window, their stats
	 * over the whole series.
	 */
	static List<ChangePoint> split(double[] series, int window, double maxPvalue) {
		return split(series, window, maxPvalue, null, new Walk(series, null));
	}

	/**
	 * Otava's {@code split}, going on from {@code from} (which the series continues) when
	 * there is one.
	 */
	private static List<ChangePoint> split(double[] series, int window, double maxPvalue, @Nullable Resume from,
			Walk walk) {
		if (window < 2) {
			throw new IllegalArgumentException("the window must be at least 2 points, not " + window);
		}
		int start = 0;
		int step = window / 2;
		List<ChangePoint> changePoints = new ArrayList<>();
		if (from != null) {
			start = from.start;
			changePoints.addAll(from.found);
		}
		while (start < series.length) {
			int end = Math.min(start + window, series.length);
			if (walk.resumeStart < 0 && start + window > series.length) {
				walk.resumeStart = start;
				walk.resumeFound = List.copyOf(changePoints);
			}
			List<ChangePoint> found = shift(detected(Arrays.copyOfRange(series, start, end), maxPvalue), start);
			int lastFound = found.isEmpty() ? 0 : found.get(found.size() - 1).index();
			start = Math.max(lastFound, start + step);
			for (ChangePoint point : found) {
				if (changePoints.stream().noneMatch(known -> known.index() == point.index())) {
					changePoints.add(point);
				}
			}
		}
		changePoints.sort(Comparator.comparingInt(ChangePoint::index));
		List<int[]> intervals = intervals(changePoints, series.length);
		List<ChangePoint> result = new ArrayList<>(changePoints.size());
		for (ChangePoint point : changePoints) {
			result.add(changePoint(point.index(), point.qhat(), series, intervals, walk));
		}
		return result;
	}

	/**
	 * Otava's {@code merge}: drop the weakest change point until every one left is
	 * significant (and large enough).
	 */
	static List<ChangePoint> merge(List<ChangePoint> weak, double[] series, double maxPvalue, double minMagnitude) {
		return merge(weak, series, maxPvalue, minMagnitude, new Walk(series, null));
	}

	private static List<ChangePoint> merge(List<ChangePoint> weak, double[] series, double maxPvalue,
			double minMagnitude, Walk walk) {
		List<ChangePoint> changePoints = new ArrayList<>(weak);
		while (!changePoints.isEmpty()) {
			ChangePoint weakest = changePoints.get(0);
			for (ChangePoint point : changePoints) {
				// Python's max(): the first of the largest; a NaN compares false and so
				// is never replaced by a later one.
				if (point.stats().pvalue() > weakest.stats().pvalue()) {
					weakest = point;
				}
			}
			if (weakest.stats().pvalue() < maxPvalue) {
				weakest = changePoints.get(0);
				for (ChangePoint point : changePoints) {
					if (point.stats().magnitude() < weakest.stats().magnitude()) {
						weakest = point;
					}
				}
				if (weakest.stats().magnitude() > minMagnitude) {
					return changePoints;
				}
			}
			int removed = changePoints.indexOf(weakest);
			changePoints.remove(removed);
			List<int[]> intervals = intervals(changePoints, series.length);
			// As Otava: the two change points that follow the removed one are recomputed
			// (the one before keeps its stats).
			for (int index : new int[] { removed, removed + 1 }) {
				if (index < changePoints.size()) {
					ChangePoint point = changePoints.get(index);
					changePoints.set(index, changePoint(point.index(), point.qhat(), series, intervals, walk));
				}
			}
		}
		return changePoints;
	}

	/**
	 * A window's values and the threshold: what its detection depends on, and nothing
	 * else.
	 */
	private record Window(double[] values, double maxPvalue) {

		@Override
		public boolean equals(Object other) {
			return other instanceof Window window && Double.compare(maxPvalue, window.maxPvalue) == 0
					&& Arrays.equals(values, window.values);
		}

		@Override
		public int hashCode() {
			return 31 * Arrays.hashCode(values) + Double.hashCode(maxPvalue);
		}

	}

	/**
	 * Detections by window. A new point of a series changes only its last windows (a
	 * window's bounds follow from the windows before it), so a series analysed again
	 * after one more run finds every earlier window here: its detection costs its last
	 * window or two. Keyed by the values themselves, so an entry is never stale.
	 */
	private static final Cache<Window, List<ChangePoint>> DETECTED = Caffeine.newBuilder().maximumSize(100_000).build();

	private static List<ChangePoint> detected(double[] window, double maxPvalue) {
		return DETECTED.get(new Window(window, maxPvalue),
				key -> List.copyOf(detect(key.values(), key.maxPvalue(), 0)));
	}

	private static List<ChangePoint> shift(List<ChangePoint> found, int offset) {
		if (offset == 0) {
			return found;
		}
		List<ChangePoint> shifted = new ArrayList<>(found.size());
		for (ChangePoint point : found) {
			shifted.add(new ChangePoint(point.index() + offset, point.qhat(), point.stats()));
		}
		return shifted;
	}

	/**
	 * Otava's {@code ChangePointDetector.get_change_points} on one window, indexes
	 * shifted by {@code offset}.
	 */
	private static List<ChangePoint> detect(double[] window, double maxPvalue, int offset) {
		PairDistances distances = new PairDistances(window);
		List<ChangePoint> changePoints = new ArrayList<>();
		while (true) {
			List<int[]> intervals = intervals(changePoints, window.length);
			double[] candidate = null;
			for (int[] interval : intervals) {
				if (interval[1] - interval[0] > 1) {
					double[] next = distances.candidate(interval[0], interval[1]);
					if (candidate == null || next[1] > candidate[1]) {
						candidate = next;
					}
				}
			}
			if (candidate == null) {
				break;
			}
			ChangePoint point = changePoint((int) candidate[0], candidate[1], window, intervals);
			if (point.stats().pvalue() <= maxPvalue) {
				changePoints.add(point);
				changePoints.sort(Comparator.comparingInt(ChangePoint::index));
			}
			else {
				break;
			}
		}
		List<ChangePoint> shifted = new ArrayList<>(changePoints.size());
		for (ChangePoint point : changePoints) {
			shifted.add(new ChangePoint(point.index() + offset, point.qhat(), point.stats()));
		}
		return shifted;
	}

	/**
	 * Otava's {@code get_intervals}: the pieces between change points (sorted), empty
	 * ones left out.
	 */
	private static List<int[]> intervals(List<ChangePoint> changePoints, int length) {
		List<int[]> intervals = new ArrayList<>(changePoints.size() + 1);
		for (int i = 0; i <= changePoints.size(); i++) {
			int start = i == 0 ? 0 : changePoints.get(i - 1).index();
			int stop = i == changePoints.size() ? length : changePoints.get(i).index();
			if (start != stop) {
				intervals.add(new int[] { start, stop });
			}
		}
		return intervals;
	}

	/**
	 * Otava's {@code TTestSignificanceTester.change_point}: an existing change point
	 * compares the two intervals it separates; a new candidate splits the interval it
	 * falls in.
	 */
	private static ChangePoint changePoint(int index, double qhat, double[] series, List<int[]> intervals) {
		return changePoint(index, qhat, series, intervals, null);
	}

	/**
	 * {@link #changePoint(int, double, double[], List)}, its statistics through
	 * {@code walk} where there is one.
	 */
	private static ChangePoint changePoint(int index, double qhat, double[] series, List<int[]> intervals,
			@Nullable Walk walk) {
		for (int i = 0; i < intervals.size(); i++) {
			int[] interval = intervals.get(i);
			if (interval[1] == index) {
				int[] next = intervals.get(i + 1);
				return new ChangePoint(index, qhat,
						walk != null ? walk.compare(interval[0], interval[1], next[0], next[1])
								: compare(series, interval[0], interval[1], next[0], next[1]));
			}
			if (interval[0] < index && index < interval[1]) {
				return new ChangePoint(index, qhat, walk != null ? walk.compare(interval[0], index, index, interval[1])
						: compare(series, interval[0], index, index, interval[1]));
			}
		}
		throw new IllegalArgumentException("change point at " + index + " is in no interval");
	}

	/**
	 * The pooled two-sided Student t-test on population deviations, as Otava's
	 * {@code compare}.
	 */
	static Stats compare(double[] series, int leftStart, int leftEnd, int rightStart, int rightEnd) {
		int n1 = leftEnd - leftStart;
		int n2 = rightEnd - rightStart;
		if (n1 == 0 || n2 == 0) {
			throw new IllegalArgumentException("a side of the split is empty");
		}
		double mean1 = mean(series, leftStart, leftEnd);
		double mean2 = mean(series, rightStart, rightEnd);
		double std1 = n1 >= 2 ? std(series, leftStart, leftEnd, mean1) : 0.0;
		double std2 = n2 >= 2 ? std(series, rightStart, rightEnd, mean2) : 0.0;
		double p = n1 + n2 > 2 ? pooledTTest(mean1, std1, n1, mean2, std2, n2) : 1.0;
		return new Stats(mean1, mean2, std1, std2, p);
	}

	/**
	 * scipy's {@code ttest_ind_from_stats(..., equal_var=True, alternative="two-sided")}.
	 */
	static double pooledTTest(double mean1, double std1, int n1, double mean2, double std2, int n2) {
		double df = n1 + n2 - 2.0;
		double pooledVariance = ((n1 - 1) * (std1 * std1) + (n2 - 1) * (std2 * std2)) / df;
		double denominator = Math.sqrt(pooledVariance * (1.0 / n1 + 1.0 / n2));
		double t = (mean1 - mean2) / denominator;
		if (Double.isNaN(t)) {
			return Double.NaN;
		}
		if (Double.isInfinite(t)) {
			return 0.0;
		}
		return 2 * studentT(df).cumulativeProbability(-Math.abs(t));
	}

	/**
	 * Student's t distributions by degrees of freedom: making one computes its
	 * normalisation, which costs.
	 */
	private static final AtomicReferenceArray<TDistribution> STUDENT_T = new AtomicReferenceArray<>(4096);

	static TDistribution studentT(double df) {
		int index = (int) df;
		if (index != df || index < 0 || index >= STUDENT_T.length()) {
			return TDistribution.of(df);
		}
		TDistribution t = STUDENT_T.get(index);
		if (t == null) {
			t = TDistribution.of(df);
			STUDENT_T.set(index, t);
		}
		return t;
	}

	/**
	 * numpy's mean: pairwise summation (eight running sums in blocks of 128), divided by
	 * the count.
	 */
	private static double mean(double[] series, int start, int end) {
		return sum(series, start, end) / (end - start);
	}

	/** numpy's population standard deviation (ddof 0). */
	private static double std(double[] series, int start, int end, double mean) {
		double[] squares = new double[end - start];
		for (int i = start; i < end; i++) {
			double d = series[i] - mean;
			squares[i - start] = d * d;
		}
		return Math.sqrt(sum(squares, 0, squares.length) / squares.length);
	}

	/** numpy's {@code pairwise_sum}, so that means agree to the last bit with Otava's. */
	static double sum(double[] a, int start, int end) {
		int n = end - start;
		if (n < 8) {
			double res = 0.;
			for (int i = start; i < end; i++) {
				res += a[i];
			}
			return res;
		}
		if (n <= 128) {
			double[] r = new double[8];
			for (int j = 0; j < 8; j++) {
				r[j] = a[start + j];
			}
			int i;
			for (i = 8; i < n - (n % 8); i += 8) {
				for (int j = 0; j < 8; j++) {
					r[j] += a[start + i + j];
				}
			}
			double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
			for (; i < n; i++) {
				res += a[start + i];
			}
			return res;
		}
		int n2 = n / 2;
		n2 -= n2 % 8;
		return sum(a, start, start + n2) + sum(a, start + n2, end);
	}

	/**
	 * Otava's {@code PairDistanceCalculator} over one window: the pairwise distances,
	 * their column sums {@code V} and row-wise cumulative sums {@code H}, and from them
	 * every value of the divergence Q(τ, κ) of an interval.
	 */
	private static final class PairDistances {

		private final double[][] distances;

		private final double[] v;

		private final double[][] h;

		PairDistances(double[] series) {
			int n = series.length;
			distances = new double[n][n];
			for (int i = 0; i < n; i++) {
				for (int j = 0; j < n; j++) {
					distances[i][j] = Math.abs(series[i] - series[j]);
				}
			}
			int m = Math.max(n - 1, 0);
			// triu = np.triu(distances, k=1)[:-1, 1:]: triu[r][c] = distances[r][c + 1]
			// where c + 1 > r, else 0
			v = new double[m];
			h = new double[m][m];
			for (int c = 0; c < m; c++) {
				double column = 0;
				for (int r = 0; r < m; r++) {
					column += c + 1 > r ? distances[r][c + 1] : 0.0;
				}
				v[c] = column;
			}
			for (int r = 0; r < m; r++) {
				double running = 0;
				for (int c = 0; c < m; c++) {
					running += c + 1 > r ? distances[r][c + 1] : 0.0;
					h[r][c] = running;
				}
			}
		}

		/**
		 * {@code get_candidate_change_point(slice(start, end))}: {index, qhat} of the
		 * first maximum of Q = A − B − C ({@code _get_Q_vals(start, end)}, with zeros
		 * below the diagonal as numpy leaves them), in row-major order. Each value of Q
		 * is computed as numpy computes it, row by row, without keeping the matrix: the
		 * cumulative sums down the columns of H go on from row to row in the same order.
		 */
		double[] candidate(int start, int end) {
			int m = end - 1 - start;
			double[] cumV = new double[m];
			double running = 0;
			for (int k = 0; k < m; k++) {
				double before = 0;
				for (int r = 0; r < start; r++) {
					before += distances[r][start + 1 + k];
				}
				running += v[start + k] - before;
				cumV[k] = running;
			}
			// flipud(cumsum(flipud(H[1:, 1:]), axis=0)): sums from the bottom row up
			int w = Math.max(m - 1, 0);
			double[] fromBelow = new double[w * w];
			for (int b = 0; b < m - 1; b++) {
				double sum = 0;
				for (int a = m - 2; a >= 0; a--) {
					sum += h[start + a + 1][start + b + 1];
					fromBelow[a * w + b] = sum;
				}
			}
			// cumsum(H, axis=0) over H[start:end-1, start:end-1], through row a
			double[] cumH = new double[m];
			int bestA = 0;
			double best = 0;
			for (int a = 0; a < m; a++) {
				double[] row = h[start + a];
				for (int b = 0; b < m; b++) {
					cumH[b] += row[start + b];
				}
				int tau = start + 1 + a;
				for (int b = 0; b < m; b++) {
					int kappa = start + 2 + b;
					double aValue = 0;
					if (b >= a) {
						aValue = (2.0 / (kappa - start)) * (cumH[b] - (a >= 1 ? cumV[a - 1] : 0.0));
					}
					else {
						aValue = (2.0 / (kappa - start)) * 0.0;
					}
					double bValue = 0;
					if (a >= 1 && b >= 1) {
						int numerator = 2 * (kappa - tau);
						int denominator = (kappa - start) * (tau - start - 1);
						double coefficient = b >= a && denominator != 0 ? (double) numerator / denominator : 0.0;
						bValue = coefficient * cumV[a - 1];
					}
					double cValue = 0;
					if (a <= m - 2 && b >= 1) {
						int numerator = 2 * (tau - start);
						int denominator = (kappa - start) * (kappa - tau - 1);
						double coefficient = b >= a + 1 && denominator != 0 ? (double) numerator / denominator : 0.0;
						cValue = coefficient * fromBelow[a * w + b - 1];
					}
					double q = aValue - bValue - cValue;
					if (a == 0 && b == 0) {
						best = q;
					}
					else if (q > best) {
						best = q;
						bestA = a;
					}
				}
			}
			return new double[] { bestA + 1 + start, best };
		}

	}

}
