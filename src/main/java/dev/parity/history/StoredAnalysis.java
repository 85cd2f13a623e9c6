package dev.parity.history;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.util.RawValue;

/**
 * What is kept of an analysis: its segments, events and change points, the ids of its
 * runs in order with the segment of each (the rest of a run's entry is in its facts), and
 * what the points need besides their facts — the runs retracted at the time and the cells
 * whose output length differed. Analyses stored before {@code run_ids} existed kept the
 * runs' whole entries in {@code summary.runs}; they read the same.
 */
record StoredAnalysis(SeriesAnalysis summary, @Nullable List<String> runIds, @Nullable List<Integer> runSegments,
		List<String> retracted, Map<String, List<String>> lengthDiffers) {

	static StoredAnalysis of(SeriesAnalysis analysis, Set<String> retracted) {
		Map<String, List<String>> differs = new TreeMap<>();
		for (SeriesAnalysis.CellPoints cell : analysis.cells()) {
			for (List<SeriesAnalysis.Point> points : cell.metrics().values()) {
				for (int i = 0; i < points.size(); i++) {
					List<String> greyedBy = points instanceof Track track ? track.greyedBy(i)
							: points.get(i).greyedBy();
					if (greyedBy.contains(SeriesAnalyser.OUTPUT_LENGTH_DIFFERS)) {
						String run = points instanceof Track track ? track.runId(i) : points.get(i).run();
						List<String> anchors = differs.computeIfAbsent(run, k -> new ArrayList<>());
						if (!anchors.contains(cell.anchor())) {
							anchors.add(cell.anchor());
						}
					}
				}
			}
		}
		return new StoredAnalysis(
				new SeriesAnalysis(List.of(), analysis.segments(), analysis.events(), List.of(),
						analysis.changePoints()),
				analysis.runs().stream().map(SeriesAnalysis.RunEntry::id).toList(),
				analysis.runs().stream().map(SeriesAnalysis.RunEntry::segment).toList(),
				new ArrayList<>(new TreeSet<>(retracted)), differs);
	}

	/**
	 * The JSON of an analysis as stored, and the text of what only grows while runs are
	 * appended (the run ids, their segments, the events), for the next analysis that goes
	 * on from this one.
	 *
	 * @param runs how many runs {@code runIds} and {@code runSegments} hold (their JSON
	 * array's elements)
	 * @param events how many events {@code events} holds
	 */
	record Text(String json, int runs, String runIds, String runSegments, int events, String eventsText) {
	}

	/**
	 * {@link StoredAnalysis#of} as JSON, with {@code runs[]}, {@code events[]} etc.
	 * written as they are.
	 */
	private record Written(Summary summary, RawValue runIds, RawValue runSegments, List<String> retracted,
			Map<String, List<String>> lengthDiffers) {
	}

	private record Summary(List<Object> runs, List<SeriesAnalysis.Segment> segments, RawValue events,
			List<Object> cells, List<SeriesAnalysis.ChangePoint> changePoints) {
	}

	/**
	 * The analysis' JSON as stored ({@link #of}), the text of its runs and events going
	 * on from {@code before}'s when given.
	 * @param before the text of an analysis whose runs and events are the first of this
	 * one's (with the same segments), or null
	 */
	static Text write(JsonMapper json, SeriesAnalysis analysis, Set<String> retracted, @Nullable Text before) {
		StoredAnalysis stored = of(analysis, retracted);
		int runs = analysis.runs().size();
		int events = analysis.events().size();
		boolean goesOn = before != null && before.runs() <= runs && before.events() <= events;
		String runIds = elements(json, goesOn ? before.runIds() : "",
				stored.runIds().subList(goesOn ? before.runs() : 0, runs));
		String runSegments = elements(json, goesOn ? before.runSegments() : "",
				stored.segments().subList(goesOn ? before.runs() : 0, runs));
		String eventsText = elements(json, goesOn ? before.eventsText() : "",
				analysis.events().subList(goesOn ? before.events() : 0, events));
		Written written = new Written(
				new Summary(List.of(), analysis.segments(), new RawValue("[" + eventsText + "]"), List.of(),
						analysis.changePoints()),
				new RawValue("[" + runIds + "]"), new RawValue("[" + runSegments + "]"), stored.retracted(),
				stored.lengthDiffers());
		return new Text(json.writeValueAsString(written), runs, runIds, runSegments, events, eventsText);
	}

	/** The elements of a JSON array: those written before, then these. */
	private static String elements(JsonMapper json, String before, List<?> more) {
		if (more.isEmpty()) {
			return before;
		}
		String array = json.writeValueAsString(more);
		String elements = array.substring(1, array.length() - 1);
		return before.isEmpty() ? elements : before + "," + elements;
	}

	@Override
	public List<String> runIds() {
		return runIds != null ? runIds : summary.runs().stream().map(SeriesAnalysis.RunEntry::id).toList();
	}

	List<Integer> segments() {
		return runSegments != null ? runSegments
				: summary.runs().stream().map(SeriesAnalysis.RunEntry::segment).toList();
	}

	/**
	 * The analysis, its runs' entries and points from the runs' facts (in the order of
	 * {@link #runIds}).
	 */
	SeriesAnalysis withPoints(List<RunFacts> ordered) {
		List<Integer> segments = segments();
		List<SeriesAnalysis.RunEntry> entries = new ArrayList<>(ordered.size());
		for (int i = 0; i < ordered.size(); i++) {
			RunFacts run = ordered.get(i);
			entries.add(new SeriesAnalysis.RunEntry(run.id(), run.recordedAt(), run.uploadedAt(), run.engineVersion(),
					run.engineCommit(), segments.get(i)));
		}
		return new SeriesAnalysis(Collections.unmodifiableList(entries), summary.segments(), summary.events(),
				SeriesAnalyser.cells(ordered, segments, Set.copyOf(retracted), lengthDiffers), summary.changePoints());
	}

}
