package dev.parity.ingest.harness;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Parses harness JSON the way harnesses write it: Python's bare {@code NaN},
 * {@code Infinity} and {@code -Infinity} are accepted (they are read, then treated as
 * absent), and a problem is reported with the file name and the line and column where it
 * was found.
 */
final class HarnessJson {

	private static final JsonMapper MAPPER = JsonMapper.builder()
		.enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
		.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
		.build();

	private HarnessJson() {
	}

	static ObjectNode object() {
		return JsonNodeFactory.instance.objectNode();
	}

	/**
	 * A number as written in documents: whole numbers without a fraction ({@code 128},
	 * not {@code 128.0}).
	 */
	static JsonNode number(double value) {
		if (value == Math.rint(value) && Math.abs(value) < 1e15) {
			return JsonNodeFactory.instance.numberNode((long) value);
		}
		return JsonNodeFactory.instance.numberNode(value);
	}

	/**
	 * One JSON value.
	 * @param name the file name for messages
	 * @param where a prefix for the location, e.g. {@code "line 3: "} for a JSON Lines
	 * file, or empty
	 * @param lineOffset added to the parser's line numbers (for one line of a JSON Lines
	 * file, so the reported line is the file's)
	 */
	static JsonNode parse(String name, byte[] bytes, int offset, int length, int lineOffset) {
		return parse(name, bytes, offset, length, lineOffset, JsonBudget.of(JsonLimits.DEFAULT));
	}

	/**
	 * One JSON value, counted against the upload's budget before its tree is built.
	 * @throws ImportTooLarge when it goes beyond the budget's limits
	 */
	static JsonNode parse(String name, byte[] bytes, int offset, int length, int lineOffset, JsonBudget budget) {
		if (isBlank(bytes, offset, length)) {
			throw new ImportRejected(name + ": empty, not JSON");
		}
		long mark = budget.used();
		try {
			try (JsonParser counting = MAPPER.createParser(bytes, offset, length)) {
				budget.check(counting, name);
			}
			JsonNode node = MAPPER.readTree(bytes, offset, length);
			if (node == null || node.isMissingNode()) {
				throw new ImportRejected(name + ": empty, not JSON");
			}
			return node;
		}
		catch (JacksonException ex) {
			budget.reset(mark);
			throw new ImportRejected(name + ": not valid JSON: " + describe(ex, lineOffset), ex);
		}
	}

	static JsonNode parse(String name, byte[] bytes) {
		return parse(name, bytes, 0, bytes.length, 0);
	}

	static JsonNode parse(String name, String text) {
		return parse(name, text.getBytes(StandardCharsets.UTF_8));
	}

	private static String describe(JacksonException ex, int lineOffset) {
		String message = ex.getOriginalMessage();
		if (message == null) {
			message = ex.getClass().getSimpleName();
		}
		// Jackson's messages carry a source excerpt and marker details after the first
		// sentence.
		int cut = indexOfAny(message, " (start marker", "\n", " at [Source");
		if (cut >= 0) {
			message = message.substring(0, cut);
		}
		if (message.startsWith("Unexpected end-of-input")) {
			message = "unexpected end of input";
		}
		else if (message.startsWith("Trailing token")) {
			message = "more than one JSON value (for JSON Lines, one value per line)";
		}
		else if (!message.isEmpty()) {
			message = message.substring(0, 1).toLowerCase(Locale.ROOT) + message.substring(1);
		}
		if (message.endsWith(":")) {
			message = message.substring(0, message.length() - 1);
		}
		TokenStreamLocation location = ex.getLocation();
		if (location != null && location.getLineNr() > 0) {
			message += " at line " + (location.getLineNr() + lineOffset) + ", column " + location.getColumnNr();
		}
		return message;
	}

	private static int indexOfAny(String text, String... needles) {
		int best = -1;
		for (String needle : needles) {
			int at = text.indexOf(needle);
			if (at >= 0 && (best < 0 || at < best)) {
				best = at;
			}
		}
		return best;
	}

	static boolean isBlank(byte[] bytes, int offset, int length) {
		for (int i = offset; i < offset + length; i++) {
			byte b = bytes[i];
			if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
				return false;
			}
		}
		return true;
	}

}
