package dev.parity.compare;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import dev.parity.run.Cell;
import dev.parity.run.MetricValue;
import dev.parity.run.Provenance;
import dev.parity.run.Run;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The views of a whole sweep, of one run or of both sides of a comparison, as JSON for the pages, the API and the
 * exports: the Pareto front of throughput against interactivity ({@code pareto}) and goodput against service-level
 * objectives ({@code goodput}).
 *
 * <p>Interactivity is {@code decode_tps} (output tokens per second per user), else 1000 / {@code tpot_ms}; throughput
 * is {@code throughput_tps} (output tokens per second), divided by {@code environment.gpu_count} when the run records
 * it — in a comparison only when both runs do, so both fronts are in the same unit.
 */
public final class SweepViews {

	static final String THROUGHPUT = "throughput_tps";

	private SweepViews() {
	}

	/** The Pareto view of one run: its cells, greyed where its own checks grey either number. */
	public static ObjectNode paretoOfRun(Run run, RunFlags flags, JsonMapper mapper) {
		String interactivity = interactivityMetric(run.cells().stream().map(Cell::metrics).map(m -> m.keySet()).toList());
		Integer gpus = gpuCount(run);
		ObjectNode json = header(interactivity, gpus != null, mapper);
		List<ParetoFront.Point> points = new ArrayList<>();
		for (Cell cell : run.cells()) {
			Double x = interactivity(cell.metric(interactivity).flatMap(SweepViews::median).orElse(null), interactivity);
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
			points.add(new ParetoFront.Point(cell.anchor(), cell.params().label(), x, perGpu(y, gpus), !reasons.isEmpty(),
					List.copyOf(reasons)));
		}
		ArrayNode sides = json.putArray("sides");
		side(sides, "run", run, gpus, points);
		json.putNull("equal_interactivity");
		return json;
	}

	/**
	 * The Pareto view of a comparison: both sides' matched cells, each greyed where a flag of the comparison or of
	 * its own side greys either number, both fronts, and the contender's throughput against the baseline's at equal
	 * interactivity, interpolated where both fronts exist.
	 */
	public static ObjectNode paretoOfComparison(Comparison comparison, JsonMapper mapper) {
		String interactivity = interactivityMetric(comparison.cells().stream()
			.map(cell -> cell.metrics().stream().filter(m -> m.baseline() != null && m.contender() != null)
				.map(ComparedMetric::metric).toList())
			.toList());
		Integer baselineGpus = gpuCount(comparison.baseline());
		Integer contenderGpus = gpuCount(comparison.contender());
		boolean perGpu = baselineGpus != null && contenderGpus != null;
		ObjectNode json = header(interactivity, perGpu, mapper);
		List<ParetoFront.Point> baseline = new ArrayList<>();
		List<ParetoFront.Point> contender = new ArrayList<>();
		for (ComparedCell cell : comparison.cells()) {
			Optional<ComparedMetric> x = cell.metric(interactivity);
			Optional<ComparedMetric> y = cell.metric(THROUGHPUT);
			if (x.isEmpty() || y.isEmpty()) {
				continue;
			}
			point(cell, x.get(), y.get(), Flag.BASELINE, x.get().baseline(), y.get().baseline(), interactivity,
					perGpu ? baselineGpus : null).ifPresent(baseline::add);
			point(cell, x.get(), y.get(), Flag.CONTENDER, x.get().contender(), y.get().contender(), interactivity,
					perGpu ? contenderGpus : null).ifPresent(contender::add);
		}
		ArrayNode sides = json.putArray("sides");
		side(sides, Flag.BASELINE, comparison.baseline(), perGpu ? baselineGpus : null, baseline);
		side(sides, Flag.CONTENDER, comparison.contender(), perGpu ? contenderGpus : null, contender);
		Optional<ParetoFront.EqualInteractivity> equal = ParetoFront.ratio(ParetoFront.of(baseline),
				ParetoFront.of(contender));
		if (equal.isEmpty()) {
			json.putNull("equal_interactivity");
		}
		else {
			ObjectNode ratio = json.putObject("equal_interactivity");
			ratio.put("low", equal.get().low());
			ratio.put("high", equal.get().high());
			ratio.put("lowest_ratio", equal.get().lowestRatio());
			ratio.put("highest_ratio", equal.get().highestRatio());
			ArrayNode at = ratio.putArray("points");
			for (ParetoFront.Ratio point : equal.get().points()) {
				ObjectNode entry = at.addObject();
				entry.put("interactivity", point.interactivity());
				entry.put("baseline", point.baseline());
				entry.put("contender", point.contender());
				entry.put("ratio", point.ratio());
			}
		}
		return json;
	}

	/** A run's goodput under the objectives, each cell greyed where its own checks grey a measure they bound. */
	public static ObjectNode goodputOfRun(Run run, RunFlags flags, ServiceLevels slo, JsonMapper mapper) {
		ObjectNode json = mapper.createObjectNode();
		json.set("objectives", Goodput.objectives(slo, mapper));
		ObjectNode side = Goodput.json(run.cells(), slo,
				cell -> greying(concat(flags.run(), flags.forCell(cell.anchor())), slo, null), mapper);
		json.set("run", side);
		return json;
	}

	/**
	 * A comparison's goodput under the objectives, per side over that side's matched cells, each greyed where a flag
	 * of the comparison or of its own side greys a measure they bound.
	 */
	public static ObjectNode goodputOfComparison(Comparison comparison, ServiceLevels slo, JsonMapper mapper) {
		ObjectNode json = mapper.createObjectNode();
		json.set("objectives", Goodput.objectives(slo, mapper));
		json.set(Flag.BASELINE, Goodput.json(matched(comparison, comparison.baselineRuns()), slo,
				greyingIn(comparison, slo, Flag.BASELINE), mapper));
		json.set(Flag.CONTENDER, Goodput.json(matched(comparison, comparison.contenderRuns()), slo,
				greyingIn(comparison, slo, Flag.CONTENDER), mapper));
		return json;
	}

	/** A side's matched cells; for a group of replicates, each cell's samples and request counts pooled. */
	private static List<Cell> matched(Comparison comparison, List<Run> runs) {
		List<Cell> cells = new ArrayList<>();
		for (ComparedCell compared : comparison.cells()) {
			List<Cell> same = runs.stream().flatMap(run -> run.cells().stream())
				.filter(cell -> cell.anchor().equals(compared.anchor())).toList();
			if (same.size() == 1) {
				cells.add(same.get(0));
			}
			else if (!same.isEmpty()) {
				List<dev.parity.run.Sample> samples = same.stream().flatMap(cell -> cell.samples().stream()).toList();
				int completed = same.stream().mapToInt(cell -> cell.requests().completedOrZero()).sum();
				int unsuccessful = same.stream().mapToInt(cell -> cell.requests().unsuccessful()).sum();
				cells.add(new Cell(same.get(0).params(), null,
						new dev.parity.run.RequestCounts(completed, unsuccessful, 0), null, null, java.util.Map.of(),
						samples));
			}
		}
		return cells;
	}

	private static Function<Cell, List<String>> greyingIn(Comparison comparison, ServiceLevels slo, String side) {
		return cell -> comparison.cell(cell.anchor())
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

	private static ObjectNode header(String interactivity, boolean perGpu, JsonMapper mapper) {
		ObjectNode json = mapper.createObjectNode();
		json.put("interactivity_metric", interactivity);
		json.put("interactivity_unit", "output tokens/s per user");
		json.put("throughput_metric", THROUGHPUT);
		json.put("throughput_unit", perGpu ? "output tokens/s per GPU" : "output tokens/s");
		json.put("per_gpu", perGpu);
		return json;
	}

	private static void side(ArrayNode sides, String name, Run run, @Nullable Integer gpus,
			List<ParetoFront.Point> points) {
		List<ParetoFront.Point> front = ParetoFront.of(points);
		ObjectNode side = sides.addObject();
		side.put("side", name);
		side.put("run", run.id().value());
		side.put("title", run.title());
		if (gpus == null) {
			side.putNull("gpu_count");
		}
		else {
			side.put("gpu_count", gpus);
		}
		ArrayNode pointsJson = side.putArray("points");
		for (ParetoFront.Point point : points) {
			ObjectNode entry = pointsJson.addObject();
			entry.put("anchor", point.anchor());
			entry.put("label", point.label());
			entry.put("interactivity", point.interactivity());
			entry.put("throughput", point.throughput());
			entry.put("greyed", point.greyed());
			ArrayNode reasons = entry.putArray("greyed_by");
			point.reasons().forEach(reasons::add);
			entry.put("on_front", ParetoFront.on(front, point.anchor()));
		}
		ArrayNode frontJson = side.putArray("front");
		front.forEach(point -> frontJson.add(point.anchor()));
	}

	/** {@code decode_tps} when any cell has it, else {@code tpot_ms} when any has that, else {@code decode_tps}. */
	private static String interactivityMetric(List<? extends java.util.Collection<String>> cells) {
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
