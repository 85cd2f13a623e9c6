package dev.parity.compare;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import dev.parity.run.Cell;
import dev.parity.run.MetricValue;
import dev.parity.run.Params;
import dev.parity.run.Provenance;
import dev.parity.run.RequestCounts;
import dev.parity.run.Run;
import dev.parity.run.Sample;
import org.jspecify.annotations.Nullable;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * The views of a whole sweep, of one run or of both sides of a comparison, for the pages,
 * the API and the exports: the Pareto front of throughput against interactivity
 * ({@link Pareto}, {@code pareto}) and goodput against service-level objectives
 * ({@link GoodputView}, {@code goodput}).
 *
 * <p>
 * Interactivity is {@code decode_tps} (output tokens per second per user), else 1000 /
 * {@code tpot_ms}; throughput is {@code throughput_tps} (output tokens per second),
 * divided by {@code environment.gpu_count} when the run records it — in a comparison only
 * when both runs do, so both fronts are in the same unit. Cells compete on a front only
 * with the cells that differ from them in the load ({@code concurrency}, else
 * {@code request_rate} or {@code rate}): {@code sides} holds one entry per side and value
 * of the other coordinates, and {@code equal_interactivity} one per such value where both
 * sides' fronts share interactivities.
 */
public final class SweepViews {

	static final String THROUGHPUT = "throughput_tps";

	private SweepViews() {
	}

	/**
	 * A run's or a comparison's views: {@code {pareto[, goodput]}}, goodput only when an
	 * objective is set; a comparison frozen before the Pareto view has neither.
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	@JsonPropertyOrder({ "pareto", "goodput" })
	public record Views(@Nullable Pareto pareto, @Nullable GoodputView goodput) {
	}

	/**
	 * The Pareto view of one run: its cells, greyed where its own checks grey either
	 * number.
	 */
	public static Pareto paretoOfRun(Run run, RunFlags flags) {
		String interactivity = interactivityMetric(
				run.cells().stream().map(Cell::metrics).map(m -> m.keySet()).toList());
		Integer gpus = gpuCount(run);
		List<Grouped> points = new ArrayList<>();
		String load = load(run.cells().stream().map(Cell::params).toList());
		for (Cell cell : run.cells()) {
			Double x = interactivity(cell.metric(interactivity).flatMap(SweepViews::median).orElse(null),
					interactivity);
			Double y = cell.metric(THROUGHPUT).flatMap(SweepViews::median).orElse(null);
			if (x == null || y == null) {
				continue;
			}
			Set<String> reasons = new LinkedHashSet<>();
			for (Flag flag : concat(flags.run(), flags.forCell(cell.anchor()))) {
				if (flag.greys(interactivity) || flag.greys(THROUGHPUT)) {
					reasons.add(flag.rule());
				}
			}
			points.add(new Grouped(group(cell.params(), load), new ParetoFront.Point(cell.anchor(),
					cell.params().label(), x, perGpu(y, gpus), !reasons.isEmpty(), List.copyOf(reasons))));
		}
		List<Pareto.Side> sides = new ArrayList<>();
		side(sides, "run", run, gpus, points);
		return pareto(interactivity, gpus != null, load, sides, List.of());
	}

	/**
	 * The Pareto view of a comparison: both sides' matched cells, each greyed where a
	 * flag of the comparison or of its own side greys either number, both fronts, and the
	 * contender's throughput against the baseline's at equal interactivity, interpolated
	 * where both fronts exist.
	 */
	public static Pareto paretoOfComparison(Comparison comparison) {
		String interactivity = interactivityMetric(comparison.cells()
			.stream()
			.map(cell -> cell.metrics()
				.stream()
				.filter(m -> m.baseline() != null && m.contender() != null)
				.map(ComparedMetric::metric)
				.toList())
			.toList());
		Integer baselineGpus = gpuCount(comparison.baseline());
		Integer contenderGpus = gpuCount(comparison.contender());
		boolean perGpu = baselineGpus != null && contenderGpus != null;
		List<Grouped> baseline = new ArrayList<>();
		List<Grouped> contender = new ArrayList<>();
		String load = load(comparison.cells().stream().map(ComparedCell::params).toList());
		for (ComparedCell cell : comparison.cells()) {
			Optional<ComparedMetric> x = cell.metric(interactivity);
			Optional<ComparedMetric> y = cell.metric(THROUGHPUT);
			if (x.isEmpty() || y.isEmpty()) {
				continue;
			}
			point(cell, x.get(), y.get(), Flag.BASELINE, x.get().baseline(), y.get().baseline(), interactivity,
					perGpu ? baselineGpus : null)
				.map(p -> new Grouped(group(cell.params(), load), p))
				.ifPresent(baseline::add);
			point(cell, x.get(), y.get(), Flag.CONTENDER, x.get().contender(), y.get().contender(), interactivity,
					perGpu ? contenderGpus : null)
				.map(p -> new Grouped(group(cell.params(), load), p))
				.ifPresent(contender::add);
		}
		List<Pareto.Side> sides = new ArrayList<>();
		side(sides, Flag.BASELINE, comparison.baseline(), perGpu ? baselineGpus : null, baseline);
		side(sides, Flag.CONTENDER, comparison.contender(), perGpu ? contenderGpus : null, contender);
		List<Pareto.EqualInteractivity> ratios = new ArrayList<>();
		for (Params group : groups(baseline, contender)) {
			Optional<ParetoFront.EqualInteractivity> equal = ParetoFront.ratio(ParetoFront.of(in(baseline, group)),
					ParetoFront.of(in(contender, group)));
			if (equal.isEmpty()) {
				continue;
			}
			ratios.add(new Pareto.EqualInteractivity(label(group), Pareto.params(group), equal.get().low(),
					equal.get().high(), equal.get().lowestRatio(), equal.get().highestRatio(),
					equal.get()
						.points()
						.stream()
						.map(point -> new Pareto.Ratio(point.interactivity(), point.baseline(), point.contender(),
								point.ratio()))
						.toList()));
		}
		return pareto(interactivity, perGpu, load, sides, ratios);
	}

	/**
	 * A run's goodput under the objectives, each cell greyed where its own checks grey a
	 * measure they bound.
	 */
	public static GoodputView goodputOfRun(Run run, RunFlags flags, ServiceLevels slo) {
		return new GoodputView(GoodputView.Objectives.of(slo), Goodput.side(run.cells(), slo,
				cell -> greying(concat(flags.run(), flags.forCell(cell.anchor())), slo, null)), null, null);
	}

	/**
	 * A comparison's goodput under the objectives, per side over that side's matched
	 * cells, each greyed where a flag of the comparison or of its own side greys a
	 * measure they bound.
	 */
	public static GoodputView goodputOfComparison(Comparison comparison, ServiceLevels slo) {
		return new GoodputView(GoodputView.Objectives.of(slo), null,
				Goodput.side(matched(comparison, comparison.baselineRuns()), slo,
						greyingIn(comparison, slo, Flag.BASELINE)),
				Goodput.side(matched(comparison, comparison.contenderRuns()), slo,
						greyingIn(comparison, slo, Flag.CONTENDER)));
	}

	/**
	 * A side's matched cells; for a group of replicates, each cell's samples and request
	 * counts pooled.
	 */
	private static List<Cell> matched(Comparison comparison, List<Run> runs) {
		Map<String, List<Cell>> byAnchor = new HashMap<>();
		for (Run run : runs) {
			for (Cell cell : run.cells()) {
				byAnchor.computeIfAbsent(cell.anchor(), anchor -> new ArrayList<>()).add(cell);
			}
		}
		List<Cell> cells = new ArrayList<>();
		for (ComparedCell compared : comparison.cells()) {
			List<Cell> same = byAnchor.getOrDefault(compared.anchor(), List.of());
			if (same.size() == 1) {
				cells.add(same.get(0));
			}
			else if (!same.isEmpty()) {
				List<Sample> samples = same.stream().flatMap(cell -> cell.samples().stream()).toList();
				int completed = same.stream().mapToInt(cell -> cell.requests().completedOrZero()).sum();
				int unsuccessful = same.stream().mapToInt(cell -> cell.requests().unsuccessful()).sum();
				cells.add(new Cell(same.get(0).params(), null, new RequestCounts(completed, unsuccessful, 0), null,
						null, Map.of(), samples));
			}
		}
		return cells;
	}

	private static Function<Cell, List<String>> greyingIn(Comparison comparison, ServiceLevels slo, String side) {
		Map<String, ComparedCell> byAnchor = new HashMap<>();
		comparison.cells().forEach(compared -> byAnchor.putIfAbsent(compared.anchor(), compared));
		return cell -> Optional.ofNullable(byAnchor.get(cell.anchor()))
			.map(compared -> greying(compared.metrics().stream().flatMap(m -> m.flags().stream()).toList(), slo, side))
			.orElse(List.of());
	}

	private static List<String> greying(List<Flag> flags, ServiceLevels slo, @Nullable String side) {
		Set<String> rules = new LinkedHashSet<>();
		for (Flag flag : flags) {
			boolean ours = side == null || flag.side() == null || side.equals(flag.side());
			if (ours && slo.measures().stream().anyMatch(flag::greys)) {
				rules.add(flag.rule());
			}
		}
		return List.copyOf(rules);
	}

	private static Optional<ParetoFront.Point> point(ComparedCell cell, ComparedMetric x, ComparedMetric y, String side,
			@Nullable Double xValue, @Nullable Double yValue, String interactivity, @Nullable Integer gpus) {
		Double perUser = interactivity(xValue, interactivity);
		if (perUser == null || yValue == null) {
			return Optional.empty();
		}
		Set<String> reasons = new LinkedHashSet<>();
		for (Flag flag : concat(x.flags(), y.flags())) {
			boolean ours = flag.side() == null || side.equals(flag.side());
			if (ours && (flag.greys(x.metric()) || flag.greys(y.metric()))) {
				reasons.add(flag.rule());
			}
		}
		return Optional.of(new ParetoFront.Point(cell.anchor(), cell.params().label(), perUser, perGpu(yValue, gpus),
				!reasons.isEmpty(), List.copyOf(reasons)));
	}

	private static Pareto pareto(String interactivity, boolean perGpu, @Nullable String load, List<Pareto.Side> sides,
			List<Pareto.EqualInteractivity> equal) {
		return new Pareto(interactivity, "output tokens/s per user", THROUGHPUT,
				perGpu ? "output tokens/s per GPU" : "output tokens/s", perGpu, load, sides, equal);
	}

	/**
	 * A cell's point with the cells it competes with: those differing from it only in the
	 * load coordinate.
	 */
	private record Grouped(Params group, ParetoFront.Point point) {
	}

	/**
	 * The coordinate that sets the load along a front: {@code concurrency}, else
	 * {@code request_rate}, else {@code rate}; {@code null} when the grid has none of
	 * them (then all cells are one front).
	 */
	private static @Nullable String load(List<Params> cells) {
		for (String name : List.of("concurrency", "request_rate", "rate")) {
			if (cells.stream().anyMatch(params -> params.get(name).isPresent())) {
				return name;
			}
		}
		return null;
	}

	private static Params group(Params params, @Nullable String load) {
		return load == null ? Params.of(Map.of()) : params.without(load);
	}

	private static String label(Params group) {
		return group.values().isEmpty() ? "all cells" : group.label();
	}

	private static List<Params> groups(List<Grouped> first, List<Grouped> second) {
		Set<Params> groups = new LinkedHashSet<>();
		first.forEach(point -> groups.add(point.group()));
		second.forEach(point -> groups.add(point.group()));
		return List.copyOf(groups);
	}

	private static List<ParetoFront.Point> in(List<Grouped> points, Params group) {
		return points.stream().filter(point -> point.group().equals(group)).map(Grouped::point).toList();
	}

	/**
	 * One side's fronts: one per value of the coordinates other than the load (a front
	 * across prompt lengths would set a short prompt against a long one), each with its
	 * points and the anchors on it.
	 */
	private static void side(List<Pareto.Side> sides, String name, Run run, @Nullable Integer gpus,
			List<Grouped> points) {
		for (Params group : groups(points, List.of())) {
			List<ParetoFront.Point> members = in(points, group);
			List<ParetoFront.Point> front = ParetoFront.of(members);
			List<Pareto.Point> pointViews = members.stream()
				.map(point -> new Pareto.Point(point.anchor(), point.label(), point.interactivity(), point.throughput(),
						point.greyed(), point.reasons(), ParetoFront.on(front, point.anchor())))
				.toList();
			sides.add(new Pareto.Side(name, run.id().value(), run.title(), label(group), Pareto.params(group), gpus,
					pointViews, front.stream().map(ParetoFront.Point::anchor).toList()));
		}
	}

	/**
	 * {@code decode_tps} when any cell has it, else {@code tpot_ms} when any has that,
	 * else {@code decode_tps}.
	 */
	private static String interactivityMetric(List<? extends Collection<String>> cells) {
		if (cells.stream().anyMatch(metrics -> metrics.contains("decode_tps"))) {
			return "decode_tps";
		}
		return cells.stream().anyMatch(metrics -> metrics.contains("tpot_ms")) ? "tpot_ms" : "decode_tps";
	}

	private static @Nullable Double interactivity(@Nullable Double value, String metric) {
		if (value == null || !(value > 0)) {
			return null;
		}
		return "tpot_ms".equals(metric) ? 1000 / value : value;
	}

	private static Optional<Double> median(MetricValue value) {
		return value.median().isPresent() ? Optional.of(value.median().getAsDouble()) : Optional.empty();
	}

	private static double perGpu(double throughput, @Nullable Integer gpus) {
		return gpus == null ? throughput : throughput / gpus;
	}

	private static @Nullable Integer gpuCount(Run run) {
		Provenance.Environment environment = run.provenance().environment();
		Integer count = environment == null ? null : environment.gpuCount();
		return count != null && count > 0 ? count : null;
	}

	private static List<Flag> concat(List<Flag> first, List<Flag> second) {
		List<Flag> all = new ArrayList<>(first);
		all.addAll(second);
		return all;
	}

}
