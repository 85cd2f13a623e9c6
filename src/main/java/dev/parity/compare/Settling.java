package dev.parity.compare;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import dev.parity.run.Cell;
import dev.parity.run.Provenance;
import dev.parity.run.Role;
import dev.parity.run.Run;
import org.jspecify.annotations.Nullable;

/**
 * A control plan being built: the comparison, the side to rerun, where each rule's flags
 * are, and the changes and reasons the rules' {@link Remedy remedies} add. A change to a
 * field already planned is not added twice.
 */
final class Settling {

	/** Warm-up requests to plan when the other side declares none. */
	static final int DEFAULT_WARMUP = 16;

	private final Comparison comparison;

	private final @Nullable String side;

	private final List<ControlChange> changes = new ArrayList<>();

	private final List<CannotSettle> cannot = new ArrayList<>();

	/** The rules that planned a change, and those that said what cannot be settled. */
	private final Set<String> changed = new LinkedHashSet<>();

	private final Set<String> unsettled = new LinkedHashSet<>();

	/** The comparison's flags by rule ({@link #found}), read once. */
	private @Nullable Map<String, List<Found>> byRule;

	/**
	 * A flag where it was found: on a cell ({@code anchor}), or on the whole comparison
	 * or run.
	 */
	record Found(Flag flag, @Nullable String anchor) {
	}

	Settling(Comparison comparison) {
		this.comparison = comparison;
		this.side = sideToRerun(comparison.baseline(), comparison.contender());
	}

	/**
	 * The measured side: never a reference; with two measured runs, the contender;
	 * {@code null} for two references.
	 */
	static @Nullable String sideToRerun(Run baseline, Run contender) {
		if (contender.role() == Role.MEASURED) {
			return Flag.CONTENDER;
		}
		return baseline.role() == Role.MEASURED ? Flag.BASELINE : null;
	}

	Comparison comparison() {
		return comparison;
	}

	CompareSettings settings() {
		return comparison.settings();
	}

	/**
	 * {@code baseline} or {@code contender}; {@code null} when both runs are references.
	 */
	@Nullable String side() {
		return side;
	}

	boolean canRerun() {
		return side != null;
	}

	/** The side no control reruns. */
	String otherSide() {
		return Flag.BASELINE.equals(side) ? Flag.CONTENDER : Flag.BASELINE;
	}

	Run run(String which) {
		return Flag.BASELINE.equals(which) ? comparison.baseline() : comparison.contender();
	}

	Run rerun() {
		return run(Objects.requireNonNull(side));
	}

	Run other() {
		return run(otherSide());
	}

	/** "the reference" or "the baseline", for reasons. */
	String name(String which) {
		return run(which).role() == Role.REFERENCE ? "the reference" : "the " + which;
	}

	boolean reruns(@Nullable String which) {
		return side != null && side.equals(which);
	}

	/**
	 * Every flag of this rule in the comparison: its own, both runs', each cell's and
	 * each metric's.
	 */
	List<Found> found(String rule) {
		if (byRule == null) {
			byRule = byRule(comparison);
		}
		return byRule.getOrDefault(rule, List.of());
	}

	/**
	 * Every flag of the comparison where it was found, by rule, in one pass: the
	 * comparison's own, the baseline's, the contender's, then cell by cell the cell's and
	 * its metrics' (those not already the comparison's or a run's), each once.
	 */
	private static Map<String, List<Found>> byRule(Comparison comparison) {
		Map<String, List<Found>> found = new HashMap<>();
		List<Flag> whole = new ArrayList<>(comparison.flags());
		whole.addAll(comparison.baselineChecks().run());
		whole.addAll(comparison.contenderChecks().run());
		whole.forEach(flag -> found.computeIfAbsent(flag.rule(), rule -> new ArrayList<>()).add(new Found(flag, null)));
		Set<Flag> everywhere = new HashSet<>(whole);
		for (ComparedCell cell : comparison.cells()) {
			Set<Flag> seen = new LinkedHashSet<>(cell.flags());
			cell.metrics()
				.forEach(metric -> metric.flags()
					.stream()
					.filter(flag -> !everywhere.contains(flag))
					.forEach(seen::add));
			seen.forEach(flag -> found.computeIfAbsent(flag.rule(), rule -> new ArrayList<>())
				.add(new Found(flag, cell.anchor())));
		}
		return found;
	}

	/**
	 * The anchors of the cells where this rule's flag is on this side ({@code null}:
	 * flags of the comparison's own).
	 */
	List<String> cells(String rule, @Nullable String which) {
		return found(rule).stream()
			.filter(f -> f.anchor() != null && Objects.equals(f.flag().side(), which))
			.map(Found::anchor)
			.distinct()
			.toList();
	}

	/**
	 * Whether this rule's flags are on this side ({@code null}: the comparison's own
	 * flags).
	 */
	boolean on(String rule, @Nullable String which) {
		return found(rule).stream().anyMatch(f -> Objects.equals(f.flag().side(), which));
	}

	/**
	 * When this rule's flags are on the side no control reruns (or both runs are
	 * references): why that stays, naming the cells.
	 * @param what what was found there, e.g. {@code requests failed or were cancelled}
	 */
	void cannotOnOtherSide(String rule, String what) {
		String other = canRerun() ? otherSide() : null;
		List<String> sides = canRerun() ? List.of(otherSide()) : List.of(Flag.BASELINE, Flag.CONTENDER);
		for (String which : sides) {
			if (!on(rule, which)) {
				continue;
			}
			List<String> anchors = cells(rule, which);
			String where = anchors.isEmpty() ? "" : " at " + String.join(", ", anchors);
			cannot(rule, what + " on " + name(which) + "'s side" + where + ": " + (other == null
					? "both runs are references, and neither is rerun" : "no rerun of the " + side + " removes that"));
		}
	}

	/** The provenance diff's rows that trigger this rule. */
	List<ProvenanceDifference> rows(String rule) {
		return comparison.provenance().stream().filter(row -> rule.equals(row.rule())).toList();
	}

	/** A field's value on a side, typed as the run document has it. */
	@Nullable Object value(String which, String field) {
		return ProvenanceFields.value(run(which).provenance(), field);
	}

	Provenance provenance(String which) {
		return run(which).provenance();
	}

	Optional<Cell> cell(String which, String anchor) {
		return run(which).cells().stream().filter(cell -> cell.anchor().equals(anchor)).findFirst();
	}

	/**
	 * The output tokens per request a control must measure: the median, over these cells
	 * (every matched cell when none), of the other side's measured medians; else what it
	 * declares.
	 */
	Optional<Double> outputTarget(List<String> anchors) {
		List<Double> medians = new ArrayList<>();
		for (ComparedCell cell : comparison.cells()) {
			if (anchors.isEmpty() || anchors.contains(cell.anchor())) {
				cell(otherSide(), cell.anchor()).flatMap(CellMeasures::medianOutputTokens).ifPresent(medians::add);
			}
		}
		if (!medians.isEmpty()) {
			return Optional.of((double) Math.round(SampleStatistics.median(medians)));
		}
		return Optional.ofNullable(provenance(otherSide()).workload().outputTokens()).map(Integer::doubleValue);
	}

	ControlCheck outputCheck(List<String> anchors) {
		return outputTarget(anchors)
			.map(target -> new ControlCheck(ControlCheck.OUTPUT_TOKENS, target, settings().outputTolerance()))
			.orElse(null);
	}

	/**
	 * The warm-up to plan: the other side's, when it declares one, else
	 * {@value #DEFAULT_WARMUP} requests.
	 */
	int warmupTarget() {
		Integer other = provenance(otherSide()).workload().warmupRequests();
		return other != null && other > 0 ? other : DEFAULT_WARMUP;
	}

	void change(String rule, String field, @Nullable Object from, @Nullable Object to, String how) {
		change(rule, field, from, to, how, null);
	}

	void change(String rule, String field, @Nullable Object from, @Nullable Object to, String how,
			@Nullable ControlCheck check) {
		changed.add(rule);
		if (changes.stream().noneMatch(change -> change.field().equals(field))) {
			changes.add(new ControlChange(rule, field, from, to, how, check));
		}
	}

	void cannot(String rule, String why) {
		unsettled.add(rule);
		CannotSettle reason = new CannotSettle(rule, why);
		if (!cannot.contains(reason)) {
			cannot.add(reason);
		}
	}

	List<ControlChange> changes() {
		return List.copyOf(changes);
	}

	List<CannotSettle> cannotSettle() {
		return List.copyOf(cannot);
	}

	/**
	 * Whether the control removes this flag: its rule planned a change, and the flag is
	 * on the side rerun, or concerns both and its rule found nothing that cannot be
	 * settled.
	 */
	boolean settles(Flag flag) {
		if (!changed.contains(flag.rule())) {
			return false;
		}
		if (flag.side() != null) {
			return reruns(flag.side());
		}
		return !unsettled.contains(flag.rule());
	}

}
