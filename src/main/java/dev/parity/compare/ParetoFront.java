package dev.parity.compare;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;

/**
 * Throughput against interactivity over a sweep, and the points no other point beats on
 * both: a serving setup can give each user more tokens per second only by serving fewer
 * tokens per second in all, and the front is the best it was seen to do. A greyed point
 * (a check greys one of its two numbers) is drawn but never on the front, and never
 * dominates anything: a front through confounded numbers would claim what was not
 * measured.
 */
public final class ParetoFront {

	private ParetoFront() {
	}

	/**
	 * One cell of a sweep.
	 *
	 * @param anchor the cell's anchor
	 * @param label the cell's params in words
	 * @param interactivity output tokens per second per user
	 * @param throughput output tokens per second, in all or per GPU
	 * @param greyed whether a check greys either number (then never on the front)
	 * @param reasons the rules that grey it, empty when not greyed
	 */
	public record Point(String anchor, String label, double interactivity, double throughput, boolean greyed,
			List<String> reasons) {

		public Point {
			reasons = List.copyOf(reasons);
		}

		/** Whether this point is at least as good on both axes and better on one. */
		boolean dominates(Point other) {
			return interactivity >= other.interactivity && throughput >= other.throughput
					&& (interactivity > other.interactivity || throughput > other.throughput);
		}

	}

	/**
	 * The non-dominated points among those not greyed, by rising interactivity (so by
	 * falling throughput). Of two equal points the first is kept.
	 */
	public static List<Point> of(List<Point> points) {
		List<Point> clean = points.stream().filter(point -> !point.greyed()).toList();
		List<Point> front = new ArrayList<>();
		for (Point point : clean) {
			boolean dominated = clean.stream().anyMatch(other -> other.dominates(point));
			boolean repeated = front.stream()
				.anyMatch(kept -> kept.interactivity() == point.interactivity()
						&& kept.throughput() == point.throughput());
			if (!dominated && !repeated) {
				front.add(point);
			}
		}
		front.sort(Comparator.comparingDouble(Point::interactivity));
		return List.copyOf(front);
	}

	/**
	 * The front's throughput at an interactivity, on the straight line between its two
	 * neighbouring points; empty outside the interactivities the front spans.
	 */
	public static Optional<Double> throughputAt(List<Point> front, double interactivity) {
		if (front.isEmpty() || interactivity < front.get(0).interactivity()
				|| interactivity > front.get(front.size() - 1).interactivity()) {
			return Optional.empty();
		}
		for (int i = 0; i < front.size(); i++) {
			Point right = front.get(i);
			if (interactivity == right.interactivity()) {
				return Optional.of(right.throughput());
			}
			if (interactivity < right.interactivity()) {
				Point left = front.get(i - 1);
				double t = (interactivity - left.interactivity()) / (right.interactivity() - left.interactivity());
				return Optional.of(left.throughput() + t * (right.throughput() - left.throughput()));
			}
		}
		return Optional.empty();
	}

	/**
	 * The contender's throughput against the baseline's at equal interactivity, where
	 * both fronts exist.
	 *
	 * @param low the lowest interactivity both fronts reach
	 * @param high the highest interactivity both fronts reach
	 * @param points at every front point's interactivity inside [low, high], rising
	 */
	public record EqualInteractivity(double low, double high, List<Ratio> points) {

		public EqualInteractivity {
			points = List.copyOf(points);
		}

		public double lowestRatio() {
			return points.stream().mapToDouble(Ratio::ratio).min().orElseThrow();
		}

		public double highestRatio() {
			return points.stream().mapToDouble(Ratio::ratio).max().orElseThrow();
		}

	}

	/**
	 * Both fronts' throughputs at one interactivity and their ratio (contender /
	 * baseline).
	 */
	public record Ratio(double interactivity, double baseline, double contender, double ratio) {
	}

	/**
	 * The throughput ratio at equal interactivity, interpolated on both fronts at each
	 * front point's interactivity inside the range where both exist; empty when either
	 * front is empty or they share no interactivity.
	 */
	public static Optional<EqualInteractivity> ratio(List<Point> baselineFront, List<Point> contenderFront) {
		if (baselineFront.isEmpty() || contenderFront.isEmpty()) {
			return Optional.empty();
		}
		double low = Math.max(baselineFront.get(0).interactivity(), contenderFront.get(0).interactivity());
		double high = Math.min(baselineFront.get(baselineFront.size() - 1).interactivity(),
				contenderFront.get(contenderFront.size() - 1).interactivity());
		if (low > high) {
			return Optional.empty();
		}
		TreeSet<Double> at = new TreeSet<>();
		at.add(low);
		at.add(high);
		for (Point point : baselineFront) {
			add(at, point.interactivity(), low, high);
		}
		for (Point point : contenderFront) {
			add(at, point.interactivity(), low, high);
		}
		List<Ratio> ratios = new ArrayList<>();
		for (double x : at) {
			double baseline = throughputAt(baselineFront, x).orElseThrow();
			double contender = throughputAt(contenderFront, x).orElseThrow();
			if (baseline > 0) {
				ratios.add(new Ratio(x, baseline, contender, contender / baseline));
			}
		}
		return ratios.isEmpty() ? Optional.empty() : Optional.of(new EqualInteractivity(low, high, ratios));
	}

	private static void add(Set<Double> at, double x, double low, double high) {
		if (x >= low && x <= high) {
			at.add(x);
		}
	}

	/** Whether a point is on a front (the same cell). */
	public static boolean on(List<Point> front, @Nullable String anchor) {
		return front.stream().anyMatch(point -> point.anchor().equals(anchor));
	}

}
