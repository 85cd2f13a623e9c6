package dev.parity.ingest.harness;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.parity.run.Params;
import dev.parity.run.RunDocumentReader;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A run being imported: the provenance its files state (each field only when every file
 * that states it agrees), its cells, metric definitions, and notes for the preview.
 * Becomes a {@link HarnessImport}.
 */
final class RunDraft {

	/** The order of a document's top-level groups, as the design writes them. */
	private static final List<String> GROUPS = List.of("role", "source", "model", "engine", "harness", "workload");

	private final Map<String, Object> stated = new LinkedHashMap<>();

	private final Map<String, String> statedBy = new HashMap<>();

	private final Set<String> disputed = new HashSet<>();

	private @Nullable Instant recordedAt;

	private final Map<String, ObjectNode> definitions = new LinkedHashMap<>();

	private final List<CellDraft> cells = new ArrayList<>();

	private final List<String> notes = new ArrayList<>();

	private final List<CountReading> readings = new ArrayList<>();

	/**
	 * A provenance field a file states, by its document path ({@code model.repo},
	 * {@code workload.output_tokens}). When files disagree the field is left out, with a
	 * note.
	 */
	RunDraft state(String path, @Nullable Object value, String source) {
		if (value == null || disputed.contains(path)) {
			return this;
		}
		Object earlier = stated.get(path);
		if (earlier == null) {
			stated.put(path, value);
			statedBy.put(path, source);
		}
		else if (!same(earlier, value)) {
			stated.remove(path);
			disputed.add(path);
			note("the files disagree on " + path + " (" + earlier + " in " + statedBy.get(path) + ", " + value + " in "
					+ source + "): left for you to state");
		}
		return this;
	}

	private static boolean same(Object a, Object b) {
		if (a instanceof Number x && b instanceof Number y) {
			return x.doubleValue() == y.doubleValue();
		}
		return a.equals(b);
	}

	/** When the measurement was made; of several files, the earliest. */
	RunDraft recordedAt(@Nullable Instant instant) {
		if (instant != null && (recordedAt == null || instant.isBefore(recordedAt))) {
			recordedAt = instant;
		}
		return this;
	}

	/** Declares a metric beyond the catalogue, for values that have no catalogue name. */
	RunDraft define(String metric, String unit, boolean higherIsBetter, boolean outputSensitive) {
		ObjectNode definition = HarnessJson.object();
		definition.put("unit", unit);
		definition.put("better", higherIsBetter ? "higher" : "lower");
		definition.put("output_sensitive", outputSensitive);
		definitions.put(metric, definition);
		return this;
	}

	RunDraft cell(CellDraft cell) {
		cells.add(cell);
		return this;
	}

	List<CellDraft> cells() {
		return cells;
	}

	RunDraft note(String note) {
		if (!notes.contains(note)) {
			notes.add(note);
		}
		return this;
	}

	RunDraft reading(CountReading reading) {
		readings.add(reading);
		return this;
	}

	/**
	 * The import: the partial document and the notes.
	 * @throws ImportRejected when there is no cell, or two cells have the same params
	 */
	HarnessImport toImport() {
		if (cells.isEmpty()) {
			throw new ImportRejected("no cell found: the files hold no benchmark result");
		}
		Map<Params, CellDraft> seen = new HashMap<>();
		for (CellDraft cell : cells) {
			CellDraft first = seen.putIfAbsent(cell.comparableParams(), cell);
			if (first != null) {
				throw new ImportRejected(
						first.source() + " and " + cell.source() + ": two cells with the same params (" + cell.label()
								+ "); the files do not say what tells them apart, so import them as separate runs");
			}
		}
		ObjectNode document = HarnessJson.object();
		document.put("format", RunDocumentReader.FORMAT);
		for (String group : GROUPS) {
			if (group.equals("role")) {
				putValue(document, "role", stated.get("role"));
				if (recordedAt != null) {
					document.put("recorded_at", recordedAt.toString());
				}
				continue;
			}
			stated.forEach((path, value) -> {
				if (path.startsWith(group + ".")) {
					putValue(document.has(group) ? (ObjectNode) document.get(group) : document.putObject(group),
							path.substring(group.length() + 1), value);
				}
			});
		}
		if (!definitions.isEmpty()) {
			ObjectNode definitionsNode = document.putObject("metric_definitions");
			definitions.forEach(definitionsNode::set);
		}
		ArrayNode cellsNode = document.putArray("cells");
		List<CellDraft> ordered = new ArrayList<>(cells);
		if (ordered.stream().allMatch(cell -> cell.order() != null)) {
			ordered.sort(Comparator.comparing(CellDraft::order));
		}
		ordered.forEach(cell -> cellsNode.add(cell.toJson()));
		return new HarnessImport(document, notes, readings);
	}

	private static void putValue(ObjectNode node, String name, @Nullable Object value) {
		if (value instanceof String text) {
			node.put(name, text);
		}
		else if (value instanceof Number number) {
			node.set(name, HarnessJson.number(number.doubleValue()));
		}
	}

}
