package dev.parity.compare;

import java.util.List;

/**
 * A comparison check about one metric of a matched pair of cells (e.g.
 * {@code implausible-ratio}); its flags grey that number only.
 */
interface MetricRule {

	List<Flag> check(MetricPair pair, ComparisonContext context);

}
