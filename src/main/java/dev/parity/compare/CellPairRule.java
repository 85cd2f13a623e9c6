package dev.parity.compare;

import java.util.List;

import dev.parity.run.Cell;

/**
 * A comparison check about a matched pair of cells (e.g. {@code output-length-differs});
 * its flags go next to that cell's numbers.
 */
interface CellPairRule {

	List<Flag> check(Cell baseline, Cell contender, ComparisonContext context);

}
