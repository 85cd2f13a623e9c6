package dev.parity.compare;

/**
 * What a comparison check looks at besides its own inputs: the settings in force and the
 * metrics it may grey.
 */
record ComparisonContext(CompareSettings settings, MetricScope metrics) {
}
