package dev.parity.compare;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * What would settle a comparison: the run to make again (the measured side; never a
 * reference; with two measured runs, the contender), each change that removes a greying
 * flag (and the warm-up an annotation asks for), with {@code from} and {@code to} taken
 * from the two runs, what no rerun can remove, and the cells the control would make
 * comparable. Built by each rule's {@link Remedy}, never from the flags' messages; only
 * what differs is listed.
 *
 * @param baseline the baseline run's id
 * @param contender the contender run's id
 * @param settled whether no change is needed: no rerun would make more of the comparison
 * comparable (what stays greyed, if anything, is under {@code cannotSettle})
 * @param rerun the side and run to make again; {@code null} when both runs are references
 * @param changes the changes, greying rules first, one per field
 * @param cannotSettle what no rerun of that side removes, with the reason
 * @param cells the anchors of the cells where a greyed number would become comparable, in
 * the comparison's order
 */
public record ControlPlan(String baseline, String contender, boolean settled, @Nullable Rerun rerun,
		List<ControlChange> changes, @JsonProperty("cannot_settle") List<CannotSettle> cannotSettle,
		List<String> cells) {

	/**
	 * Every rule's remedy, in the order the plan lists their changes: the rules that grey
	 * (the comparison's, then the runs'), then the annotations.
	 */
	static final List<Remedy> REMEDIES = Stream
		.of(ComparisonBuilder.PROVENANCE_RULES, ComparisonBuilder.CELL_PAIR_RULES, ComparisonBuilder.METRIC_RULES,
				RunChecks.RUN_RULES, RunChecks.CELL_RULES)
		.flatMap(List::stream)
		.filter(Remedy.class::isInstance)
		.map(Remedy.class::cast)
		.sorted(Comparator.comparing(remedy -> !remedy.greys()))
		.toList();

	public ControlPlan {
		changes = List.copyOf(changes);
		cannotSettle = List.copyOf(cannotSettle);
		cells = List.copyOf(cells);
	}

	/**
	 * The run to make again.
	 *
	 * @param side {@code baseline} or {@code contender}
	 * @param run its run id
	 */
	public record Rerun(String side, String run) {
	}

	/** The plan that settles this comparison of two single runs. */
	public static ControlPlan of(Comparison comparison) {
		Settling plan = new Settling(comparison);
		REMEDIES.forEach(remedy -> remedy.settle(plan));
		List<String> cells = new ArrayList<>();
		for (ComparedCell cell : comparison.cells()) {
			boolean settles = cell.metrics()
				.stream()
				.anyMatch(metric -> metric.ratio() != null && metric.greyed()
						&& metric.flags().stream().filter(flag -> flag.greys(metric.metric())).allMatch(plan::settles));
			if (settles) {
				cells.add(cell.anchor());
			}
		}
		Rerun rerun = plan.side() == null ? null : new Rerun(plan.side(), plan.rerun().id().value());
		return new ControlPlan(comparison.baseline().id().value(), comparison.contender().id().value(),
				plan.changes().isEmpty(), rerun, plan.changes(), plan.cannotSettle(), cells);
	}

	/** The path of the comparison this plan settles: {@code baseline...contender}. */
	public String pair() {
		return baseline + "..." + contender;
	}

}
