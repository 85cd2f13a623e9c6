package dev.parity.compare;

/**
 * {@code params-differ}: the declared request parameters or reasoning mode differs
 * between the runs, both sides having a value. Annotates, with both values side by side.
 */
final class ParamsDiffer extends DifferenceRule {

	static final String ID = "params-differ";

	ParamsDiffer() {
		super(ID, null, "declared request parameters differ",
				"send the same request parameters, and trust measured output length over declarations");
	}

}
