package dev.parity.ingest;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import dev.parity.run.MetricCatalogue;
import dev.parity.run.Params;
import dev.parity.run.RunDocumentReader;
import dev.parity.web.Problem;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Checks a {@code benchmark-run/1} document and reports every problem at once, each with
 * its JSON path. The structure (fields, types, required fields, ranges, patterns; unknown
 * fields refused outside the free-form maps, so that a typo does not pass silently) is
 * the published JSON Schema's ({@link RunDocumentSchema}); what a schema cannot say is
 * checked here: params unique within the run, metrics in the catalogue or declared, a
 * reference run's source, a recorded time that is an instant, and values that can be
 * stored as written (finite numbers, text without NUL characters or unpaired surrogates).
 */
public final class RunDocumentValidator {

	private static final Set<String> SAMPLE_FIELDS = Set.of("status", "output_tokens", "reasoning_tokens");

	/**
	 * A field name written {@code .name} in a path; any other is written
	 * {@code ['name']}.
	 */
	private static final Pattern SIMPLE_KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

	private final List<Problem> problems = new ArrayList<>();

	/**
	 * The paths at which a value cannot be stored: what the schema says of the same value
	 * adds nothing.
	 */
	private final Set<String> unstorable = new HashSet<>();

	private RunDocumentValidator() {
	}

	/** Every problem of the document; empty when it is valid. */
	public static List<Problem> validate(JsonNode document) {
		if (!document.isObject() || !document.path("cells").isArray()) {
			return new Streaming().problems(document, false);
		}
		// The same checks, in the same order, as a document whose cells are read one at a
		// time.
		Streaming streaming = new Streaming();
		ObjectNode header = JsonNodeFactory.instance.objectNode();
		document.forEachEntry((name, value) -> {
			if (!name.equals("cells")) {
				header.set(name, value);
			}
		});
		Predicate<String> knownMetric = Streaming.knownMetrics(document.get("metric_definitions"));
		for (JsonNode cell : document.get("cells")) {
			streaming.cell(cell, knownMetric);
		}
		return streaming.problems(header, true);
	}

	/**
	 * Validates a document whose cells are read one at a time, so that a large document
	 * is never held whole: each cell is checked against the schema's cell as it comes,
	 * and the rest of the document at the end.
	 */
	public static final class Streaming {

		private final RunDocumentValidator cells = new RunDocumentValidator();

		private final Map<Params, Integer> seenParams = new HashMap<>();

		private int count;

		/**
		 * The metrics a cell may report, given the document's metric definitions (which
		 * may be {@code null}).
		 */
		public static Predicate<String> knownMetrics(@Nullable JsonNode definitions) {
			Set<String> declared = new RunDocumentValidator().metricDefinitions(definitions);
			MetricCatalogue catalogue = MetricCatalogue.defaults();
			return metric -> catalogue.knows(metric) || declared.contains(metric);
		}

		/**
		 * Checks the next cell of {@code $.cells}; returns whether the document is still
		 * without problems.
		 */
		public boolean cell(JsonNode cell, Predicate<String> knownMetric) {
			cells.cell(count++, cell, seenParams, knownMetric);
			return cells.problems.isEmpty();
		}

		/**
		 * Every problem of the document: {@code header} is the document without its
		 * {@code cells} when they were an array read through {@link #cell}, or the whole
		 * document when they were not. The document's own problems come first, then those
		 * of its cells in order.
		 */
		public List<Problem> problems(JsonNode header, boolean cellsStreamed) {
			if (!cellsStreamed && header.isObject() && header.path("cells").isArray()) {
				return validate(header);
			}
			RunDocumentValidator validator = new RunDocumentValidator();
			if (!header.isObject()) {
				validator.problem("$", "a run document is a JSON object, not " + describe(header));
				return List.copyOf(validator.problems);
			}
			validator.document(header, cellsStreamed);
			if (cellsStreamed) {
				if (count == 0) {
					validator.problem("$.cells", "must hold at least one cell");
				}
				validator.problems.addAll(cells.problems);
			}
			return List.copyOf(validator.problems);
		}

	}

	/**
	 * The document's own checks (its cells are checked apart, or are not an array): what
	 * cannot be stored, the schema, then what the schema cannot say.
	 */
	private void document(JsonNode document, boolean cellsApart) {
		storable(document, "$");
		addStructural(RunDocumentSchema.get().document(document, cellsApart));
		JsonNode source = document.get("source");
		if ("reference".equals(document.path("role").asString(null)) && (source == null || !source.isObject()
				|| !source.path("url").isString() || source.path("url").asString().isBlank())) {
			problem("$.source.url", "is required for a reference run: where were these numbers published?");
		}
		JsonNode recordedAt = document.get("recorded_at");
		if (recordedAt != null && recordedAt.isString()) {
			String text = recordedAt.asString();
			try {
				int year = OffsetDateTime.parse(text).atZoneSameInstant(ZoneOffset.UTC).getYear();
				if (year < 1 || year > 9999) {
					problem("$.recorded_at",
							"must be an instant in the years 1 to 9999, not \"" + printable(text) + "\"");
				}
			}
			catch (DateTimeParseException ex) {
				problem("$.recorded_at",
						"must be an ISO-8601 instant such as 2026-08-11T10:10:00Z, not \"" + printable(text) + "\"");
			}
		}
		metricDefinitions(document.get("metric_definitions"));
	}

	/** The next cell's checks: the schema's cell, then what the schema cannot say. */
	private void cell(int i, JsonNode cell, Map<Params, Integer> seenParams, Predicate<String> knownMetric) {
		String path = "$.cells[" + i + "]";
		storable(cell, path);
		addStructural(RunDocumentSchema.get().cell(cell, path));
		if (!cell.isObject()) {
			return;
		}
		JsonNode params = cell.get("params");
		if (params != null && params.isObject()
				&& params.valueStream().allMatch(value -> value.isString() || value.isNumber() && finite(value))) {
			Params key = RunDocumentReader.params(params);
			Integer first = seenParams.putIfAbsent(key, i);
			if (first != null) {
				problem(path + ".params", "duplicate params: the same as $.cells[" + first + "].params (" + key.label()
						+ "); repetitions are samples of one cell");
			}
		}
		JsonNode metrics = cell.get("metrics");
		if (metrics != null && metrics.isObject()) {
			for (String name : metrics.propertyNames()) {
				if (!knownMetric.test(name)) {
					unknownMetric(path + ".metrics" + key(name), name);
				}
			}
		}
		JsonNode samples = cell.get("samples");
		if (samples != null && samples.isArray()) {
			for (int s = 0; s < samples.size(); s++) {
				JsonNode sample = samples.get(s);
				if (!sample.isObject()) {
					continue;
				}
				// The path of a field is written only for a problem: a document may have
				// millions of sample fields.
				for (String name : sample.propertyNames()) {
					if (!SAMPLE_FIELDS.contains(name) && !knownMetric.test(name)) {
						unknownMetric(path + ".samples[" + s + "]" + key(name), name);
					}
				}
			}
		}
	}

	private void unknownMetric(String path, String name) {
		problem(path,
				"unknown metric \"" + printable(name) + "\": not in the catalogue and not in $.metric_definitions");
	}

	/**
	 * The schema's problems, but for values already reported as unstorable (the schema
	 * cannot say more of them).
	 */
	private void addStructural(List<Problem> structural) {
		for (Problem problem : structural) {
			if (!unstorable.contains(problem.path())) {
				problems.add(problem);
			}
		}
	}

	/**
	 * The metrics the document defines; a definition of a catalogue metric is a problem.
	 */
	private Set<String> metricDefinitions(@Nullable JsonNode definitions) {
		Set<String> names = new HashSet<>();
		if (definitions == null || !definitions.isObject()) {
			return names;
		}
		definitions.forEachEntry((name, definition) -> {
			if (MetricCatalogue.defaults().knows(name)) {
				problem("$.metric_definitions" + key(name),
						"\"" + name + "\" is in the metric catalogue already; define only new metrics");
			}
			else if (definition.isObject()) {
				names.add(name);
			}
		});
		return names;
	}

	/**
	 * Every value must be storable as it was written and read back as it was meant:
	 * numbers within the range of a double (1e400 would become Infinity, or break every
	 * page that shows it), and text without NUL characters (PostgreSQL refuses them) or
	 * unpaired surrogates (they cannot be encoded, so they would come back as "?").
	 */
	private void storable(JsonNode node, String root) {
		storable(node, root, new ArrayList<>());
	}

	/**
	 * The walk of {@link #storable(JsonNode, String)}; the path is built only for a
	 * problem (documents are large).
	 */
	private void storable(JsonNode node, String root, List<Object> path) {
		if (node.isNumber()) {
			if (node.isDouble() && Double.isNaN(node.doubleValue())) {
				unstorable(path(root, path), "NaN is not a number that can be stored");
			}
			else if (!finite(node)) {
				unstorable(path(root, path), "the number " + abbreviate(node.toString())
						+ " is beyond the range of a 64-bit floating-point number (about ±1.8e308)");
			}
		}
		else if (node.isString()) {
			String problem = unstorableText(node.stringValue());
			if (problem != null) {
				unstorable(path(root, path), "the text " + problem);
			}
		}
		else if (node.isObject()) {
			for (Map.Entry<String, JsonNode> field : node.properties()) {
				path.add(field.getKey());
				String problem = unstorableText(field.getKey());
				if (problem != null) {
					unstorable(path(root, path), "the field name " + problem);
				}
				storable(field.getValue(), root, path);
				path.remove(path.size() - 1);
			}
		}
		else if (node.isArray()) {
			for (int i = 0; i < node.size(); i++) {
				path.add(i);
				storable(node.get(i), root, path);
				path.remove(path.size() - 1);
			}
		}
	}

	private void unstorable(String path, String message) {
		unstorable.add(path);
		problem(path, message);
	}

	private static String path(String root, List<Object> segments) {
		StringBuilder path = new StringBuilder(root);
		for (Object segment : segments) {
			path.append(segment instanceof Integer index ? "[" + index + "]" : key((String) segment));
		}
		return path.toString();
	}

	/** What makes a text unstorable, or {@code null}: a NUL, or an unpaired surrogate. */
	private static @Nullable String unstorableText(String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == '\0') {
				return "holds a NUL character (\\u0000), which cannot be stored";
			}
			if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
				i++;
			}
			else if (Character.isSurrogate(c)) {
				return "holds an unpaired surrogate (\\u" + Integer.toHexString(c) + "), which is not Unicode text";
			}
		}
		return null;
	}

	/**
	 * Whether a number node's value is a finite double; {@code doubleValue()} itself
	 * throws for huge integers.
	 */
	private static boolean finite(JsonNode number) {
		return Double.isFinite(number.numberValue().doubleValue());
	}

	private void problem(String path, String message) {
		problems.add(new Problem(path, message));
	}

	/** A field of a JSON path: {@code .name}, or {@code ['odd name']}. */
	static String key(String name) {
		return SIMPLE_KEY.matcher(name).matches() ? "." + name : "['" + printable(name).replace("'", "\\'") + "']";
	}

	/**
	 * Text as it can be shown and stored: control characters and unpaired surrogates
	 * written as hexadecimal escapes.
	 */
	public static String printable(String text) {
		StringBuilder out = new StringBuilder(text.length());
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
				out.append(c).append(text.charAt(++i));
			}
			else if (Character.isISOControl(c) && c != '\n' && c != '\t' || Character.isSurrogate(c)) {
				out.append(String.format("\\u%04x", (int) c));
			}
			else {
				out.append(c);
			}
		}
		return out.toString();
	}

	/**
	 * A value's type in words, with the value itself when it is not a container:
	 * {@code a number (42)}.
	 */
	static String describe(JsonNode node) {
		String type = switch (node.getNodeType()) {
			case STRING -> "a string";
			case NUMBER -> "a number";
			case BOOLEAN -> "a boolean";
			case ARRAY -> "an array";
			case OBJECT -> "an object";
			case NULL -> "null";
			default -> node.getNodeType().toString().toLowerCase(Locale.ROOT);
		};
		String text = node.isContainer() ? "" : " (" + abbreviate(node.toString()) + ")";
		return type + text;
	}

	private static String abbreviate(String text) {
		return text.length() > 60 ? text.substring(0, 57) + "…" : text;
	}

}
