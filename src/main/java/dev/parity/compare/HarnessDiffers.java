package dev.parity.compare;

/**
 * {@code harness-differs}: the harness name differs between the runs, both sides having a value. Greys everything,
 * unless {@code vary=harness} (then it annotates).
 */
final class HarnessDiffers extends DifferenceRule {

	static final String ID = "harness-differs";

	HarnessDiffers() {
		super(ID, "harness", "the harnesses differ", "measure both with the same harness");
	}

}
