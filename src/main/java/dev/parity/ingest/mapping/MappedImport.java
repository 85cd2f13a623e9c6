package dev.parity.ingest.mapping;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.parity.web.Problem;
import dev.parity.ingest.harness.HarnessImport;
import dev.parity.ingest.harness.ImportRejected;
import dev.parity.ingest.harness.ImportTooLarge;
import dev.parity.ingest.harness.JsonBudget;
import dev.parity.ingest.harness.JsonLimits;
import dev.parity.ingest.harness.InputFile;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Files read with a saved format: each JSON file's cells, one run; files that are not
 * JSON are skipped and noted.
 */
public final class MappedImport {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private MappedImport() {
	}

	/**
	 * The files (zips expanded) read with the format.
	 * @throws ImportRejected naming the file, the cell and the mapping key
	 */
	public static HarnessImport read(SavedFormat format, List<InputFile> files) {
		return read(format, files, JsonLimits.DEFAULT);
	}

	/**
	 * The files (zips expanded) read with the format, each file within {@code limits}
	 * (one is held at a time).
	 * @throws ImportRejected naming the file, the cell and the mapping key
	 * @throws ImportTooLarge naming the file and the limit
	 */
	public static HarnessImport read(SavedFormat format, List<InputFile> files, JsonLimits limits) {
		return read(format.mapping(), format.id(), files, limits);
	}

	static HarnessImport read(FieldMapping mapping, String label, List<InputFile> files) {
		return read(mapping, label, files, JsonLimits.DEFAULT);
	}

	static HarnessImport read(FieldMapping mapping, String label, List<InputFile> files, JsonLimits limits) {
		ObjectNode document = JsonNodeFactory.instance.objectNode();
		document.putObject("harness").put("name", mapping.name());
		ArrayNode cells = document.putArray("cells");
		List<String> notes = new ArrayList<>();
		notes.add(label.endsWith("@0") ? "read with this format (not saved yet: saving gives it its version)"
				: "read with the saved format " + label);
		List<String> skipped = new ArrayList<>();
		Map<String, String> provenanceFrom = new LinkedHashMap<>();
		for (InputFile file : files) {
			Object parsed = parse(file, JsonBudget.of(limits));
			if (parsed == null) {
				skipped.add(file.name());
				continue;
			}
			provenance(mapping, parsed, file.name(), document, provenanceFrom, notes);
			MappedReader.Read read = MappedReader.read(mapping, parsed, file.name());
			read.cells().forEach(cells::add);
			notes.addAll(read.notes());
		}
		if (!skipped.isEmpty()) {
			notes.add("skipped (not JSON): " + String.join(", ", skipped));
		}
		if (cells.isEmpty()) {
			throw new ImportRejected(files.isEmpty() ? "no file uploaded" : "no JSON file to read with " + label);
		}
		return new HarnessImport(document, notes);
	}

	/**
	 * The provenance the mapping reads from the file's top-level fields into the
	 * document; the first file that has a field gives it, and a later file that says
	 * otherwise is noted.
	 * @throws ImportRejected when a field holds an object or a list
	 */
	private static void provenance(FieldMapping mapping, Object parsed, String file, ObjectNode document,
			Map<String, String> from, List<String> notes) {
		mapping.provenance().forEach((field, path) -> {
			Object value = path.read(parsed);
			if (value == null) {
				notes.add(file + ": provenance." + field + " " + path.text() + " not found: left for the form");
				return;
			}
			if (!(value instanceof String || value instanceof Number || value instanceof Boolean)) {
				throw new ImportRejected(file + ": provenance." + field + ": " + path.text()
						+ " must be a string or a number, not " + (value instanceof List<?> ? "a list" : "an object"));
			}
			String text = value instanceof Number number && number.doubleValue() == Math.rint(number.doubleValue())
					&& !(value instanceof Double || value instanceof Float) ? String.valueOf(number.longValue())
							: value.toString();
			String target = FieldMapping.PROVENANCE.get(field);
			String earlier = from.get(field);
			if (earlier != null) {
				if (!earlier.equals(text)) {
					notes.add(file + ": provenance." + field + " is \"" + text + "\", another file's is \"" + earlier
							+ "\": the first is used");
				}
				return;
			}
			from.put(field, text);
			String[] parts = target.split("\\.");
			ObjectNode parent = document;
			for (int i = 0; i < parts.length - 1; i++) {
				parent = parent.has(parts[i]) && parent.get(parts[i]).isObject() ? (ObjectNode) parent.get(parts[i])
						: parent.putObject(parts[i]);
			}
			parent.put(parts[parts.length - 1], text);
		});
	}

	/**
	 * Whether every path the format's {@code detect} lists exists in every JSON file (and
	 * there is one).
	 */
	static boolean detects(FieldMapping mapping, List<InputFile> files) {
		boolean any = false;
		for (InputFile file : files) {
			Object parsed;
			try {
				parsed = parse(file);
			}
			catch (ImportRejected ex) {
				return false;
			}
			if (parsed == null) {
				continue;
			}
			any = true;
			for (MappingPath path : mapping.detect()) {
				if (!path.existsIn(parsed)) {
					return false;
				}
			}
		}
		return any;
	}

	/**
	 * What is wrong with a mapping given its sample file: a mapping that cannot read it,
	 * reads no cell, or reads nothing of a key it maps is refused, each problem naming
	 * the key.
	 */
	static List<Problem> checkAgainst(FieldMapping mapping, InputFile sample) {
		List<Problem> problems = new ArrayList<>();
		Object parsed;
		try {
			parsed = parse(sample);
		}
		catch (ImportRejected ex) {
			return List.of(new Problem("sample", ex.getMessage()));
		}
		if (parsed == null) {
			return List.of(new Problem("sample", sample.name() + ": not JSON; a saved format reads JSON"));
		}
		for (int i = 0; i < mapping.detect().size(); i++) {
			MappingPath path = mapping.detect().get(i);
			if (!path.existsIn(parsed)) {
				problems.add(new Problem("detect[" + i + "]",
						path.text() + " is not in the sample, so detection would " + "never offer this format for it"));
			}
		}
		mapping.provenance().forEach((field, path) -> {
			if (!path.existsIn(parsed)) {
				problems.add(new Problem("provenance." + field, path.text() + " is not in the sample"));
			}
		});
		MappedReader.Read read;
		try {
			read = MappedReader.read(mapping, parsed, sample.name());
		}
		catch (ImportRejected ex) {
			problems.add(new Problem(keyOf(ex.getMessage()), ex.getMessage()));
			return problems;
		}
		Set<String> expected = new LinkedHashSet<>();
		mapping.metrics()
			.forEach((name, metric) -> metric.statistics()
				.keySet()
				.forEach(statistic -> expected.add("metrics." + name + (metric.single() ? "" : "." + statistic))));
		if (mapping.outputTokens() != null) {
			expected.add("output_tokens");
		}
		FieldMapping.Samples samples = mapping.samples();
		if (samples != null) {
			expected.add("samples.path");
			if (samples.status() != null) {
				expected.add("samples.status");
			}
			if (samples.outputTokens() != null) {
				expected.add("samples.output_tokens");
			}
			if (samples.reasoningTokens() != null) {
				expected.add("samples.reasoning_tokens");
			}
			samples.metrics().keySet().forEach(name -> expected.add("samples.metrics." + name));
		}
		for (String count : List.of("completed", "failed", "cancelled")) {
			FieldMapping.Requests requests = mapping.requests();
			MappingPath path = switch (count) {
				case "completed" -> requests.completed();
				case "failed" -> requests.failed();
				default -> requests.cancelled();
			};
			if (path != null) {
				expected.add("requests." + count);
			}
		}
		for (String key : expected) {
			if (!read.keysRead().contains(key)) {
				problems.add(new Problem(key, "reads nothing in any of the sample's " + read.cells().size()
						+ (read.cells().size() == 1 ? " cell" : " cells")));
			}
		}
		boolean anyValue = read.cells()
			.stream()
			.anyMatch(cell -> !cell.path("metrics").isEmpty() || cell.path("samples").size() > 0);
		if (!anyValue && problems.isEmpty()) {
			problems.add(new Problem("metrics", "the mapping reads no metric from the sample"));
		}
		return problems;
	}

	/**
	 * The mapping key an import problem names ("file: cells[0]: params.x: …" → params.x).
	 */
	private static String keyOf(String message) {
		for (String part : message.split(": ")) {
			if (part.matches("(params|metrics|samples|requests|output_tokens|cells|provenance)(\\.[^ ]+)?( .*)?")) {
				return part.split(" ")[0];
			}
		}
		return "sample";
	}

	/**
	 * The file as plain JSON values, within the default limits; {@code null} when it is
	 * not JSON at all.
	 */
	static @Nullable Object parse(InputFile file) {
		return parse(file, JsonBudget.of(JsonLimits.DEFAULT));
	}

	/**
	 * The file as plain JSON values, counted against the budget before they are built;
	 * {@code null} when it is not JSON at all.
	 * @throws ImportTooLarge when it goes beyond the budget's limits
	 */
	static @Nullable Object parse(InputFile file, JsonBudget budget) {
		String text = new String(file.content(), StandardCharsets.UTF_8);
		if (text.startsWith("\uFEFF")) {
			text = text.substring(1);
		}
		String start = text.stripLeading();
		if (!start.startsWith("{") && !start.startsWith("[")) {
			return null;
		}
		long mark = budget.used();
		try {
			try (JsonParser counting = JSON.createParser(text)) {
				budget.check(counting, file.name());
			}
			return JSON.readValue(text, Object.class);
		}
		catch (JacksonException ex) {
			budget.reset(mark);
			throw new ImportRejected(file.name() + ": not valid JSON: " + ex.getOriginalMessage());
		}
	}

}
