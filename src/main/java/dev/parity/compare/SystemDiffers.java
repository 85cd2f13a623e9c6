package dev.parity.compare;

/**
 * {@code system-differs}: the system name differs between the runs, both sides having a
 * value. Greys everything, unless {@code vary=system} (then it annotates).
 */
final class SystemDiffers extends DifferenceRule {

	static final String ID = "system-differs";

	SystemDiffers() {
		super(ID, "system", "the systems under test differ", "run both on the same system");
	}

	/** The systems are what is compared: no rerun removes them. */
	@Override
	void settleRow(ProvenanceDifference row, Settling plan) {
		plan.cannot(ID, finding() + " (" + row.baseline() + " vs " + row.contender()
				+ "): they are what the comparison compares, and no rerun of one side removes that — compare with vary=system");
	}

}
