package dev.parity.compare;

/**
 * {@code flags-differ}: the value of a non-critical engine flag differs between the runs,
 * both sides having a value. Annotates, with both values side by side.
 */
final class FlagsDiffer extends DifferenceRule {

	static final String ID = "flags-differ";

	FlagsDiffer() {
		super(ID, null, "engine flags differ", "set them alike to rule them out");
	}

}
