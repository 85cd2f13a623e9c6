package dev.parity.compare;

/**
 * {@code versions-differ}: the engine or harness version differs between the runs, both
 * sides having a value. Annotates, with both values side by side.
 */
final class VersionsDiffer extends DifferenceRule {

	static final String ID = "versions-differ";

	VersionsDiffer() {
		super(ID, null, "engine or harness versions differ", "use the same versions to rule them out");
	}

}
