package dev.parity.history.web;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.parity.history.SeriesAnalysis;
import org.jspecify.annotations.Nullable;

/**
 * The charts of a series page in a compact shape: the runs' labels and the segment breaks
 * once, and per metric one line per cell as an array of values in series order (null
 * where the run has no value), the greyed points apart with their reasons, and the change
 * points. A 1,000-run series of 20 cells is some tens of kilobytes per metric.
 */
final class SeriesCharts {

	/** A segment break: the run index where it starts and why. */
	record Break(int index, String run, String label) {
	}

	/**
	 * A change point marked on its chart.
	 *
	 * @param change the change of the mean, signed, in percent (the label's number)
	 */
	record Marker(int index, String anchor, String metric, String label, String direction, double change) {
	}

	/**
	 * One cell's line.
	 *
	 * @param values by run index; null where the run has no value for the cell
	 * @param greyed by run index (as text), the rules that grey the point
	 */
	record Line(String anchor, String label, List<@Nullable Double> values, Map<String, List<String>> greyed) {
	}

	record Chart(String metric, List<Line> lines, List<Marker> changes) {
	}

	private final SeriesAnalysis analysis;

	private final Map<String, Integer> index = new LinkedHashMap<>();

	SeriesCharts(SeriesAnalysis analysis) {
		this.analysis = analysis;
		for (SeriesAnalysis.RunEntry run : analysis.runs()) {
			index.put(run.id(), index.size());
		}
	}

	/** "2026-11-03 k4h2…": the day and the id of each run, in series order. */
	List<String> runLabels() {
		List<String> labels = new ArrayList<>();
		for (SeriesAnalysis.RunEntry run : analysis.runs()) {
			String when = run.recordedAt() != null ? run.recordedAt().toString() : run.uploadedAt().toString();
			labels.add(when.substring(0, Math.min(10, when.length())) + " " + run.id());
		}
		return labels;
	}

	List<Break> breaks() {
		List<Break> breaks = new ArrayList<>();
		for (SeriesAnalysis.Segment segment : analysis.segments()) {
			if (!segment.startsBecause().isEmpty()) {
				breaks.add(new Break(index.get(segment.firstRun()), segment.firstRun(), String.join("; ",
						segment.startsBecause().stream().map(SeriesAnalysis.Reason::message).toList())));
			}
		}
		return breaks;
	}

	/** Every metric some cell reports, in the order the cells report them. */
	List<String> metrics() {
		Set<String> metrics = new LinkedHashSet<>();
		analysis.cells().forEach(cell -> metrics.addAll(cell.metrics().keySet()));
		return List.copyOf(metrics);
	}

	/** One metric's chart; null when no cell reports it. */
	@Nullable Chart chart(String metric) {
		List<Line> lines = new ArrayList<>();
		for (SeriesAnalysis.CellPoints cell : analysis.cells()) {
			List<SeriesAnalysis.Point> points = cell.metrics().get(metric);
			if (points == null) {
				continue;
			}
			List<@Nullable Double> values = new ArrayList<>(Collections.nCopies(index.size(), (Double) null));
			Map<String, List<String>> greyed = new LinkedHashMap<>();
			for (SeriesAnalysis.Point point : points) {
				int at = index.get(point.run());
				values.set(at, point.value());
				if (point.greyed()) {
					greyed.put(String.valueOf(at), point.greyedBy());
				}
			}
			lines.add(new Line(cell.anchor(), label(cell.params()), values, greyed));
		}
		if (lines.isEmpty()) {
			return null;
		}
		List<Marker> changes = analysis.changePoints()
			.stream()
			.filter(cp -> cp.metric().equals(metric))
			.map(cp -> new Marker(index.get(cp.run()), cp.anchor(), cp.metric(),
					(cp.meanAfter() >= cp.meanBefore() ? "+" : "−")
							+ String.format(Locale.ROOT, "%.1f %%", cp.magnitude() * 100),
					cp.direction(),
					(cp.meanAfter() >= cp.meanBefore() ? 1 : -1) * Math.round(cp.magnitude() * 1000) / 10.0))
			.toList();
		return new Chart(metric, lines, changes);
	}

	private static String label(Map<String, Object> params) {
		List<String> parts = new ArrayList<>();
		params.forEach((name, value) -> parts.add(name + "=" + value));
		return String.join(", ", parts);
	}

}
