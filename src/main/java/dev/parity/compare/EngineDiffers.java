package dev.parity.compare;

/**
 * {@code engine-differs}: the engine name differs between the runs, both sides having a
 * value. Greys everything, unless {@code vary=engine} (then it annotates).
 */
final class EngineDiffers extends DifferenceRule {

	static final String ID = "engine-differs";

	EngineDiffers() {
		super(ID, "engine", "the serving engines differ", "serve both with the same engine");
	}

}
