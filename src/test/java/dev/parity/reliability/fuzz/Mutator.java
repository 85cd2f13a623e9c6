package dev.parity.reliability.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Makes hostile variations of a valid input, the way broken tools, careless edits and
 * attackers do: values of the wrong type, numbers beyond every range, NaN and Infinity,
 * duplicate keys, deep nesting, strings that a database cannot store, truncation and
 * invalid UTF-8. One to three steps are stacked per variation; JSON steps work on the
 * parsed tree (so they reach deep fields), byte steps on the serialised result.
 */
final class Mutator {

	/** What the input is, which decides the steps that make sense for it. */
	enum Shape {

		/** One JSON value. */
		JSON,
		/** One JSON value per line. */
		JSON_LINES,
		/** A text table: CSV or Markdown. */
		TEXT

	}

	/**
	 * Harness files hold bare NaN and Infinity, so the valid inputs are read (and written
	 * back) leniently.
	 */
	private static final JsonMapper LENIENT = JsonMapper.builder()
		.enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
		.disable(JsonWriteFeature.WRITE_NAN_AS_STRINGS)
		.build();

	private static final JsonMapper PRETTY = LENIENT.rebuild().enable(SerializationFeature.INDENT_OUTPUT).build();

	private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

	private static final List<String> HOSTILE_NUMBERS = List.of("1e400", "-1e400", "1e308", "-1.7976931348623157e308",
			"4.9e-324", "1e-400", "-0", "-0.0", "0", "0.0", "-1", "2147483647", "2147483648", "-2147483649",
			"9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551616",
			"1" + "0".repeat(400), "9".repeat(1000), "9".repeat(1001), "1e999999999", "1e-999999999", "1E+2", "0.1e1",
			"123456789.123456789e-7", "3.4028235e38", "1.0000000000000002");

	private static final List<String> NON_FINITE = List.of("NaN", "Infinity", "-Infinity", "+Infinity", "nan", "inf",
			"-NaN");

	/**
	 * Strings as JSON text, escapes kept: a lone surrogate cannot be held by a
	 * well-formed Java string in output.
	 */
	private static final List<String> HOSTILE_STRINGS = List.of("\"\"", "\" \"", "\"\\u0000\"", "\"a\\u0000b\"",
			"\"\\ud800\"", "\"x\\udfff\"", "\"\\udbff\\udfff\"", "\"\\u202e\\u0644\\u0627 RTL\"", "\"😀🚀\"",
			"\"<script>alert(1)</script>\"", "\"' OR 1=1 --\"", "\"%s%n%x\"", "\"../../../etc/passwd\"",
			"\"\\n\\r\\t\\b\\f\"", "\"e\\u0301\\u0301\\u0301\\u0301\"", "\"\\uFEFF\"", "\"\\uFFFF\\uFFFE\"", "\"NaN\"",
			"\"Infinity\"", "\"1e400\"", "\"-1\"", "\"null\"", "\"main\"", "\"measured\"", "\"reference\"",
			"\"benchmark-run/1\"", "\"benchmark-run/2\"", "\"2026-08-11T10:10:00Z\"", "\"+999999999-12-31T23:59:59Z\"",
			"\"-999999999-01-01T00:00:00Z\"", "\"0001-01-01T00:00:00Z\"", "\"9999-12-31T23:59:59.999999999Z\"",
			"\"300000-01-01T00:00:00Z\"", "\"-4714-11-24T00:00:00Z\"", "\"2026-02-30T10:10:00Z\"",
			"\"2026-08-11T10:10:00+18:00\"", "\"2026-08-11\"", "\"0123456789abcdef0123456789abcdef01234567\"",
			"\"0123456789ABCDEF0123456789ABCDEF0123456789\"");

	private static final List<String> INVALID_UTF8_NAMES = List.of("ff", "c0 af (overlong)", "ed a0 80 (surrogate)",
			"c3 (lone lead)", "80 (lone continuation)", "f8 88 80 80 80 (5 bytes)", "f4 90 80 80 (beyond U+10FFFF)",
			"fe ff");

	private static final List<byte[]> INVALID_UTF8 = List.of(bytes(0xff), bytes(0xc0, 0xaf), bytes(0xed, 0xa0, 0x80),
			bytes(0xc3), bytes(0x80), bytes(0xf8, 0x88, 0x80, 0x80, 0x80), bytes(0xf4, 0x90, 0x80, 0x80),
			bytes(0xfe, 0xff));

	private static final List<String> HOSTILE_CELLS = List.of("1e400", "NaN", "nan", "-", "", " ", "∞", "1,2,3", "0x10",
			"١٢٣", "-0", "99999999999999999999999", "1e-400", "12.5.3", "\"", "\"\"", "**", "|", "-1", "1 000", "1_000",
			"+5", ".5", "5.", "1e308", "-1e308", "\u0000", "inf", "Infinity", "—");

	private final Random random;

	private final List<String> steps = new ArrayList<>();

	Mutator(Random random) {
		this.random = random;
	}

	/** One to three hostile steps applied to a valid input of the given shape. */
	Mutation mutate(byte[] valid, Shape shape) {
		steps.clear();
		int count = 1 + (chance(35) ? 1 : 0) + (chance(10) ? 1 : 0);
		int structural = 0;
		for (int i = 0; i < count; i++) {
			if (chance(70)) {
				structural++;
			}
		}
		byte[] bytes = valid;
		if (structural > 0) {
			bytes = switch (shape) {
				case JSON -> mutateJson(bytes, "$", structural);
				case JSON_LINES -> mutateLine(bytes, structural);
				case TEXT -> mutateTable(bytes, structural);
			};
		}
		for (int i = structural; i < count; i++) {
			bytes = mutateBytes(bytes);
		}
		return new Mutation(bytes, steps);
	}

	private byte[] mutateLine(byte[] bytes, int times) {
		String text = new String(bytes, StandardCharsets.UTF_8);
		List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
		List<Integer> candidates = new ArrayList<>();
		for (int i = 0; i < lines.size(); i++) {
			if (!lines.get(i).isBlank()) {
				candidates.add(i);
			}
		}
		if (candidates.isEmpty()) {
			return mutateBytes(bytes);
		}
		int line = candidates.get(random.nextInt(candidates.size()));
		byte[] mutated = mutateJson(lines.get(line).getBytes(StandardCharsets.UTF_8), "line " + (line + 1) + ": $",
				times);
		// A JSON Lines value must stay on one line: re-serialise pretty output compactly
		// where it was pretty.
		String replaced = new String(mutated, StandardCharsets.UTF_8).replace("\n", " ");
		lines.set(line, replaced);
		return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
	}

	private byte[] mutateJson(byte[] bytes, String rootPath, int times) {
		JsonNode root;
		try {
			root = LENIENT.readTree(bytes);
		}
		catch (RuntimeException ex) {
			return mutateBytes(bytes);
		}
		Map<String, String> raw = new LinkedHashMap<>();
		for (int i = 0; i < times; i++) {
			root = mutateTree(root, rootPath, raw);
		}
		String text = (chance(50) ? PRETTY : LENIENT).writeValueAsString(root);
		List<String> placeholders = new ArrayList<>(raw.keySet());
		// Later raw texts may hold earlier placeholders (a duplicated key around a
		// mutated value): replace them first.
		for (int i = placeholders.size() - 1; i >= 0; i--) {
			String placeholder = placeholders.get(i);
			text = text.replace("\"" + placeholder + "\"", raw.get(placeholder));
		}
		return text.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * A place in the tree: the parent container and the field or index under which the
	 * value sits.
	 */
	private record Location(JsonNode parent, String field, int index, String path) {

		JsonNode value() {
			return parent.isObject() ? parent.get(field) : parent.get(index);
		}

		void set(JsonNode value) {
			if (parent instanceof ObjectNode object) {
				object.set(field, value);
			}
			else {
				((ArrayNode) parent).set(index, value);
			}
		}

	}

	private JsonNode mutateTree(JsonNode root, String rootPath, Map<String, String> raw) {
		List<Location> locations = new ArrayList<>();
		collect(root, rootPath, 0, locations);
		if (locations.isEmpty() || chance(3)) {
			JsonNode replacement = replacementFor(root, raw, rootPath);
			return replacement;
		}
		List<Location> shallow = locations.stream()
			.filter(l -> l.path().chars().filter(c -> c == '.' || c == '[').count() <= 2)
			.toList();
		Location target = chance(25) && !shallow.isEmpty() ? shallow.get(random.nextInt(shallow.size()))
				: locations.get(random.nextInt(locations.size()));
		JsonNode value = target.value();
		switch (random.nextInt(8)) {
			case 0 -> {
				if (target.parent() instanceof ObjectNode object) {
					object.remove(target.field());
				}
				else {
					((ArrayNode) target.parent()).remove(target.index());
				}
				steps.add("remove " + target.path());
			}
			case 1 -> {
				if (target.parent() instanceof ObjectNode object) {
					String renamed = typo(target.field());
					object.remove(target.field());
					object.set(renamed, value);
					steps.add("rename " + target.path() + " to " + quote(renamed));
				}
				else {
					((ArrayNode) target.parent()).insert(target.index(), value.deepCopy());
					steps.add("duplicate the element " + target.path());
				}
			}
			case 2 -> {
				if (value instanceof ObjectNode object) {
					object.set(typo("extra"), randomScalar());
					steps.add("add an unknown field to " + target.path());
				}
				else if (value instanceof ArrayNode array && !array.isEmpty()) {
					int copies = pick(List.of(1, 2, 50, 2000));
					JsonNode element = array.get(random.nextInt(array.size()));
					for (int i = 0; i < copies; i++) {
						array.add(element.deepCopy());
					}
					steps.add("append " + copies + " copies of an element to " + target.path());
				}
				else {
					target.set(replacementFor(value, raw, target.path()));
				}
			}
			case 3 -> {
				Location other = locations.get(random.nextInt(locations.size()));
				target.set(other.value().deepCopy());
				steps.add(target.path() + " := the value of " + other.path());
			}
			default -> target.set(replacementFor(value, raw, target.path()));
		}
		return root;
	}

	private void collect(JsonNode node, String path, int depth, List<Location> locations) {
		if (depth > 64) {
			return;
		}
		if (node instanceof ObjectNode object) {
			for (String field : List.copyOf(object.propertyNames())) {
				String childPath = path + "." + field;
				locations.add(new Location(object, field, -1, childPath));
				collect(object.get(field), childPath, depth + 1, locations);
			}
		}
		else if (node instanceof ArrayNode array) {
			for (int i = 0; i < array.size(); i++) {
				String childPath = path + "[" + i + "]";
				locations.add(new Location(array, null, i, childPath));
				collect(array.get(i), childPath, depth + 1, locations);
			}
		}
	}

	/**
	 * A hostile value in place of {@code value}; raw JSON text goes through a
	 * placeholder.
	 */
	private JsonNode replacementFor(JsonNode value, Map<String, String> raw, String path) {
		switch (random.nextInt(9)) {
			case 0 -> {
				String number = pick(HOSTILE_NUMBERS);
				steps.add(path + " := " + abbreviate(number));
				return raw(raw, number);
			}
			case 1 -> {
				String number = pick(NON_FINITE);
				steps.add(path + " := " + number);
				return raw(raw, number);
			}
			case 2 -> {
				String string = pick(HOSTILE_STRINGS);
				steps.add(path + " := " + string);
				return raw(raw, string);
			}
			case 3 -> {
				JsonNode scalar = wrongType(value);
				steps.add(path + " := " + abbreviate(scalar.toString()));
				return scalar;
			}
			case 4 -> {
				if (value instanceof ObjectNode object && !object.isEmpty()) {
					String duplicated = duplicateKey(object);
					steps.add(path + " := the same object with the key "
							+ quote(object.propertyNames().iterator().next()) + " twice");
					return raw(raw, duplicated);
				}
				int depth = pick(List.of(30, 200, 499, 500, 501, 5000));
				boolean arrays = chance(50);
				String nested = arrays ? "[".repeat(depth) + "1" + "]".repeat(depth)
						: "{\"a\":".repeat(depth) + "1" + "}".repeat(depth);
				steps.add(path + " := " + (arrays ? "arrays" : "objects") + " nested " + depth + " deep");
				return raw(raw, nested);
			}
			case 5 -> {
				int length = pick(List.of(201, 10_000, 1_000_000));
				steps.add(path + " := a string of " + length + " characters");
				return NODES.stringNode("x".repeat(length));
			}
			case 6 -> {
				JsonNode empty = pick(
						List.of(NODES.arrayNode(), NODES.objectNode(), NODES.stringNode(""), NODES.nullNode()));
				steps.add(path + " := " + empty);
				return empty;
			}
			case 7 -> {
				if (value.isNumber()) {
					JsonNode negated = value.isIntegralNumber()
							? NODES.numberNode(-Math.max(1, Math.abs(value.longValue())))
							: NODES.numberNode(-Math.abs(value.doubleValue()) - 0.5);
					steps.add(path + " := " + negated);
					return negated;
				}
				JsonNode boundary = NODES.numberNode(pick(List.of(0, -1, Integer.MAX_VALUE, Integer.MIN_VALUE)));
				steps.add(path + " := " + boundary);
				return boundary;
			}
			default -> {
				JsonNode fraction = NODES.numberNode(random.nextInt(2000) / 7.0);
				steps.add(path + " := " + fraction);
				return fraction;
			}
		}
	}

	private JsonNode wrongType(JsonNode value) {
		List<JsonNode> options = new ArrayList<>(List.of(NODES.stringNode("text"), NODES.numberNode(42),
				NODES.numberNode(3.5), NODES.booleanNode(true), NODES.booleanNode(false), NODES.nullNode(),
				NODES.arrayNode().add(1).add("two"), NODES.objectNode().put("a", 1)));
		options.removeIf(option -> option.getNodeType() == value.getNodeType());
		return pick(options);
	}

	private JsonNode randomScalar() {
		return pick(
				List.of(NODES.stringNode("surprise"), NODES.numberNode(7), NODES.booleanNode(true), NODES.nullNode()));
	}

	private String duplicateKey(ObjectNode object) {
		StringBuilder text = new StringBuilder("{");
		List<String> names = List.copyOf(object.propertyNames());
		for (String name : names) {
			text.append(LENIENT.writeValueAsString(name))
				.append(':')
				.append(LENIENT.writeValueAsString(object.get(name)))
				.append(',');
		}
		String first = names.get(0);
		JsonNode second = chance(50) ? object.get(first) : randomScalar();
		text.append(LENIENT.writeValueAsString(first))
			.append(':')
			.append(LENIENT.writeValueAsString(second))
			.append('}');
		return text.toString();
	}

	private String typo(String field) {
		return switch (random.nextInt(6)) {
			case 0 -> field + "_";
			case 1 -> field.toUpperCase(Locale.ROOT);
			case 2 -> " " + field;
			case 3 -> "";
			case 4 -> field + "\u0000";
			default -> field.isEmpty() ? "x" : field.substring(0, field.length() - 1);
		};
	}

	private static JsonNode raw(Map<String, String> raw, String text) {
		String placeholder = "@@parity-fuzz-raw-" + raw.size() + "@@";
		raw.put(placeholder, text);
		return NODES.stringNode(placeholder);
	}

	private byte[] mutateTable(byte[] bytes, int times) {
		String text = new String(bytes, StandardCharsets.UTF_8);
		for (int i = 0; i < times; i++) {
			List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
			int line = random.nextInt(lines.size());
			switch (random.nextInt(5)) {
				case 0 -> {
					String hostile = pick(HOSTILE_CELLS);
					String replaced = replaceRandomToken(lines.get(line), hostile);
					lines.set(line, replaced);
					steps.add("line " + (line + 1) + ": a value := " + quote(hostile));
				}
				case 1 -> {
					lines.add(line, lines.get(line));
					steps.add("duplicate line " + (line + 1));
				}
				case 2 -> {
					lines.remove(line);
					steps.add("remove line " + (line + 1));
				}
				case 3 -> {
					String extra = pick(List.of("1,2", "1,2,3,4,5,6,7,8,9", "| 1 |", "|||", "\"unbalanced,1", ",,,,"));
					lines.add(line, extra);
					steps.add("insert " + quote(extra) + " at line " + (line + 1));
				}
				default -> {
					String from = pick(List.of(",", "|"));
					String to = pick(List.of(";", "\t", ",", "|"));
					lines.set(line, lines.get(line).replace(from, to));
					steps.add("line " + (line + 1) + ": " + quote(from) + " → " + quote(to));
				}
			}
			text = String.join("\n", lines);
		}
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private String replaceRandomToken(String line, String replacement) {
		List<int[]> tokens = new ArrayList<>();
		Matcher matcher = Pattern.compile("[^,|\\s]+").matcher(line);
		while (matcher.find()) {
			tokens.add(new int[] { matcher.start(), matcher.end() });
		}
		if (tokens.isEmpty()) {
			return line + replacement;
		}
		int[] token = tokens.get(random.nextInt(tokens.size()));
		return line.substring(0, token[0]) + replacement + line.substring(token[1]);
	}

	private byte[] mutateBytes(byte[] bytes) {
		int length = bytes.length;
		switch (random.nextInt(10)) {
			case 0 -> {
				int at = length == 0 ? 0 : random.nextInt(length);
				steps.add("truncate at byte " + at);
				return Arrays.copyOf(bytes, at);
			}
			case 1, 2 -> {
				int which = random.nextInt(INVALID_UTF8.size());
				int at = insideAString(bytes);
				steps.add("insert invalid UTF-8 (" + INVALID_UTF8_NAMES.get(which) + ") at byte " + at);
				return insert(bytes, at, INVALID_UTF8.get(which));
			}
			case 3 -> {
				byte[] flipped = bytes.clone();
				int flips = 1 + random.nextInt(4);
				for (int i = 0; i < flips && flipped.length > 0; i++) {
					flipped[random.nextInt(flipped.length)] = (byte) random.nextInt(256);
				}
				steps.add("overwrite " + flips + " random byte(s)");
				return flipped;
			}
			case 4 -> {
				if (length < 2) {
					return bytes;
				}
				int from = random.nextInt(length);
				int to = Math.min(length, from + 1 + random.nextInt(64));
				steps.add("delete bytes " + from + ".." + to);
				byte[] out = new byte[length - (to - from)];
				System.arraycopy(bytes, 0, out, 0, from);
				System.arraycopy(bytes, to, out, from, length - to);
				return out;
			}
			case 5 -> {
				if (length < 2) {
					return bytes;
				}
				int from = random.nextInt(length);
				int to = Math.min(length, from + 1 + random.nextInt(64));
				int at = random.nextInt(length);
				steps.add("copy bytes " + from + ".." + to + " to " + at);
				return insert(bytes, at, Arrays.copyOfRange(bytes, from, to));
			}
			case 6 -> {
				steps.add("prefix a byte-order mark");
				return insert(bytes, 0, bytes(0xef, 0xbb, 0xbf));
			}
			case 7 -> {
				boolean big = chance(50);
				steps.add("re-encode as UTF-16" + (big ? "BE" : "LE") + " with a byte-order mark");
				String text = new String(bytes, StandardCharsets.UTF_8);
				return insert(text.getBytes(big ? StandardCharsets.UTF_16BE : StandardCharsets.UTF_16LE), 0,
						big ? bytes(0xfe, 0xff) : bytes(0xff, 0xfe));
			}
			case 8 -> {
				String tail = pick(List.of("{}", "garbage", "\u0000", "\n{\"format\":\"benchmark-run/1\"}", "]", ","));
				steps.add("append " + quote(tail));
				return insert(bytes, length, tail.getBytes(StandardCharsets.UTF_8));
			}
			default -> {
				int at = insideAString(bytes);
				steps.add("insert a NUL byte at " + at);
				return insert(bytes, at, bytes(0));
			}
		}
	}

	/**
	 * A position just after a double quote (so inside a string) when there is one, else
	 * anywhere.
	 */
	private int insideAString(byte[] bytes) {
		if (bytes.length == 0) {
			return 0;
		}
		int start = random.nextInt(bytes.length);
		for (int i = 0; i < bytes.length; i++) {
			int at = (start + i) % bytes.length;
			if (bytes[at] == '"') {
				return at + 1;
			}
		}
		return start;
	}

	private static byte[] insert(byte[] bytes, int at, byte[] inserted) {
		ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length + inserted.length);
		out.write(bytes, 0, at);
		out.write(inserted, 0, inserted.length);
		out.write(bytes, at, bytes.length - at);
		return out.toByteArray();
	}

	private static byte[] bytes(int... values) {
		byte[] bytes = new byte[values.length];
		for (int i = 0; i < values.length; i++) {
			bytes[i] = (byte) values[i];
		}
		return bytes;
	}

	private boolean chance(int percent) {
		return random.nextInt(100) < percent;
	}

	private <T> T pick(List<T> options) {
		return options.get(random.nextInt(options.size()));
	}

	private static String quote(String text) {
		return "\"" + abbreviate(text.replace("\u0000", "\\u0000")) + "\"";
	}

	private static String abbreviate(String text) {
		return text.length() > 40 ? text.substring(0, 37) + "…(" + text.length() + " chars)" : text;
	}

}
