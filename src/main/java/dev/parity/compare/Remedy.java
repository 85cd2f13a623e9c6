package dev.parity.compare;

/**
 * What removes a rule's flags from a comparison: implemented by every rule that greys,
 * and by annotations that name a remedy ({@code no-warmup}), beside the rule's own check,
 * so that each rule's remedy is said in one place.
 */
interface Remedy {

	/** The rule's id, as its flags carry it. */
	String id();

	/**
	 * Adds to the plan the changes that remove this rule's flags, or why none can.
	 * @param plan the comparison, the side to rerun, and what the plan has so far
	 */
	void settle(Settling plan);

	/**
	 * Whether this rule greys numbers (then its changes come first in a plan) or only
	 * annotates them.
	 */
	default boolean greys() {
		return true;
	}

}
