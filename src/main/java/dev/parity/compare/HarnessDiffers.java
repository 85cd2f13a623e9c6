package dev.parity.compare;

import dev.parity.run.Role;

/**
 * {@code harness-differs}: the harness name differs between the runs, both sides having a
 * value. Greys everything, unless {@code vary=harness} (then it annotates).
 */
final class HarnessDiffers extends DifferenceRule {

	static final String ID = "harness-differs";

	HarnessDiffers() {
		super(ID, "harness", "the harnesses differ", "measure both with the same harness");
	}

	/**
	 * A reference's harness is its publisher's: a rerun of ours cannot be sure to be
	 * measured the same way.
	 */
	@Override
	void settleRow(ProvenanceDifference row, Settling plan) {
		if (plan.other().role() == Role.REFERENCE) {
			plan.cannot(ID, "the reference was measured with its publisher's harness ("
					+ plan.value(plan.otherSide(), row.field()) + "), ours with " + plan.value(plan.side(), row.field())
					+ ": a rerun cannot reproduce how the reference measured — say so beside every number");
			return;
		}
		super.settleRow(row, plan);
	}

}
