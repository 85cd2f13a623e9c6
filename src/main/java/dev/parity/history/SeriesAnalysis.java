package dev.parity.history;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A series as analysed: its runs in order with their segment, the segments and why each
 * began, the annotating differences (events), every cell × metric's points with the
 * reasons they are greyed, and the change points. Derived from the runs alone (and their
 * retractions), so the same runs in any upload order give the same analysis.
 */
public record SeriesAnalysis(List<RunEntry> runs, List<Segment> segments, List<Event> events, List<CellPoints> cells,
		List<ChangePoint> changePoints) {

	/** A run of the series, in series order. */
	public record RunEntry(String id, @Nullable Instant recordedAt, Instant uploadedAt, @Nullable String engineVersion,
			@Nullable String engineCommit, int segment) {
	}

	/** Consecutive runs between which nothing but the varied dimension changed. */
	public record Segment(int index, String firstRun, String lastRun, List<Reason> startsBecause) {
	}

	/** Why something happened: a rule and its message. */
	public record Reason(String rule, String message) {
	}

	/**
	 * A difference that annotates (flags, versions, request parameters): shown, breaks
	 * nothing.
	 */
	public record Event(String run, String rule, String message) {
	}

	/** The points of one cell (matched on params) for every metric it reports. */
	public record CellPoints(String anchor, Map<String, Object> params, Map<String, List<Point>> metrics) {
	}

	/**
	 * One run's value of one cell × metric with the statistic in force.
	 *
	 * @param greyedBy the rules that grey it; empty = it feeds detection
	 */
	public record Point(String run, double value, boolean greyed, List<String> greyedBy) {
	}

	/**
	 * A shift in one cell × metric, belonging to the first run after it.
	 *
	 * @param magnitude the relative change |mean after / mean before − 1|
	 * @param otavaMagnitude Otava's magnitude, max(|m₂/m₁ − 1|, |m₁/m₂ − 1|)
	 * @param pointsAfter the non-greyed points from the change on, in its segment
	 * @param spread the track's run-to-run spread around its two levels (the pooled
	 * sample standard deviation of the points between the change points on either side),
	 * relative to the mean before; null in analyses stored before it was kept
	 * @param scanPvalue how likely noise alone is to give a change this large against
	 * that spread anywhere between those change points: the two-sample Student test's
	 * p-value times the splits E-Divisive could have chosen (points − 1), at most 1; null
	 * likewise
	 */
	public record ChangePoint(String run, int segment, Map<String, Object> params, String anchor, String metric,
			String direction, double magnitude, double otavaMagnitude, double meanBefore, double meanAfter,
			double pvalue, int pointsAfter, @Nullable Double spread, @Nullable Double scanPvalue) {
	}

	public static SeriesAnalysis empty() {
		return new SeriesAnalysis(List.of(), List.of(), List.of(), List.of(), List.of());
	}

}
