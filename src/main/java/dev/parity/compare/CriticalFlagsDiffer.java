package dev.parity.compare;

/**
 * {@code critical-flags-differ}: the value of a critical engine flag (see
 * {@code critical_flags}) differs between the runs, both sides having a value. Greys
 * everything, unless {@code vary=flags} (then it annotates).
 */
final class CriticalFlagsDiffer extends DifferenceRule {

	static final String ID = "critical-flags-differ";

	CriticalFlagsDiffer() {
		super(ID, "flags", "critical engine flags differ", "serve both with the same values for these flags");
	}

}
