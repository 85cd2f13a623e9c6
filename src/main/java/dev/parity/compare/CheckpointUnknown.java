package dev.parity.compare;

import java.util.List;

/**
 * {@code checkpoint-unknown}: either side has no resolved commit, so the comparison
 * cannot say it holds the weights constant. Greys everything, whatever the comparison
 * varies.
 */
final class CheckpointUnknown implements ProvenanceRule, Remedy {

	static final String ID = "checkpoint-unknown";

	@Override
	public String id() {
		return ID;
	}

	/**
	 * The rerun side pinned to the other side's commit; a side no control reruns that
	 * records no commit cannot be pinned afterwards.
	 */
	@Override
	public void settle(Settling plan) {
		plan.rows(ID).forEach(row -> {
			if (!plan.canRerun() || plan.value(plan.otherSide(), row.field()) == null) {
				plan.cannot(ID, (plan.canRerun() ? plan.name(plan.otherSide()) : "a reference")
						+ " records no resolved commit: no rerun can show that both ran the same weights");
				return;
			}
			Object to = plan.value(plan.otherSide(), row.field());
			plan.change(ID, row.field(), plan.value(plan.side(), row.field()), to,
					"pin the model: serve with --revision " + to + " (the commit " + plan.name(plan.otherSide())
							+ " used), not a moving revision such as \"main\", and record the commit");
		});
	}

	@Override
	public List<Flag> check(List<ProvenanceDifference> differences, ComparisonContext context) {
		return differences.stream().filter(row -> ID.equals(row.rule())).findFirst().map(commit -> {
			String unpinned = commit.baseline() == null && commit.contender() == null ? "neither run has"
					: commit.baseline() == null ? "the baseline has no" : "the contender has no";
			String side = commit.baseline() == null && commit.contender() == null ? "either side"
					: commit.baseline() == null ? "baseline" : "contender";
			return Flag.greying(ID, "no commit pinned (" + side + ")",
					unpinned + " resolved commit (" + Checkpoints.describe(differences, Flag.BASELINE) + " vs "
							+ Checkpoints.describe(differences, Flag.CONTENDER)
							+ "): this comparison cannot claim a checkpoint — pin the commit",
					context.metrics().all());
		}).stream().toList();
	}

}
