package dev.parity.history;

import java.util.List;

/**
 * What the comparison checks say between a run and the run before it in its series: the
 * differences that break the segment, and those that only annotate (events). A function
 * of the two runs alone, so it is computed once per pair and kept; a run inserted out of
 * order, or a retraction, only asks for the pairs whose baseline changed.
 */
public record RunPair(String run, String baseline, List<SeriesAnalysis.Reason> breaks,
		List<SeriesAnalysis.Event> events) {
}
