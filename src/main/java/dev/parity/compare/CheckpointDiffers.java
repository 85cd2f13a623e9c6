package dev.parity.compare;

import java.util.List;

/**
 * {@code checkpoint-differs}: the resolved commits differ. Greys everything, unless
 * {@code vary=checkpoint} (then it annotates): other weights are another model.
 */
final class CheckpointDiffers implements ProvenanceRule, Remedy {

	static final String ID = "checkpoint-differs";

	private static final String VARIABLE = "checkpoint";

	@Override
	public String id() {
		return ID;
	}

	/**
	 * The rerun side pinned to the other side's commit, unless the checkpoint is what the
	 * comparison varies.
	 */
	@Override
	public void settle(Settling plan) {
		if (plan.settings().varies(VARIABLE)) {
			return;
		}
		plan.rows(ID).forEach(row -> {
			if (!plan.canRerun()) {
				plan.cannot(ID, "the two references were measured on other weights (" + row.baseline() + " vs "
						+ row.contender() + "), and neither is rerun");
				return;
			}
			Object to = plan.value(plan.otherSide(), row.field());
			plan.change(ID, row.field(), plan.value(plan.side(), row.field()), to, "pin the model to the commit "
					+ plan.name(plan.otherSide()) + " used: serve with --revision " + to + " and record that commit");
		});
	}

	@Override
	public List<Flag> check(List<ProvenanceDifference> differences, ComparisonContext context) {
		return differences.stream().filter(row -> ID.equals(row.rule())).findFirst().map(commit -> {
			String commits = Checkpoints.describe(differences, Flag.BASELINE) + " vs "
					+ Checkpoints.describe(differences, Flag.CONTENDER);
			String found = "checkpoints differ: " + commits;
			if (context.settings().varies(VARIABLE)) {
				return Flag.annotation(ID, "varied: " + commits,
						found + ": the variable this comparison sets out to vary (vary=checkpoint)");
			}
			return Flag.greying(ID,
					"other weights: " + Checkpoints.commit(differences, Flag.BASELINE) + " vs "
							+ Checkpoints.commit(differences, Flag.CONTENDER),
					found + ": other weights — pin both runs to the same commit, or compare with vary=checkpoint",
					context.metrics().all());
		}).stream().toList();
	}

}
