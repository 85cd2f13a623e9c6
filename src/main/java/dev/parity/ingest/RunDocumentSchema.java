package dev.parity.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.networknt.schema.Error;
import com.networknt.schema.ExecutionContext;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import dev.parity.web.Problem;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The structure of a {@code benchmark-run/1} document: its published JSON Schema
 * ({@value #RESOURCE}, served at {@code /schema/benchmark-run-1.json}), the one place
 * where fields, types, required fields, ranges and patterns are written down. A document
 * is checked against it whole, or as its header (all but the cells) and then one cell at
 * a time against the schema's cell ({@code #/$defs/cell}), so that a large document is
 * never held whole. Each violation becomes a {@link Problem} at the JSON path of the
 * value it concerns, in words.
 */
final class RunDocumentSchema {

	/** Where the schema is on the class path (packaged from {@code frontend/schema/}). */
	static final String RESOURCE = "static/schema/benchmark-run-1.json";

	/**
	 * The schema is published under a relative {@code $id}; it is read as if from here.
	 */
	private static final String BASE = "https://parity.invalid/schema/benchmark-run-1.json";

	private static final String COMMIT_PATTERN = "^[0-9a-fA-F]{40}$";

	private static final String NOT_BLANK_PATTERN = "\\S";

	private static final RunDocumentSchema INSTANCE = load();

	private final JsonNode root;

	private final JsonNode cellRoot;

	private final Schema document;

	private final Schema cell;

	/**
	 * Which parts of the schema can hold a whole number (by identity: the schema's nodes
	 * never change).
	 */
	private final Map<JsonNode, Boolean> wholeNumberSchemas = Collections.synchronizedMap(new IdentityHashMap<>());

	private RunDocumentSchema(JsonNode root, JsonNode cellRoot, Schema document, Schema cell) {
		this.root = root;
		this.cellRoot = cellRoot;
		this.document = document;
		this.cell = cell;
	}

	static RunDocumentSchema get() {
		return INSTANCE;
	}

	/** The schema as published. */
	static JsonNode json() {
		return INSTANCE.root.deepCopy();
	}

	private static RunDocumentSchema load() {
		JsonNode root;
		try (InputStream in = RunDocumentSchema.class.getClassLoader().getResourceAsStream(RESOURCE)) {
			if (in == null) {
				throw new IllegalStateException(RESOURCE + " is missing from the class path");
			}
			root = JsonMapper.builder().build().readTree(in);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		// Formats (date-time) are annotations here: recorded_at is checked in Java, with
		// a message that says how.
		SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
				builder -> builder
					.schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(false).build()));
		// The cell alone: the same definitions, entered at the cell.
		ObjectNode cellRoot = JsonMapper.builder().build().createObjectNode();
		cellRoot.set("$schema", root.get("$schema"));
		cellRoot.put("$ref", "#/$defs/cell");
		cellRoot.set("$defs", root.get("$defs"));
		return new RunDocumentSchema(root, cellRoot, registry.getSchema(SchemaLocation.of(BASE), root),
				registry.getSchema(SchemaLocation.of(BASE + "-cell"), cellRoot));
	}

	/**
	 * The structural problems of a whole document, or of its header when its cells were
	 * an array checked one by one through {@link #cell} (then the header has no
	 * {@code cells}, and that is not a problem here).
	 */
	List<Problem> document(JsonNode document, boolean cellsApart) {
		List<Problem> problems = problems(this.document.validate(document, RunDocumentSchema::plain), root, "$");
		wholeNumbers(document, root, "$", problems);
		if (cellsApart) {
			problems
				.removeIf(problem -> problem.path().equals("$.cells") && problem.message().startsWith("is required"));
		}
		return problems;
	}

	/** The structural problems of one cell, at {@code path} (e.g. {@code $.cells[3]}). */
	List<Problem> cell(JsonNode cell, String path) {
		// Most of a cell is its samples, each an object of a few numbers: when every one
		// of them is what the schema's sample is, the schema checks the rest of the cell
		// (its samples can add no problem), and the whole cell only otherwise, for its
		// words about the sample that is not.
		JsonNode samples = cell.get("samples");
		if (cell instanceof ObjectNode object && samples != null && samples.isArray()
				&& samples.valueStream().allMatch(RunDocumentSchema::isSample)) {
			ObjectNode rest = object.objectNode().setAll(object);
			rest.remove("samples");
			return bySchema(rest, path);
		}
		return bySchema(cell, path);
	}

	/** {@link #cell} by the schema alone, samples and all (the reference, for tests). */
	List<Problem> bySchema(JsonNode cell, String path) {
		List<Problem> problems = problems(this.cell.validate(cell, RunDocumentSchema::plain), cellRoot, path);
		wholeNumbers(cell, cellRoot, path, problems);
		return problems;
	}

	private static boolean negative(JsonNode number) {
		return number.isBigDecimal() ? number.decimalValue().signum() < 0
				: number.isBigInteger() ? number.bigIntegerValue().signum() < 0 : number.asDouble() < 0;
	}

	/**
	 * Whether one sample is what the schema's {@code $defs/cell/properties/samples/items}
	 * says: an object whose {@code status}, if there, is {@code ok}, {@code failed} or
	 * {@code cancelled}, whose token counts are numbers at least 0 or null, and whose
	 * other fields are numbers or null. Tested against the schema itself
	 * ({@code RunDocumentSchemaTests}), which stays the one place where this is written.
	 */
	private static boolean isSample(JsonNode sample) {
		if (!sample.isObject()) {
			return false;
		}
		for (Map.Entry<String, JsonNode> field : sample.properties()) {
			JsonNode value = field.getValue();
			boolean fits = switch (field.getKey()) {
				case "status" -> value.isString() && switch (value.asString()) {
					case "ok", "failed", "cancelled" -> true;
					default -> false;
				};
				case "output_tokens", "reasoning_tokens" -> value.isNull() || value.isNumber() && !negative(value);
				default -> value.isNull() || value.isNumber();
			};
			if (!fits) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Whole numbers written with a fraction or an exponent ({@code 2.0}, {@code 1e3})
	 * where the schema says {@code integer}: JSON Schema counts them whole, but they
	 * would be stored and shown as written, so they are refused as they always were. The
	 * walk follows the schema and enters only what can hold such a field (never the
	 * samples, which are most of a document).
	 */
	private void wholeNumbers(JsonNode instance, JsonNode schema, String path, List<Problem> problems) {
		JsonNode resolved = resolve(schema);
		if (instance.isFloatingPointNumber() && allows(resolved, "integer")) {
			if (problems.stream().noneMatch(problem -> problem.path().equals(path))) {
				problems
					.add(new Problem(path, "must be a whole number, not " + RunDocumentValidator.describe(instance)));
			}
		}
		else if (instance.isObject()) {
			for (Map.Entry<String, JsonNode> field : instance.properties()) {
				JsonNode property = resolved.path("properties").get(field.getKey());
				if (property == null && resolved.path("additionalProperties").isObject()) {
					property = resolved.get("additionalProperties");
				}
				if (property != null && holdsWholeNumbers(property)) {
					wholeNumbers(field.getValue(), property, path + RunDocumentValidator.key(field.getKey()), problems);
				}
			}
		}
		else if (instance.isArray() && resolved.path("items").isObject() && holdsWholeNumbers(resolved.get("items"))) {
			for (int i = 0; i < instance.size(); i++) {
				wholeNumbers(instance.get(i), resolved.get("items"), path + "[" + i + "]", problems);
			}
		}
	}

	/** Whether a schema allows, or has inside it, a field of type {@code integer}. */
	private boolean holdsWholeNumbers(JsonNode schema) {
		return wholeNumberSchemas.computeIfAbsent(schema, s -> {
			JsonNode resolved = resolve(s);
			if (allows(resolved, "integer")) {
				return true;
			}
			for (String keyword : List.of("properties", "patternProperties")) {
				for (JsonNode property : resolved.path(keyword)) {
					if (holdsWholeNumbers(property)) {
						return true;
					}
				}
			}
			return resolved.path("additionalProperties").isObject()
					&& holdsWholeNumbers(resolved.get("additionalProperties"))
					|| resolved.path("items").isObject() && holdsWholeNumbers(resolved.get("items"));
		});
	}

	private JsonNode resolve(JsonNode schema) {
		String ref = schema.path("$ref").asString("");
		return ref.startsWith("#/") ? root.at(ref.substring(1)) : schema;
	}

	private static boolean allows(JsonNode schema, String type) {
		JsonNode types = schema.path("type");
		return types.isArray() ? types.valueStream().anyMatch(t -> t.asString().equals(type))
				: types.asString("").equals(type);
	}

	/**
	 * Validation only: no annotations are collected (nothing here reads them, and a cell
	 * may hold many samples).
	 */
	private static void plain(ExecutionContext context) {
		context.executionConfig(config -> config.annotationCollectionEnabled(false));
	}

	/**
	 * One problem per path (the first the schema reports there), in the schema's order.
	 */
	private static List<Problem> problems(List<Error> errors, JsonNode schema, String root) {
		List<Problem> problems = new ArrayList<>();
		Set<String> paths = new HashSet<>();
		for (Error error : errors) {
			Problem problem = problem(error, schema, root);
			if (paths.add(problem.path())) {
				problems.add(problem);
			}
		}
		return problems;
	}

	private static Problem problem(Error error, JsonNode schema, String root) {
		String path = path(root, error.getInstanceLocation());
		JsonNode value = error.getInstanceNode();
		String pointer = pointer(error.getSchemaLocation());
		JsonNode keyword = schema.at(pointer);
		JsonNode parent = schema.at(pointer.substring(0, Math.max(0, pointer.lastIndexOf('/'))));
		String property = error.getProperty();
		return switch (error.getKeyword()) {
			case "required" -> new Problem(path + RunDocumentValidator.key(String.valueOf(property)), "is required");
			case "additionalProperties" -> new Problem(path + RunDocumentValidator.key(String.valueOf(property)),
					unknownField(String.valueOf(property), parent, pointer));
			case "type" -> new Problem(path,
					(path.equals("$") ? "a run document is " + types(keyword) : "must be " + types(keyword)) + ", not "
							+ RunDocumentValidator.describe(value));
			case "const" ->
				new Problem(path, path.equals("$.format") ? "unknown format " + value + "; this server reads " + keyword
						: "must be " + keyword + ", not " + shown(value));
			case "enum" -> new Problem(path, "must be " + alternatives(keyword) + ", not " + shown(value));
			case "minimum" -> new Problem(path, "must be at least " + bound(keyword) + ", not " + value);
			case "maximum" -> new Problem(path, "must be at most " + bound(keyword) + ", not " + value);
			case "minLength" -> new Problem(path, "must not be blank");
			case "maxLength" -> new Problem(path, "is " + value.asString().codePointCount(0, value.asString().length())
					+ " characters; at most " + keyword);
			case "pattern" -> new Problem(path, pattern(keyword.asString(), value, path));
			case "minItems" -> new Problem(path, path.equals("$.cells") && keyword.asInt() == 1
					? "must hold at least one cell" : "must hold at least " + keyword + " items");
			case "maxItems" -> new Problem(path, "holds " + value.size() + " items; at most " + keyword);
			case "maxProperties" -> new Problem(path, "holds " + value.size() + " entries; at most " + keyword);
			case "propertyNames" -> propertyName(path, String.valueOf(property), keyword);
			default -> new Problem(path, RunDocumentValidator.printable(error.getMessage()));
		};
	}

	/**
	 * A field name over the length the schema allows ({@code propertyNames}), at the path
	 * of that field.
	 */
	private static Problem propertyName(String path, String name, JsonNode propertyNames) {
		int length = name.codePointCount(0, name.length());
		JsonNode bound = propertyNames.isNumber() ? propertyNames : propertyNames.path("maxLength");
		String shown = name.length() > 60
				? name.substring(0, Character.isHighSurrogate(name.charAt(56)) ? 56 : 57) + "…" : name;
		return new Problem(path + RunDocumentValidator.key(shown),
				"the name is " + length + " characters; at most " + bound);
	}

	/**
	 * A bound as written for people: {@code 0.0} (as the schema writes a whole-number
	 * bound) is 0.
	 */
	private static String bound(JsonNode bound) {
		double value = bound.doubleValue();
		return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : bound.toString();
	}

	private static String pattern(String pattern, JsonNode value, String path) {
		return switch (pattern) {
			case NOT_BLANK_PATTERN -> "must not be blank";
			case COMMIT_PATTERN -> "must be the 40 hexadecimal characters of the "
					+ (path.equals("$.engine.commit") ? "engine's" : "resolved") + " commit, not " + shown(value);
			default -> "must match the pattern " + pattern + ", not " + shown(value);
		};
	}

	private static String unknownField(String name, JsonNode schema, String pointer) {
		if (pointer.endsWith("/metricValue/additionalProperties")) {
			return "unknown statistic \"" + RunDocumentValidator.printable(name)
					+ "\": use median, mean, std, min, max or a percentile p1 … p99";
		}
		List<String> allowed = new ArrayList<>(schema.path("properties").propertyNames());
		return "unknown field \"" + RunDocumentValidator.printable(name) + "\" (allowed here: "
				+ String.join(", ", allowed) + ")";
	}

	/**
	 * The JSON types a schema allows, in words: {@code ["integer", "null"]} is "a whole
	 * number".
	 */
	private static String types(JsonNode type) {
		List<String> words = new ArrayList<>();
		List<JsonNode> types = type.isArray() ? type.valueStream().toList() : List.of(type);
		for (JsonNode each : types) {
			switch (each.asString()) {
				case "string" -> words.add("a string");
				case "integer" -> words.add("a whole number");
				case "number" -> words.add("a number");
				case "object" -> words.add("an object");
				case "array" -> words.add("an array");
				case "boolean" -> words.add("true or false");
				default -> {
					// null is allowed wherever it is listed, but a value of the wrong
					// type is not null anyway.
				}
			}
		}
		return words.isEmpty() ? "null" : or(words);
	}

	private static String alternatives(JsonNode values) {
		List<String> words = new ArrayList<>();
		values.forEach(value -> {
			if (!value.isNull()) {
				words.add(value.toString());
			}
		});
		return or(words);
	}

	private static String or(List<String> words) {
		if (words.size() == 1) {
			return words.get(0);
		}
		return String.join(", ", words.subList(0, words.size() - 1)) + " or " + words.get(words.size() - 1);
	}

	/** A value as a message quotes it: a string in quotes, anything else described. */
	private static String shown(@Nullable JsonNode value) {
		if (value == null) {
			return "nothing";
		}
		if (value.isString()) {
			String text = RunDocumentValidator.printable(value.asString());
			return "\"" + (text.length() > 60 ? text.substring(0, 57) + "…" : text) + "\"";
		}
		return RunDocumentValidator.describe(value);
	}

	/** The JSON path of an instance location: {@code $.cells[3].requests.failed}. */
	private static String path(String root, NodePath location) {
		StringBuilder path = new StringBuilder(root);
		for (int i = 0; i < location.getNameCount(); i++) {
			Object element = location.getElement(i);
			path.append(element instanceof Integer index ? "[" + index + "]"
					: RunDocumentValidator.key(String.valueOf(element)));
		}
		return path.toString();
	}

	/**
	 * The JSON pointer into the schema of the keyword that failed, e.g.
	 * {@code /$defs/cell/properties/order/type}.
	 */
	private static String pointer(SchemaLocation location) {
		String text = location.toString();
		int hash = text.indexOf('#');
		return hash < 0 ? "" : text.substring(hash + 1);
	}

}
