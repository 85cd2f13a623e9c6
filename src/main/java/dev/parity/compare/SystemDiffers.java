package dev.parity.compare;

/**
 * {@code system-differs}: the system name differs between the runs, both sides having a value. Greys everything,
 * unless {@code vary=system} (then it annotates).
 */
final class SystemDiffers extends DifferenceRule {

	static final String ID = "system-differs";

	SystemDiffers() {
		super(ID, "system", "the systems under test differ", "run both on the same system");
	}

}
