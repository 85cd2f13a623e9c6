package dev.parity.compare;

import java.util.IdentityHashMap;
import java.util.Map;

import dev.parity.run.Cell;
import dev.parity.run.RunDocument;
import dev.parity.run.SampleSummary;

/**
 * What a run check looks at: the run, the thresholds in force and the metrics it may grey.
 *
 * @param summaries each cell's sample statistics once read ({@link #summary})
 */
record RunContext(RunDocument run, CompareSettings settings, MetricScope metrics, Map<Cell, SampleSummary> summaries) {

	RunContext(RunDocument run, CompareSettings settings, MetricScope metrics) {
		this(run, settings, metrics, new IdentityHashMap<>());
	}

	/** The cell's sample statistics under these thresholds, read once for every check of the cell. */
	SampleSummary summary(Cell cell) {
		return summaries.computeIfAbsent(cell, c -> SampleSummaries.of(c, settings.outlierZ()));
	}

}
