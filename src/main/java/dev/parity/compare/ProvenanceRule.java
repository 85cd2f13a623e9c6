package dev.parity.compare;

import java.util.List;

/**
 * A comparison check about the two runs' provenance (e.g. {@code checkpoint-differs});
 * its flags concern the whole comparison.
 */
interface ProvenanceRule {

	/**
	 * @param differences the provenance diff, each row naming the rule it triggers
	 */
	List<Flag> check(List<ProvenanceDifference> differences, ComparisonContext context);

}
