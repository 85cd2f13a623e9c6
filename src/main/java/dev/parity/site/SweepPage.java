package dev.parity.site;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import java.util.Objects;
import java.util.Set;

import dev.parity.compare.ComparisonSnapshot;
import dev.parity.compare.GoodputView;
import dev.parity.compare.Pareto;
import dev.parity.compare.ServiceLevels;
import dev.parity.compare.SweepViews;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a run or comparison page shows of its sweep views (see {@code SweepViews}): the
 * Pareto chart's data and the same numbers as a table, the throughput ratio at equal
 * interactivity, the objectives form and each side's goodput.
 *
 * @param paretoJson the {@code pareto} view, for the chart's {@code data-pareto}
 * @param axes the two axes in words
 * @param points every point of every side, for the table beside the chart
 * @param equalInteractivity the ratio at equal interactivity in words, one sentence per
 * front; empty on a run page
 * @param fields the objectives as the form shows them
 * @param hidden the URL's other parameters, kept by the form
 * @param objectives the objectives in words; {@code null} when none is set
 * @param goodput each side's goodput; empty when no objective is set
 * @param paretoSrc where the chart's data is fetched from instead, on a light page;
 * {@code null} when it is inline
 * @param pointsSrc where the table's other points are fetched from, on a light page;
 * {@code null} when all are here
 * @param allPoints how many points the table has in all ({@code points} holds the first
 * of them on a light page)
 */
record SweepPage(String paretoJson, String axes, List<PointRow> points, List<String> equalInteractivity,
		List<Field> fields, List<Field> hidden, @Nullable String objectives, List<GoodputSide> goodput,
		@Nullable String paretoSrc, @Nullable String pointsSrc, int allPoints, @Nullable String goodputUnknown) {

	SweepPage(String paretoJson, String axes, List<PointRow> points, List<String> equalInteractivity,
			List<Field> fields, List<Field> hidden, @Nullable String objectives, List<GoodputSide> goodput,
			@Nullable String paretoSrc, @Nullable String pointsSrc, int allPoints) {
		this(paretoJson, axes, points, equalInteractivity, fields, hidden, objectives, goodput, paretoSrc, pointsSrc,
				allPoints, goodputUnknown(goodput));
	}

	/**
	 * Why goodput cannot be computed on any side, said once for the page ("neither run
	 * has per-request samples"); {@code null} when a side has a cell whose goodput is
	 * known.
	 */
	private static @Nullable String goodputUnknown(List<GoodputSide> goodput) {
		if (goodput.isEmpty() || goodput.stream().anyMatch(side -> side.unknown() == null)) {
			return null;
		}
		boolean noSamples = goodput.stream().allMatch(side -> NO_SAMPLES.equals(side.unknown()));
		if (goodput.size() == 1 && "run".equals(goodput.get(0).side())) {
			return "Goodput cannot be computed: the run has no per-request samples"
					+ (noSamples ? "" : " that record what the objectives bound (" + goodput.get(0).unknown() + ")");
		}
		return "Goodput cannot be computed: neither run has per-request samples" + (noSamples ? ""
				: " that record what the objectives bound (" + String.join("; ",
						goodput.stream()
							.map(GoodputSide::unknown)
							.flatMap(reasons -> List.of(reasons.split("; ")).stream())
							.distinct()
							.toList())
						+ ")");
	}

	/** How many points the table leaves for later. */
	int morePoints() {
		return allPoints - points.size();
	}

	/**
	 * The same views for a light page: the chart's data fetched from {@code paretoSrc}
	 * (not written into the page), the table's first {@code keep} points written and the
	 * others fetched from {@code pointsSrc}.
	 */
	SweepPage light(int keep, String paretoSrc, String pointsSrc) {
		List<PointRow> first = points.size() > keep ? points.subList(0, keep) : points;
		return new SweepPage("", axes, first, equalInteractivity, fields, hidden, objectives, goodput, paretoSrc,
				first.size() < points.size() ? pointsSrc : null, allPoints);
	}

	/**
	 * The same views, the chart's data fetched from {@code paretoSrc} when it is drawn
	 * rather than written in the page.
	 */
	SweepPage fetched(String paretoSrc) {
		return new SweepPage("", axes, points, equalInteractivity, fields, hidden, objectives, goodput, paretoSrc,
				pointsSrc, allPoints, goodputUnknown);
	}

	/**
	 * The same views for one page of a grid's cells: the chart's data fetched from
	 * {@code paretoSrc}, and the table's points and goodput rows those of these cells
	 * only.
	 */
	SweepPage ofCells(Set<String> anchors, String paretoSrc) {
		List<PointRow> shown = points.stream().filter(p -> anchors.contains(p.anchor())).toList();
		List<GoodputSide> sides = goodput.stream()
			.map(side -> new GoodputSide(side.side(),
					side.rows().stream().filter(r -> anchors.contains(r.anchor())).toList(), side.highest(),
					side.unknown()))
			.toList();
		return new SweepPage("", axes, shown, equalInteractivity, fields, hidden, objectives, sides, paretoSrc, null,
				allPoints);
	}

	/**
	 * A point in the table: side, cell, both numbers, and whether it is on the front or
	 * greyed (and by what).
	 */
	record PointRow(String side, String anchor, String label, String interactivity, String throughput, boolean onFront,
			boolean greyed, String greyedBy) {
	}

	/** A form field: URL name, words, value as typed. */
	record Field(String name, String label, String value) {
	}

	/**
	 * One side's goodput: its cells and the highest concurrency meeting the objectives
	 * per other coordinates.
	 *
	 * @param unknown why no cell's goodput is known on this side (all cells say the
	 * same), else {@code null}
	 */
	record GoodputSide(String side, List<GoodputRow> rows, List<String> highest, @Nullable String unknown) {
	}

	/**
	 * One cell's goodput in words.
	 *
	 * @param meets whether it meets the objectives; {@code null} when that is unknown (no
	 * share)
	 */
	record GoodputRow(String anchor, String label, String share, String counts, @Nullable Boolean meets, boolean greyed,
			String greyedBy, String verdict) {

		GoodputRow(String anchor, String label, String share, String counts, @Nullable Boolean meets, boolean greyed,
				String greyedBy) {
			this(anchor, label, share, counts, meets, greyed, greyedBy, verdict(meets, greyed, greyedBy));
		}

		/** The verdict in one word: yes, no, unknown, or greyed by its rules. */
		private static String verdict(@Nullable Boolean meets, boolean greyed, String greyedBy) {
			if (greyed && meets != null) {
				return "greyed: " + greyedBy;
			}
			return meets == null ? "unknown" : meets ? "yes" : "no";
		}

	}

	private static final String NO_SAMPLES = "no per-request samples";

	private static final Map<String, String> LABELS = Map.of("slo_ttft_s", "TTFT at most (s)", "slo_tpot_ms",
			"TPOT at most (ms)", "slo_e2e_s", "end-to-end at most (s)", "slo_share", "share of requests (default 0.9)");

	/**
	 * The sweep views of a comparison: its Pareto view and, with objectives set, goodput.
	 */
	static SweepPage of(ComparisonSnapshot snapshot, Map<String, String> query, JsonMapper json) {
		return of(views(snapshot, json), query, json);
	}

	/** A comparison's views as the run page's views are: {@code {pareto[, goodput]}}. */
	static SweepViews.Views views(ComparisonSnapshot snapshot, JsonMapper json) {
		return snapshot.views();
	}

	static SweepPage of(SweepViews.Views views, Map<String, String> query, JsonMapper json) {
		Pareto pareto = views.pareto();
		List<Pareto.Side> paretoSides = pareto == null ? List.of() : pareto.sides();
		String axes = pareto == null ? "Interactivity:  (); throughput:  ()"
				: "Interactivity: " + pareto.interactivityMetric()
						+ ("tpot_ms".equals(pareto.interactivityMetric()) ? " as 1000 / tpot_ms" : "") + " ("
						+ pareto.interactivityUnit() + "); throughput: " + pareto.throughputMetric() + " ("
						+ pareto.throughputUnit() + ")";
		List<PointRow> points = new ArrayList<>();
		boolean comparison = paretoSides.stream().anyMatch(side -> "contender".equals(side.side()));
		paretoSides.forEach(side -> side.points()
			.forEach(point -> points.add(new PointRow(comparison ? side.side() : "", point.anchor(), point.label(),
					round(point.interactivity()), round(point.throughput()), point.onFront(), point.greyed(),
					String.join(", ", point.greyedBy())))));
		List<String> equal = new ArrayList<>();
		if (comparison) {
			pareto.equalInteractivity()
				.forEach(ratio -> equal.add(ratio.group() + ": at equal interactivity, from " + round(ratio.low())
						+ " to " + round(ratio.high()) + " " + pareto.interactivityUnit()
						+ " (where both fronts exist), the contender's throughput is "
						+ range(ratio.lowestRatio(), ratio.highestRatio())
						+ " the baseline's (interpolated on each front)."));
			if (equal.isEmpty()) {
				equal.add("No throughput ratio at equal interactivity: no two fronts share an interactivity (a greyed "
						+ "point is on no front).");
			}
		}
		List<Field> fields = new ArrayList<>();
		for (String name : ServiceLevels.NAMES) {
			fields.add(new Field(name, LABELS.get(name), query.getOrDefault(name, "")));
		}
		List<Field> hidden = new ArrayList<>();
		query.forEach((name, value) -> {
			if (!ServiceLevels.NAMES.contains(name) && value != null && !value.isBlank()) {
				hidden.add(new Field(name, name, value));
			}
		});
		GoodputView goodput = views.goodput();
		String objectives = goodput == null ? null : goodput.objectives().words();
		List<GoodputSide> sides = new ArrayList<>();
		if (goodput != null) {
			goodput.sides().forEach((name, side) -> sides.add(side(name, side)));
		}
		return new SweepPage(json.writeValueAsString(pareto), axes, points, equal, fields, hidden, objectives, sides,
				null, null, points.size());
	}

	private static GoodputSide side(String name, GoodputView.Side side) {
		List<GoodputRow> rows = new ArrayList<>();
		side.cells().forEach(cell -> {
			String shareText = cell.share() != null ? Numbers.format(cell.share() * 100) + " %"
					: "— (" + Objects.toString(cell.missing(), "") + ")";
			String counts = cell.share() != null ? cell.meeting() + " of " + cell.requests() + " requests" : "";
			rows.add(new GoodputRow(cell.anchor(), cell.label(), shareText, counts, cell.meets(), cell.greyed(),
					String.join(", ", cell.greyedBy())));
		});
		List<String> highest = new ArrayList<>();
		side.highestConcurrency()
			.forEach(best -> highest
				.add(best.label() + ": " + (best.concurrency() != null ? "concurrency " + best.concurrency().toString()
						: best.missing() != null ? "unknown (" + best.missing() + ")" : "no concurrency meets them")));
		// Said once for the side when no cell's goodput is known, with the reasons.
		boolean noneKnown = !side.cells().isEmpty() && side.cells().stream().noneMatch(cell -> cell.meets() != null);
		String unknown = noneKnown ? String.join("; ",
				side.cells()
					.stream()
					.map(cell -> Objects.toString(cell.missing(), ""))
					.filter(reason -> !reason.isEmpty())
					.distinct()
					.toList())
				: null;
		return new GoodputSide(name, rows, highest, unknown);
	}

	private static String range(double low, double high) {
		String lowText = Numbers.format(Math.round(low * 100) / 100.0) + "×";
		String highText = Numbers.format(Math.round(high * 100) / 100.0) + "×";
		return lowText.equals(highText) ? lowText : lowText + "–" + highText;
	}

	/** Tokens per second to one decimal: the chart's numbers, readable. */
	private static String round(double value) {
		return Numbers.format(Math.round(value * 10) / 10.0);
	}

}
