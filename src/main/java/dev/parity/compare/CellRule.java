package dev.parity.compare;

import java.util.List;

import dev.parity.run.Cell;

/**
 * A run check about one cell (e.g. {@code runaway}); its flags go next to that cell's
 * numbers.
 */
interface CellRule {

	List<Flag> check(Cell cell, RunContext context);

}
