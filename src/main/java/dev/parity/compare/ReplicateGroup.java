package dev.parity.compare;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.parity.run.Cell;
import dev.parity.run.MetricValue;
import dev.parity.run.Params;
import dev.parity.run.RequestCounts;
import dev.parity.run.Run;
import dev.parity.run.TokenStats;
import org.jspecify.annotations.Nullable;

/**
 * One side of a comparison: a run, or replicate runs taken together. Each run keeps its
 * own checks; per cell, a run whose checks grey a metric leaves the group for that metric
 * (the cell says so), and the side's value is the median of the remaining runs' values. A
 * group of one is exactly its run.
 *
 * @param runs the runs, in the order given
 * @param checks the runs' checks together: every run flag of any run (a run-wide confound
 * in one replicate greys the side), and every cell flag
 * @param cells the cells of any run, in order of first appearance
 */
record ReplicateGroup(List<Run> runs, RunFlags checks, List<GroupCell> cells) {

	/** One run's cell in a group. */
	record Member(Run run, Cell cell, List<Flag> flags) {

		boolean greys(String metric) {
			return flags.stream().anyMatch(flag -> flag.greys(metric));
		}
	}

	/**
	 * A cell of the group.
	 *
	 * @param members the runs that have this cell
	 * @param combined the side's cell: each metric's statistics the median of the values
	 * of the runs still in the group for it (of all runs when none is)
	 * @param flags the runs' flags of this cell; a flag that greys a metric for some runs
	 * only is said, not applied
	 */
	record GroupCell(List<Member> members, Cell combined, List<Flag> flags) {

		Params params() {
			return combined.params();
		}

		String anchor() {
			return combined.anchor();
		}

		/** The compared statistic of each run still in the group for this metric. */
		double[] values(String metric, String stat) {
			return members.stream()
				.filter(member -> !member.greys(metric))
				.map(member -> member.cell().metric(metric))
				.flatMap(Optional::stream)
				.map(value -> value.statistic(stat))
				.filter(OptionalDouble::isPresent)
				.mapToDouble(OptionalDouble::getAsDouble)
				.toArray();
		}

		/**
		 * The compared statistic by run, in the order of {@code runs}; {@code NaN} for a
		 * run not in the group.
		 */
		double[] valuesByRun(String metric, String stat, List<Run> runs) {
			double[] values = new double[runs.size()];
			Arrays.fill(values, Double.NaN);
			for (Member member : members) {
				if (member.greys(metric)) {
					continue;
				}
				var value = member.cell().metric(metric).map(v -> v.statistic(stat));
				if (value.isPresent() && value.get().isPresent() && value.get().getAsDouble() > 0) {
					values[runs.indexOf(member.run())] = value.get().getAsDouble();
				}
			}
			return values;
		}
	}

	static ReplicateGroup of(List<Run> runs, String side, CompareSettings settings, MetricScope scope) {
		List<RunFlags> checks = runs.stream()
			.map(run -> RunChecks.check(run.document(), settings, scope).onSide(side))
			.toList();
		if (runs.size() == 1) {
			RunFlags only = checks.get(0);
			List<GroupCell> cells = runs.get(0)
				.cells()
				.stream()
				.map(cell -> new GroupCell(List.of(new Member(runs.get(0), cell, only.forCell(cell.anchor()))), cell,
						only.forCell(cell.anchor())))
				.toList();
			return new ReplicateGroup(runs, only, cells);
		}
		Map<Params, List<Member>> byParams = new LinkedHashMap<>();
		for (int i = 0; i < runs.size(); i++) {
			for (Cell cell : runs.get(i).cells()) {
				byParams.computeIfAbsent(cell.params(), params -> new ArrayList<>())
					.add(new Member(runs.get(i), cell, checks.get(i).forCell(cell.anchor())));
			}
		}
		Set<Flag> runFlags = new LinkedHashSet<>();
		checks.forEach(check -> runFlags.addAll(check.run()));
		List<GroupCell> cells = new ArrayList<>();
		Map<String, List<Flag>> cellFlags = new LinkedHashMap<>();
		for (List<Member> members : byParams.values()) {
			GroupCell cell = combine(members);
			cells.add(cell);
			if (!cell.flags().isEmpty()) {
				cellFlags.put(cell.anchor(), cell.flags());
			}
		}
		return new ReplicateGroup(runs, new RunFlags(List.copyOf(runFlags), cellFlags), cells);
	}

	/**
	 * The side with parameters fixed: only the cells with their values, matched on the
	 * other coordinates. The runs' checks stay those of the whole runs, and each member
	 * keeps its own cell (its stored bootstrap medians).
	 */
	ReplicateGroup fixed(FixedParams fixed) {
		if (fixed.isEmpty()) {
			return this;
		}
		List<GroupCell> kept = cells.stream()
			.filter(cell -> fixed.keeps(cell.params()))
			.map(cell -> new GroupCell(cell.members(), fixed.strip(cell.combined()), cell.flags()))
			.toList();
		return new ReplicateGroup(runs, checks, kept);
	}

	/** The run ids joined as in a URL: {@code a1+a2+a3}. */
	String ids() {
		return runs.stream().map(run -> run.id().value()).collect(Collectors.joining("+"));
	}

	private static GroupCell combine(List<Member> members) {
		Set<String> metricNames = new LinkedHashSet<>();
		members.forEach(member -> metricNames.addAll(member.cell().metrics().keySet()));
		Map<String, MetricValue> metrics = new LinkedHashMap<>();
		for (String metric : metricNames) {
			List<MetricValue> kept = members.stream()
				.filter(member -> !member.greys(metric))
				.map(member -> member.cell().metrics().get(metric))
				.filter(Objects::nonNull)
				.toList();
			if (kept.isEmpty()) {
				kept = members.stream()
					.map(member -> member.cell().metrics().get(metric))
					.filter(Objects::nonNull)
					.toList();
			}
			metrics.put(metric, median(kept));
		}
		Set<Flag> flags = new LinkedHashSet<>();
		for (Member member : members) {
			for (Flag flag : member.flags()) {
				Set<String> applied = new LinkedHashSet<>();
				flag.greys()
					.stream()
					.filter(metric -> members.stream().allMatch(other -> other.greys(metric)))
					.forEach(applied::add);
				if (applied.equals(flag.greys())) {
					flags.add(flag);
					continue;
				}
				Set<String> left = new LinkedHashSet<>(flag.greys());
				left.removeAll(applied);
				flags.add(new Flag(flag.rule(), "run " + member.run().id() + " left the group: " + flag.shortForm(),
						"run " + member.run().id() + " left the group for " + String.join(", ", left) + " here: "
								+ flag.message(),
						applied, flag.side(), flag.metric()));
			}
		}
		Member first = members.get(0);
		Cell combined = new Cell(first.cell().params(), first.cell().order(), requests(members), outputTokens(members),
				null, metrics, List.of());
		return new GroupCell(members, combined, List.copyOf(flags));
	}

	/** Every statistic all the values report, as the median over them. */
	private static MetricValue median(List<MetricValue> values) {
		Set<String> statistics = new LinkedHashSet<>(values.get(0).statistics().keySet());
		values.forEach(value -> statistics.retainAll(value.statistics().keySet()));
		Map<String, Double> medians = new LinkedHashMap<>();
		for (String statistic : statistics) {
			medians.put(statistic,
					SampleStatistics.median(values.stream().map(value -> value.statistics().get(statistic)).toList()));
		}
		return new MetricValue(medians, values.stream().allMatch(MetricValue::single));
	}

	/** The runs' counts added up; a count unknown in any run is unknown. */
	private static RequestCounts requests(List<Member> members) {
		return new RequestCounts(sum(members, RequestCounts::completed), sum(members, RequestCounts::failed),
				sum(members, RequestCounts::cancelled));
	}

	private static @Nullable Integer sum(List<Member> members, Function<RequestCounts, @Nullable Integer> count) {
		int total = 0;
		for (Member member : members) {
			Integer value = count.apply(member.cell().requests());
			if (value == null) {
				return null;
			}
			total += value;
		}
		return total;
	}

	/**
	 * The median over the runs of each run's median output tokens; {@code null} when no
	 * run measured them.
	 */
	private static @Nullable TokenStats outputTokens(List<Member> members) {
		List<Double> medians = members.stream()
			.map(member -> CellMeasures.medianOutputTokens(member.cell()))
			.flatMap(Optional::stream)
			.toList();
		return medians.isEmpty() ? null : new TokenStats(SampleStatistics.median(medians), null, null, null);
	}

}
