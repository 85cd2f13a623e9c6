package dev.parity.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.statistics.distribution.ChiSquaredDistribution;

/**
 * Which change points of an analysis become alerts, and at which run. E-Divisive runs per
 * cell × metric (a 200-cell grid with two metrics is 400 tracks), so noise alone yields
 * change points; the decision is taken over all of them.
 * <ol>
 * <li>A candidate is a change point in a direction that alerts, of relative change at
 * least {@code alert_magnitude}, with {@code confirm_after} points after its run.</li>
 * <li>Candidates are grouped where they concentrate: the run with the most candidates (in
 * one segment and direction; ties: the earliest) takes those within ±1 run of it, never
 * further (no chaining); the rest are grouped again the same way.</li>
 * <li>A group is an alert when it survives a false-discovery control across the series'
 * tracks: the Benjamini–Hochberg step-up procedure at {@value #FALSE_DISCOVERY_RATE} over
 * the {@code m} tracks (cells × metrics) of the analysis, applied to the group's
 * {@link SeriesAnalysis.ChangePoint#scanPvalue scan p-values} (the shift against its
 * track's own run-to-run spread, corrected for E-Divisive's choice of where to split).
 * The candidates it keeps are the alert's changes; none kept, no alert. One lone cell
 * among 400 must reach p ≤ 0.01 / 400; a change seen in k cells at the same run needs p ≤
 * 0.01 · k / 400 in each: many cells at one run are strong evidence.</li>
 * <li>The alert's run is where the kept changes concentrate (ties: the earliest); kept
 * changes more than one run from it are grouped again.</li>
 * </ol>
 * Pure: the same analysis gives the same alerts.
 */
public final class AlertDecision {

	/** The false-discovery rate of a group's test. */
	public static final double FALSE_DISCOVERY_RATE = 0.01;

	private AlertDecision() {
	}

	/**
	 * An alert the analysis calls for.
	 *
	 * @param run the run where its changes concentrate
	 * @param changes its cell × metrics, in series order (then anchor, metric)
	 * @param pvalue the group's Simes p-value over the series' tracks (m × p₍ⱼ₎ / j at
	 * its smallest)
	 */
	public record Proposed(String run, int segment, String direction, List<SeriesAnalysis.ChangePoint> changes,
			double pvalue) {
	}

	/** The alerts the change points of {@code analysis} call for, in series order. */
	public static List<Proposed> decide(SeriesAnalysis analysis, SeriesSettings settings) {
		Map<String, Integer> order = new HashMap<>();
		for (int i = 0; i < analysis.runs().size(); i++) {
			order.put(analysis.runs().get(i).id(), i);
		}
		int tracks = 0;
		for (SeriesAnalysis.CellPoints cell : analysis.cells()) {
			tracks += cell.metrics().size();
		}
		int m = Math.max(1, Math.max(tracks, analysis.changePoints().size()));
		List<SeriesAnalysis.ChangePoint> candidates = analysis.changePoints()
			.stream()
			.filter(cp -> order.containsKey(cp.run()))
			.filter(cp -> cp.direction().equals("regression") || settings.alertImprovements())
			.filter(cp -> cp.magnitude() >= settings.alertMagnitude())
			.toList();
		List<Proposed> confirmed = groups(
				candidates.stream().filter(cp -> cp.pointsAfter() - 1 >= settings.confirmAfter()).toList(), order, m);
		// Changes too young to alert still show where a shift is: a few of its cells
		// placed earlier must not alert first.
		List<Proposed> all = groups(candidates, order, m);
		List<Proposed> proposed = withoutDisplaced(confirmed, all, analysis, order, m);
		proposed.sort(Comparator.comparingInt((Proposed p) -> order.get(p.run())).thenComparing(Proposed::direction));
		return List.copyOf(proposed);
	}

	/** The alerts {@code candidates} make, grouped and tested. */
	private static List<Proposed> groups(List<SeriesAnalysis.ChangePoint> candidates, Map<String, Integer> order,
			int m) {
		List<SeriesAnalysis.ChangePoint> remaining = new ArrayList<>(candidates);
		List<Proposed> proposed = new ArrayList<>();
		while (!remaining.isEmpty()) {
			SeriesAnalysis.ChangePoint center = concentration(remaining, order);
			List<SeriesAnalysis.ChangePoint> group = near(remaining, center, order);
			remaining.removeAll(group);
			List<SeriesAnalysis.ChangePoint> kept = stepUp(group, m);
			if (kept.isEmpty()) {
				continue;
			}
			SeriesAnalysis.ChangePoint at = concentration(kept, order);
			List<SeriesAnalysis.ChangePoint> members = near(kept, at, order);
			List<SeriesAnalysis.ChangePoint> again = new ArrayList<>(kept);
			again.removeAll(members);
			remaining.addAll(again);
			members.sort(Comparator.comparingInt((SeriesAnalysis.ChangePoint cp) -> order.get(cp.run()))
				.thenComparing(SeriesAnalysis.ChangePoint::anchor)
				.thenComparing(SeriesAnalysis.ChangePoint::metric));
			proposed.add(new Proposed(at.run(), at.segment(), at.direction(), List.copyOf(members), simes(members, m)));
		}
		return proposed;
	}

	/**
	 * The alerts less the changes that are a larger alert's change found a few runs off:
	 * E-Divisive places a shift of a few times the noise within a run or two in most
	 * tracks, not all, and a grid of 400 tracks has some placed two or more runs away. A
	 * change is displaced when its track's points between its neighbouring change points
	 * also hold the larger alert's run (same segment and direction), and a split there
	 * explains them about as well as the change point's own: the log-likelihood ratio of
	 * the two splits, n · ln(SS at the alert's run / SS at the change point), below χ²₁'s
	 * quantile at 1 − {@value #FALSE_DISCOVERY_RATE} / m (17.8 for 400 tracks: the same
	 * control across the tracks as the alerts'). A change in those cells at a run of its
	 * own, found by E-Divisive as a change point of its own, has the larger alert's
	 * change point as a neighbour and is never displaced. An alert left with no change is
	 * no alert.
	 */
	private static List<Proposed> withoutDisplaced(List<Proposed> proposed, List<Proposed> all, SeriesAnalysis analysis,
			Map<String, Integer> order, int m) {
		if (proposed.isEmpty() || all.size() < 2) {
			return new ArrayList<>(proposed);
		}
		Map<String, List<SeriesAnalysis.ChangePoint>> byTrack = new HashMap<>();
		for (SeriesAnalysis.ChangePoint cp : analysis.changePoints()) {
			byTrack.computeIfAbsent(cp.anchor() + "\n" + cp.metric(), k -> new ArrayList<>()).add(cp);
		}
		Map<String, SeriesAnalysis.CellPoints> cells = new HashMap<>();
		for (SeriesAnalysis.CellPoints cell : analysis.cells()) {
			cells.put(cell.anchor(), cell);
		}
		Map<String, Integer> segmentOf = new HashMap<>();
		analysis.runs().forEach(run -> segmentOf.put(run.id(), run.segment()));
		List<Proposed> larger = new ArrayList<>(all);
		larger
			.sort(Comparator.comparingInt((Proposed p) -> -p.changes().size()).thenComparing(p -> order.get(p.run())));
		List<Proposed> result = new ArrayList<>();
		for (Proposed alert : proposed) {
			List<SeriesAnalysis.ChangePoint> staying = new ArrayList<>();
			for (SeriesAnalysis.ChangePoint cp : alert.changes()) {
				boolean displaced = false;
				for (Proposed other : larger) {
					if (other.changes().size() <= alert.changes().size()) {
						break;
					}
					if (other.segment() == alert.segment() && other.direction().equals(alert.direction())
							&& displaced(cp, order.get(other.run()), byTrack.get(cp.anchor() + "\n" + cp.metric()),
									cells.get(cp.anchor()), order, segmentOf, m)) {
						displaced = true;
						break;
					}
				}
				if (!displaced) {
					staying.add(cp);
				}
			}
			if (staying.size() == alert.changes().size()) {
				result.add(alert);
			}
			else if (!staying.isEmpty()) {
				result.add(new Proposed(alert.run(), alert.segment(), alert.direction(), List.copyOf(staying),
						simes(staying, m)));
			}
		}
		return result;
	}

	/**
	 * Whether {@code cp}'s track, between its neighbouring change points, changes at run
	 * {@code at} about as well.
	 */
	private static boolean displaced(SeriesAnalysis.ChangePoint cp, int at, List<SeriesAnalysis.ChangePoint> track,
			SeriesAnalysis.CellPoints cell, Map<String, Integer> order, Map<String, Integer> segmentOf, int m) {
		int own = order.get(cp.run());
		if (own == at || cell == null) {
			return false;
		}
		int from = Integer.MIN_VALUE;
		int to = Integer.MAX_VALUE;
		for (SeriesAnalysis.ChangePoint other : track) {
			if (other.segment() != cp.segment() || other == cp) {
				continue;
			}
			int run = order.get(other.run());
			if (run < own) {
				from = Math.max(from, run);
			}
			else if (run > own) {
				to = Math.min(to, run);
			}
		}
		if (at <= from || at >= to) {
			return false;
		}
		List<SeriesAnalysis.Point> points = cell.metrics().get(cp.metric());
		if (points == null) {
			return false;
		}
		List<Double> values = new ArrayList<>();
		int ownSplit = -1;
		int atSplit = -1;
		for (SeriesAnalysis.Point point : points) {
			Integer run = order.get(point.run());
			if (point.greyed() || run == null || segmentOf.get(point.run()) != cp.segment() || run < Math.max(from, 0)
					|| run >= to) {
				continue;
			}
			if (ownSplit < 0 && run >= own) {
				ownSplit = values.size();
			}
			if (atSplit < 0 && run >= at) {
				atSplit = values.size();
			}
			values.add(point.value());
		}
		if (ownSplit <= 0 || atSplit <= 0 || ownSplit >= values.size() || atSplit >= values.size()) {
			return false;
		}
		double ownSquares = squares(values, ownSplit);
		double atSquares = squares(values, atSplit);
		if (ownSquares <= 0) {
			return false;
		}
		return values.size() * Math.log(atSquares / ownSquares) < ChiSquaredDistribution.of(1)
			.inverseSurvivalProbability(FALSE_DISCOVERY_RATE / m);
	}

	/**
	 * The sum of squares of {@code values} about the means of its two sides of
	 * {@code split}.
	 */
	private static double squares(List<Double> values, int split) {
		return squares(values, 0, split) + squares(values, split, values.size());
	}

	private static double squares(List<Double> values, int from, int to) {
		double mean = 0;
		for (int i = from; i < to; i++) {
			mean += values.get(i);
		}
		mean /= to - from;
		double sum = 0;
		for (int i = from; i < to; i++) {
			double d = values.get(i) - mean;
			sum += d * d;
		}
		return sum;
	}

	/**
	 * The alerts, those with the most changes first (then in series order): the order in
	 * which they claim the open alerts they may move, so that an alert found a run or two
	 * off while its change was young moves to the run where its changes concentrate
	 * rather than to a few displaced ones.
	 */
	public static List<Proposed> largestFirst(List<Proposed> proposed) {
		List<Proposed> sorted = new ArrayList<>(proposed);
		sorted.sort(Comparator.comparingInt((Proposed p) -> -p.changes().size()));
		return sorted;
	}

	/**
	 * A change point at the run (segment, direction) with the most of {@code changes};
	 * ties: the earliest run.
	 */
	private static SeriesAnalysis.ChangePoint concentration(List<SeriesAnalysis.ChangePoint> changes,
			Map<String, Integer> order) {
		Map<String, Integer> counts = new HashMap<>();
		for (SeriesAnalysis.ChangePoint cp : changes) {
			counts.merge(cp.run() + "\n" + cp.direction(), 1, Integer::sum);
		}
		SeriesAnalysis.ChangePoint best = null;
		int bestCount = 0;
		for (SeriesAnalysis.ChangePoint cp : changes) {
			int count = counts.get(cp.run() + "\n" + cp.direction());
			if (best == null || count > bestCount
					|| (count == bestCount && (order.get(cp.run()) < order.get(best.run())
							|| (order.get(cp.run()).equals(order.get(best.run()))
									&& cp.direction().compareTo(best.direction()) > 0)))) {
				best = cp;
				bestCount = count;
			}
		}
		return best;
	}

	/**
	 * The changes of the same segment and direction as {@code center}, within ±1 run of
	 * it.
	 */
	private static List<SeriesAnalysis.ChangePoint> near(List<SeriesAnalysis.ChangePoint> changes,
			SeriesAnalysis.ChangePoint center, Map<String, Integer> order) {
		int at = order.get(center.run());
		List<SeriesAnalysis.ChangePoint> near = new ArrayList<>();
		for (SeriesAnalysis.ChangePoint cp : changes) {
			if (cp.segment() == center.segment() && cp.direction().equals(center.direction())
					&& Math.abs(order.get(cp.run()) - at) <= 1) {
				near.add(cp);
			}
		}
		return near;
	}

	/**
	 * Benjamini–Hochberg over {@code m} tests, of which these are some: those it keeps.
	 */
	private static List<SeriesAnalysis.ChangePoint> stepUp(List<SeriesAnalysis.ChangePoint> group, int m) {
		List<SeriesAnalysis.ChangePoint> sorted = new ArrayList<>(group);
		sorted.sort(Comparator.comparingDouble(AlertDecision::pvalue));
		int keep = 0;
		for (int j = 1; j <= sorted.size(); j++) {
			if (pvalue(sorted.get(j - 1)) <= FALSE_DISCOVERY_RATE * j / m) {
				keep = j;
			}
		}
		return new ArrayList<>(sorted.subList(0, keep));
	}

	/** Simes' combined p-value of a group among {@code m} tests. */
	private static double simes(List<SeriesAnalysis.ChangePoint> group, int m) {
		List<Double> p = group.stream().map(AlertDecision::pvalue).sorted().toList();
		double best = 1;
		for (int j = 1; j <= p.size(); j++) {
			best = Math.min(best, p.get(j - 1) * m / j);
		}
		return best;
	}

	/** The scan p-value; Otava's for a change point stored before it was kept. */
	static double pvalue(SeriesAnalysis.ChangePoint cp) {
		return cp.scanPvalue() != null ? cp.scanPvalue() : cp.pvalue();
	}

}
