package dev.parity.compare;

import dev.parity.run.RunDocument;

/**
 * What a run check looks at: the run, the thresholds in force and the metrics it may grey.
 */
record RunContext(RunDocument run, CompareSettings settings, MetricScope metrics) {
}
