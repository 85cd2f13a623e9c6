package dev.parity.compare;

/**
 * {@code dataset-differs}: the declared dataset differs between the runs, both sides
 * having a value. Greys everything, unless {@code vary=dataset} (then it annotates).
 */
final class DatasetDiffers extends DifferenceRule {

	static final String ID = "dataset-differs";

	DatasetDiffers() {
		super(ID, "dataset", "the declared datasets differ", "run both on the same dataset");
	}

}
