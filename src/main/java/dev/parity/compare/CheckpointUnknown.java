package dev.parity.compare;

import java.util.List;

/**
 * {@code checkpoint-unknown}: either side has no resolved commit, so the comparison cannot say it holds the weights
 * constant. Greys everything, whatever the comparison varies.
 */
final class CheckpointUnknown implements ProvenanceRule {

	static final String ID = "checkpoint-unknown";

	@Override
	public List<Flag> check(List<ProvenanceDifference> differences, ComparisonContext context) {
		return differences.stream().filter(row -> ID.equals(row.rule())).findFirst().map(commit -> {
			String unpinned = commit.baseline() == null && commit.contender() == null ? "neither run has"
					: commit.baseline() == null ? "the baseline has no" : "the contender has no";
			String side = commit.baseline() == null && commit.contender() == null ? "either side"
					: commit.baseline() == null ? "baseline" : "contender";
			return Flag.greying(ID, "no commit pinned (" + side + ")", unpinned + " resolved commit ("
					+ Checkpoints.describe(differences, Flag.BASELINE) + " vs "
					+ Checkpoints.describe(differences, Flag.CONTENDER)
					+ "): this comparison cannot claim a checkpoint — pin the commit", context.metrics().all());
		}).stream().toList();
	}

}
