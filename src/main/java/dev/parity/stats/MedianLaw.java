package dev.parity.stats;

import java.util.Arrays;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.jspecify.annotations.Nullable;
import org.apache.commons.statistics.descriptive.Median;
import org.apache.commons.statistics.distribution.BinomialDistribution;

/**
 * The exact bootstrap law of a sample median: where the median of {@code n} values drawn
 * with replacement from {@code n} samples falls, without drawing any.
 * <p>
 * A resample's median depends only on how many draws fall at or below each rank of the
 * sorted samples: with {@code C(k)} the draws at or below rank {@code k} (1-based),
 * {@code C(k) ~ Binomial(n, k/n)}. For odd {@code n = 2m + 1} the median is the
 * {@code (m+1)}-th smallest draw, and P(median ≤ x₍ₖ₎) = P(C(k) ≥ m + 1). For even
 * {@code n = 2m} it is the midpoint of the {@code m}-th and {@code (m+1)}-th smallest
 * draws, ranks (i, j); the law of that pair is, for {@code j > i}, P(C(i) = m) · (1 −
 * ((i−1)/i)^m) · ([(n−j+1)/(n−i)]^(n−m) − [(n−j)/(n−i)]^(n−m)) (the {@code m} draws at or
 * below {@code i} include rank {@code i}; the others, uniform over the ranks above
 * {@code i}, miss {@code i+1 … j−1} and hit {@code j}), and for {@code j = i} the rest of
 * P(lower = i).
 * <p>
 * Both laws are over ranks and depend only on {@code n}: each is computed once per
 * {@code n} (binomial probabilities from commons-statistics, the powers as
 * {@code exp(e · log1p(…))}) and kept ({@link #ranks}), truncated where the mass left out
 * is below 10⁻¹² in all. A cell's law of values ({@link #of}) then only maps ranks to its
 * sorted samples: the values of ranks {@link Ranks#first()} to {@link Ranks#last()} are
 * all it needs, which is what ingest stores.
 */
public final class MedianLaw {

	/** Mass left out at most, in all, by the truncation of a law over ranks. */
	static final double TAIL = 1e-12;

	private static final Cache<Integer, Ranks> RANKS = Caffeine.newBuilder()
		.maximumWeight(20_000_000)
		.<Integer, Ranks>weigher((n, law) -> law.probability.length)
		.build();

	private final double[] values;

	private final double[] cumulative;

	/** {@link #logMoments}, once worked out. */
	private volatile double @Nullable [] moments;

	/** Where {@link #draw} starts looking, made at its first draw. */
	private volatile int @Nullable [] guide;

	private MedianLaw(double[] values, double[] cumulative) {
		this.values = values;
		this.cumulative = cumulative;
	}

	/**
	 * The law over ranks of the median of {@code n} samples resampled: its atoms, each a
	 * pair of 0-based ranks (equal for odd {@code n}) and its probability.
	 */
	public static final class Ranks {

		final int n;

		final int[] low;

		final int[] high;

		final double[] probability;

		final int first;

		final int last;

		private Ranks(int n, int[] low, int[] high, double[] probability) {
			this.n = n;
			this.low = low;
			this.high = high;
			this.probability = probability;
			this.first = low.length == 0 ? 0 : Arrays.stream(low).min().getAsInt();
			this.last = high.length == 0 ? -1 : Arrays.stream(high).max().getAsInt();
		}

		/** The lowest 0-based rank the law needs. */
		public int first() {
			return first;
		}

		/** The highest 0-based rank the law needs. */
		public int last() {
			return last;
		}

		/** How many atoms. */
		public int size() {
			return probability.length;
		}

	}

	/** The law over ranks for {@code n} samples, computed once per {@code n}. */
	public static Ranks ranks(int n) {
		if (n < 1) {
			throw new IllegalArgumentException("no samples");
		}
		return RANKS.get(n, MedianLaw::computeRanks);
	}

	/**
	 * The law of the median's values: {@code window} holds the sorted samples of ranks
	 * {@code first} … {@code first + window.length − 1} (0-based) of {@code n} samples,
	 * at least those {@link #ranks} needs.
	 */
	public static MedianLaw of(int n, int first, double[] window) {
		Ranks ranks = ranks(n);
		double[] value = atomValues(ranks, first, window);
		int size = value.length;
		for (double v : value) {
			if (Double.isNaN(v) || Double.doubleToRawLongBits(v) == Long.MIN_VALUE) {
				return bySorting(ranks, value);
			}
		}
		// The atoms in ascending value, equal values in ascending atom: what a stable
		// sort
		// by value gives, without boxing them. The atoms come in ascending runs already
		// (those of one lower rank ascend with the upper rank), a few dozen of them,
		// merged pairwise with the left run first on equal values.
		int[] order = new int[size];
		int[] bounds = new int[size + 1];
		int count = 0;
		for (int a = 0; a < size; a++) {
			order[a] = a;
			if (a == 0 || value[a] < value[a - 1]) {
				bounds[count++] = a;
			}
		}
		bounds[count] = size;
		int[] spare = new int[size];
		while (count > 1) {
			int merged = 0;
			for (int r = 0; r < count; r += 2) {
				int start = bounds[r];
				merge(value, order, spare, start, bounds[Math.min(r + 1, count)], bounds[Math.min(r + 2, count)]);
				bounds[merged++] = start;
			}
			bounds[merged] = size;
			count = merged;
			int[] swap = order;
			order = spare;
			spare = swap;
		}
		return accumulate(ranks, value, order);
	}

	/**
	 * Merges the ascending runs of atoms {@code from[start … middle)} and
	 * {@code from[middle … end)} into {@code into}, the left one first on equal values.
	 */
	private static void merge(double[] value, int[] from, int[] into, int start, int middle, int end) {
		int left = start;
		int right = middle;
		int out = start;
		while (left < middle && right < end) {
			into[out++] = value[from[right]] < value[from[left]] ? from[right++] : from[left++];
		}
		while (left < middle) {
			into[out++] = from[left++];
		}
		while (right < end) {
			into[out++] = from[right++];
		}
	}

	/**
	 * {@link #of} by a boxed sort of the atoms: as first written, and still for a window
	 * holding NaN (which {@code ==} never merges) or −0 (which sorts before the 0 it
	 * merges with).
	 */
	static MedianLaw bySorting(Ranks ranks, double[] value) {
		int size = value.length;
		Integer[] boxed = new Integer[size];
		for (int a = 0; a < size; a++) {
			boxed[a] = a;
		}
		Arrays.sort(boxed, (x, y) -> Double.compare(value[x], value[y]));
		int[] order = new int[size];
		for (int a = 0; a < size; a++) {
			order[a] = boxed[a];
		}
		return accumulate(ranks, value, order);
	}

	/** The value of each atom: its rank's sample, or the midpoint of its two. */
	static double[] atomValues(Ranks ranks, int first, double[] window) {
		if (ranks.first < first || ranks.last >= first + window.length) {
			throw new IllegalArgumentException("the window does not hold the ranks the law needs");
		}
		int size = ranks.size();
		double[] value = new double[size];
		for (int a = 0; a < size; a++) {
			double low = window[ranks.low[a] - first];
			value[a] = ranks.low[a] == ranks.high[a] ? low : midpoint(low, window[ranks.high[a] - first]);
		}
		return value;
	}

	/**
	 * The midpoint of two values as commons-statistics' {@code Median} computes that of
	 * two (what a resample's median is), to the last bit: their sum halved, or each half
	 * summed where the sum overflows.
	 */
	static double midpoint(double low, double high) {
		if (Double.isNaN(low) || Double.isNaN(high)) {
			return Median.withDefaults().evaluate(new double[] { low, high });
		}
		double sum = low + high;
		return Double.isFinite(sum) ? sum * 0.5 : low * 0.5 + high * 0.5;
	}

	/**
	 * The law from the atoms taken in {@code order} (ascending value): equal values
	 * merged, their masses summed in that order.
	 */
	private static MedianLaw accumulate(Ranks ranks, double[] value, int[] order) {
		int size = order.length;
		double[] values = new double[size];
		double[] masses = new double[size];
		int distinct = 0;
		double total = 0;
		for (int a = 0; a < size; a++) {
			int atom = order[a];
			total += ranks.probability[atom];
			if (distinct > 0 && values[distinct - 1] == value[atom]) {
				masses[distinct - 1] += ranks.probability[atom];
			}
			else {
				values[distinct] = value[atom];
				masses[distinct++] = ranks.probability[atom];
			}
		}
		double[] cumulative = new double[distinct];
		double sum = 0;
		for (int a = 0; a < distinct; a++) {
			sum += masses[a];
			cumulative[a] = Math.min(1, sum / total);
		}
		cumulative[distinct - 1] = 1;
		return new MedianLaw(Arrays.copyOf(values, distinct), cumulative);
	}

	/** The law of the median of these samples (in any order) resampled. */
	public static MedianLaw ofSamples(double[] samples) {
		double[] sorted = samples.clone();
		Arrays.sort(sorted);
		return of(sorted.length, 0, sorted);
	}

	/** About how many bytes of memory it takes. */
	public int bytes() {
		return 64 + 20 * values.length;
	}

	/** The distinct values the median can take, ascending. */
	public double[] values() {
		return values.clone();
	}

	/** P(median ≤ {@code x}). */
	public double atOrBelow(double x) {
		int i = upper(x);
		return i == 0 ? 0 : cumulative[i - 1];
	}

	/** Whether every value it can take is positive and finite (a ratio needs that). */
	public boolean positive() {
		return values.length > 0 && values[0] > 0 && Double.isFinite(values[values.length - 1]);
	}

	/**
	 * The value at probability {@code u} ∈ [0, 1): the inverse of the distribution, the
	 * first value whose cumulative probability is above {@code u}. Found from a guide
	 * table (the first such value for each of {@code size} equal steps of {@code u}) in a
	 * step or two: a comparison draws a thousand per cell × metric. The same value as
	 * {@link #drawBySearch}, which it falls back to when {@code u} is a cumulative
	 * probability itself.
	 */
	public double draw(double u) {
		int[] table = guide();
		int k = Math.min(table.length - 1, (int) (u * table.length));
		int i = table[k];
		while (i > 0 && cumulative[i - 1] > u) {
			i--;
		}
		while (i < cumulative.length && cumulative[i] <= u) {
			if (cumulative[i] == u) {
				return drawBySearch(u);
			}
			i++;
		}
		return values[Math.min(i, values.length - 1)];
	}

	/** {@link #draw} by a binary search, as first written. */
	double drawBySearch(double u) {
		int i = Arrays.binarySearch(cumulative, u);
		i = i >= 0 ? i + 1 : -i - 1;
		return values[Math.min(i, values.length - 1)];
	}

	private int[] guide() {
		int[] table = guide;
		if (table == null) {
			table = new int[cumulative.length];
			int i = 0;
			for (int k = 0; k < table.length; k++) {
				double step = (double) k / table.length;
				while (i < cumulative.length && cumulative[i] <= step) {
					i++;
				}
				table[k] = i;
			}
			guide = table;
		}
		return table;
	}

	double smallest() {
		return values[0];
	}

	double largest() {
		return values[values.length - 1];
	}

	int size() {
		return values.length;
	}

	/**
	 * The mean and variance of the log of the median, worked out once: where a quantile
	 * of a ratio of medians starts looking ({@link RatioLaw}).
	 */
	double[] logMoments() {
		double[] moments = this.moments;
		if (moments == null) {
			double sum = 0;
			double squares = 0;
			double previous = 0;
			for (int i = 0; i < values.length; i++) {
				double mass = cumulative[i] - previous;
				previous = cumulative[i];
				double log = Math.log(values[i]);
				sum += mass * log;
				squares += mass * log * log;
			}
			double total = previous > 0 ? previous : 1;
			double mean = sum / total;
			moments = new double[] { mean, Math.max(0, squares / total - mean * mean) };
			this.moments = moments;
		}
		return moments;
	}

	/** The values themselves, ascending, for reading in this package only. */
	double[] valuesShared() {
		return values;
	}

	/** The cumulative probabilities themselves, for reading in this package only. */
	double[] cumulativeShared() {
		return cumulative;
	}

	double value(int i) {
		return values[i];
	}

	/** P(median ≤ value(i)). */
	double cumulative(int i) {
		return cumulative[i];
	}

	/** The number of values ≤ x. */
	private int upper(double x) {
		int low = 0;
		int high = values.length;
		while (low < high) {
			int mid = (low + high) >>> 1;
			if (values[mid] <= x) {
				low = mid + 1;
			}
			else {
				high = mid;
			}
		}
		return low;
	}

	private static Ranks computeRanks(int n) {
		if (n % 2 == 1) {
			return oddRanks(n);
		}
		return evenRanks(n);
	}

	/**
	 * P(C(k) ≥ need) for 1-based rank {@code k}: at least {@code need} draws at or below
	 * rank k.
	 */
	private static double atLeast(int n, int k, int need) {
		if (k <= 0) {
			return need <= 0 ? 1 : 0;
		}
		if (k >= n) {
			return 1;
		}
		return BinomialDistribution.of(n, (double) k / n).survivalProbability(need - 1);
	}

	/**
	 * The 1-based ranks {@code [from, to]} outside of which P(the {@code need}-th draw is
	 * there) is below {@code tail} on each side.
	 */
	private static int[] window(int n, int need, double tail) {
		// The lowest k with P(C(k) ≥ need) > tail: everything below has less.
		int low = 1;
		int high = n;
		while (low < high) {
			int mid = (low + high) >>> 1;
			if (atLeast(n, mid, need) > tail) {
				high = mid;
			}
			else {
				low = mid + 1;
			}
		}
		int from = low;
		// The lowest k with P(C(k) ≥ need) ≥ 1 − tail: everything above has less.
		low = from;
		high = n;
		while (low < high) {
			int mid = (low + high) >>> 1;
			if (atLeast(n, mid, need) >= 1 - tail) {
				high = mid;
			}
			else {
				low = mid + 1;
			}
		}
		return new int[] { from, low };
	}

	private static Ranks oddRanks(int n) {
		int need = n / 2 + 1;
		int[] window = window(n, need, TAIL / 4);
		int size = window[1] - window[0] + 1;
		int[] ranks = new int[size];
		double[] probability = new double[size];
		double below = atLeast(n, window[0] - 1, need);
		for (int k = window[0]; k <= window[1]; k++) {
			double atOrBelow = atLeast(n, k, need);
			ranks[k - window[0]] = k - 1;
			probability[k - window[0]] = atOrBelow - below;
			below = atOrBelow;
		}
		return new Ranks(n, ranks, ranks.clone(), probability);
	}

	private static Ranks evenRanks(int n) {
		int m = n / 2;
		int[] window = window(n, m, TAIL / 8);
		int capacity = 64;
		int[] low = new int[capacity];
		int[] high = new int[capacity];
		double[] probability = new double[capacity];
		int size = 0;
		// Atoms smaller than this are left out: at most n of them per rank i … in all
		// well
		// under TAIL / 4 for every n a cell has.
		double smallest = TAIL / (8.0 * Math.max(1, window[1] - window[0] + 1) * 64);
		double below = atLeast(n, window[0] - 1, m);
		for (int i = window[0]; i <= window[1]; i++) {
			double atOrBelow = atLeast(n, i, m);
			double lowerHere = atOrBelow - below; // P(lower = i)
			below = atOrBelow;
			// P(C(i) = m, rank i drawn): the upper middle is above i.
			double exactly = i >= n ? 0 : BinomialDistribution.of(n, (double) i / n).probability(m);
			double split = exactly * -Math.expm1(m * Math.log1p(-1.0 / i));
			double same = Math.max(0, lowerHere - split);
			if (size + 1 >= capacity) {
				capacity *= 2;
				low = Arrays.copyOf(low, capacity);
				high = Arrays.copyOf(high, capacity);
				probability = Arrays.copyOf(probability, capacity);
			}
			low[size] = i - 1;
			high[size] = i - 1;
			probability[size++] = same;
			if (split <= 0) {
				continue;
			}
			// The others (n − m draws) are uniform over the n − i ranks above i:
			// P(upper = j) = q(j − i − 1) − q(j − i), q(g) = (1 − g/(n − i))^(n − m).
			int above = n - i;
			int others = n - m;
			double missed = 1; // q(0)
			for (int j = i + 1; j <= n; j++) {
				int gap = j - i;
				double next = gap >= above ? 0 : Math.exp(others * Math.log1p(-(double) gap / above));
				double pair = split * (missed - next);
				missed = next;
				if (pair >= smallest) {
					if (size + 1 >= capacity) {
						capacity *= 2;
						low = Arrays.copyOf(low, capacity);
						high = Arrays.copyOf(high, capacity);
						probability = Arrays.copyOf(probability, capacity);
					}
					low[size] = i - 1;
					high[size] = j - 1;
					probability[size++] = pair;
				}
				if (split * next < smallest) {
					break;
				}
			}
		}
		return new Ranks(n, Arrays.copyOf(low, size), Arrays.copyOf(high, size), Arrays.copyOf(probability, size));
	}

}
