package dev.parity.compare;

import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * A provenance rule that fires on the diff rows that trigger it, showing both values side
 * by side. With a variable, the difference greys everything unless it is the variable the
 * comparison varies; without one, it only annotates.
 */
abstract class DifferenceRule implements ProvenanceRule, Remedy {

	private final String id;

	private final @Nullable String variable;

	private final String finding;

	private final String control;

	/**
	 * @param id the rule id
	 * @param variable the {@code vary} value that makes this difference the point of the
	 * comparison; {@code null} for a difference that only annotates
	 * @param finding what differs, for people
	 * @param control what would remove the flag
	 */
	DifferenceRule(String id, @Nullable String variable, String finding, String control) {
		this.id = id;
		this.variable = variable;
		this.finding = finding;
		this.control = control;
	}

	@Override
	public String id() {
		return id;
	}

	/**
	 * Each differing field set on the rerun side to the other side's value, unless it is
	 * the variable the comparison varies (the point of the comparison, which no control
	 * removes).
	 */
	@Override
	public void settle(Settling plan) {
		if (variable != null && plan.settings().varies(variable)) {
			return;
		}
		for (ProvenanceDifference row : plan.rows(id)) {
			if (!plan.canRerun()) {
				plan.cannot(id, finding + " (" + row.sideBySide() + ") and both runs are references: neither is rerun");
				continue;
			}
			settleRow(row, plan);
		}
	}

	/**
	 * The change for one differing field: the rerun side takes the other side's value.
	 */
	void settleRow(ProvenanceDifference row, Settling plan) {
		Object to = plan.value(plan.otherSide(), row.field());
		plan.change(id, row.field(), plan.value(plan.side(), row.field()), to, control + ": set " + row.field() + " to "
				+ (to == null ? "(unset)" : to) + " as " + plan.name(plan.otherSide()) + " has it");
	}

	/**
	 * A difference without a variable only annotates: its changes come after those of the
	 * rules that grey.
	 */
	@Override
	public boolean greys() {
		return variable != null;
	}

	/** What differs, for people: {@code the systems under test differ}. */
	String finding() {
		return finding;
	}

	@Override
	public List<Flag> check(List<ProvenanceDifference> differences, ComparisonContext context) {
		List<ProvenanceDifference> triggered = differences.stream().filter(row -> id.equals(row.rule())).toList();
		if (triggered.isEmpty()) {
			return List.of();
		}
		String found = finding + ": "
				+ triggered.stream().map(ProvenanceDifference::sideBySide).collect(Collectors.joining("; "));
		String brief = triggered.get(0).sideBySide()
				+ (triggered.size() > 1 ? " (+" + (triggered.size() - 1) + " more)" : "");
		if (variable == null) {
			return List.of(Flag.annotation(id, brief, found + " — " + control));
		}
		if (context.settings().varies(variable)) {
			return List.of(Flag.annotation(id, brief,
					found + ": the variable this comparison sets out to vary (vary=" + variable + ")"));
		}
		return List.of(Flag.greying(id, brief,
				found + ": not one variable at a time — " + control + ", or compare with vary=" + variable,
				context.metrics().all()));
	}

}
