package dev.parity.ingest.harness;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * An input file with its content parsed once, lazily: as one JSON value, as JSON Lines,
 * or as text. Detection asks without failing ({@code …OrNull}); importers ask and get an
 * {@link ImportRejected} naming the file and where it went wrong.
 */
final class ParsedFile {

	private static final YAMLMapper YAML = YAMLMapper.builder().build();

	private final InputFile file;

	/**
	 * What is left of the upload's limits: every file of an upload is counted against the
	 * same budget.
	 */
	private final JsonBudget budget;

	private @Nullable JsonNode json;

	private @Nullable ImportRejected jsonProblem;

	private @Nullable List<JsonNode> values;

	private @Nullable ImportRejected valuesProblem;

	private @Nullable String text;

	private @Nullable JsonNode yaml;

	private boolean yamlTried;

	private final Map<String, Optional<?>> readings = new HashMap<>();

	ParsedFile(InputFile file) {
		this(file, JsonBudget.of(JsonLimits.DEFAULT));
	}

	ParsedFile(InputFile file, JsonBudget budget) {
		this.file = file;
		this.budget = budget;
	}

	/** The files of one upload, read within one budget. */
	static List<ParsedFile> of(List<InputFile> files, JsonBudget budget) {
		return files.stream().map(file -> new ParsedFile(file, budget)).toList();
	}

	/**
	 * One JSON value of this file (a line, a record), counted against the upload's
	 * budget.
	 * @throws ImportTooLarge beyond the upload's limits
	 */
	JsonNode parse(String name, byte[] bytes, int offset, int length, int lineOffset) {
		return HarnessJson.parse(name, bytes, offset, length, lineOffset, budget);
	}

	String name() {
		return file.name();
	}

	String directory() {
		return file.directory();
	}

	byte[] bytes() {
		return file.content();
	}

	String text() {
		if (text == null) {
			String decoded = new String(file.content(), StandardCharsets.UTF_8);
			text = decoded.startsWith("\uFEFF") ? decoded.substring(1) : decoded;
		}
		return text;
	}

	/**
	 * A reading of the content (its CSV sections, a table) made once: detection asks
	 * every importer what the file is, and reading asks again.
	 * @param key names the reading
	 */
	@SuppressWarnings("unchecked")
	<T> @Nullable T reading(String key, Function<ParsedFile, @Nullable T> read) {
		Optional<?> known = readings.get(key);
		if (known == null) {
			known = Optional.ofNullable(read.apply(this));
			readings.put(key, known);
		}
		return (T) known.orElse(null);
	}

	/** Whether the content starts (after white space) like a JSON object or array. */
	boolean looksLikeJson() {
		byte[] bytes = file.content();
		int i = bytes.length >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB && (bytes[2] & 0xFF) == 0xBF
				? 3 : 0;
		while (i < bytes.length && Character.isWhitespace(bytes[i])) {
			i++;
		}
		return i < bytes.length && (bytes[i] == '{' || bytes[i] == '[');
	}

	/** The whole file as one JSON value. */
	JsonNode json() {
		parseWhole();
		if (json == null) {
			throw jsonProblem;
		}
		return json;
	}

	/** The whole file as one JSON value, or {@code null} when it is not one. */
	@Nullable JsonNode jsonOrNull() {
		parseWhole();
		return json;
	}

	/**
	 * The file's JSON values: the one value of a JSON file, or one per non-blank line of
	 * a JSON Lines file. When neither reading works, the problem of the more plausible
	 * one is reported.
	 */
	List<JsonNode> jsonValues() {
		parseValues();
		if (values == null) {
			throw valuesProblem;
		}
		return values;
	}

	@Nullable List<JsonNode> jsonValuesOrNull() {
		parseValues();
		return values;
	}

	/**
	 * Why the file is not JSON (or JSON Lines), for an explanation; {@code null} when it
	 * is.
	 */
	@Nullable String jsonProblem() {
		parseValues();
		return values == null && looksLikeJson() ? valuesProblem.getMessage() : null;
	}

	/**
	 * The file as a YAML mapping (guidellm writes its report as YAML too), or
	 * {@code null} when it is JSON, holds no {@code marker} key, or is not a YAML
	 * mapping.
	 */
	@Nullable JsonNode yamlOrNull(String marker) {
		if (!yamlTried && !looksLikeJson() && text().contains(marker + ":")) {
			yamlTried = true;
			try {
				JsonNode node = yaml(YAML, text());
				yaml = node != null && node.isObject() ? node : null;
			}
			catch (ImportTooLarge ex) {
				throw ex;
			}
			catch (JacksonException ex) {
				yaml = null;
			}
			catch (RuntimeException ex) {
				// The YAML engine's own errors (a bad alias, a limit reached): not a
				// report.
				yaml = null;
			}
		}
		return yaml != null && yaml.has(marker) ? yaml : null;
	}

	/**
	 * The text as YAML, counted against the upload's budget before its tree is built.
	 * @throws ImportTooLarge beyond the upload's limits
	 */
	JsonNode yaml(YAMLMapper mapper, String yamlText) {
		long mark = budget.used();
		try {
			try (JsonParser counting = mapper.createParser(yamlText)) {
				budget.check(counting, name());
			}
			return mapper.readTree(yamlText);
		}
		catch (RuntimeException ex) {
			if (!(ex instanceof ImportTooLarge)) {
				budget.reset(mark);
			}
			throw ex;
		}
	}

	private void parseWhole() {
		if (json != null || jsonProblem != null) {
			return;
		}
		try {
			json = HarnessJson.parse(name(), bytes(), 0, bytes().length, 0, budget);
		}
		catch (ImportTooLarge ex) {
			throw ex;
		}
		catch (ImportRejected ex) {
			jsonProblem = ex;
		}
	}

	private void parseValues() {
		if (values != null || valuesProblem != null) {
			return;
		}
		JsonNode whole = jsonOrNull();
		if (whole != null) {
			values = List.of(whole);
			return;
		}
		List<JsonNode> lines = new ArrayList<>();
		byte[] bytes = bytes();
		int start = 0;
		int lineNumber = 0;
		while (start <= bytes.length) {
			int end = start;
			while (end < bytes.length && bytes[end] != '\n') {
				end++;
			}
			lineNumber++;
			if (!HarnessJson.isBlank(bytes, start, end - start)) {
				try {
					lines.add(HarnessJson.parse(name(), bytes, start, end - start, lineNumber - 1, budget));
				}
				catch (ImportTooLarge ex) {
					throw ex;
				}
				catch (ImportRejected ex) {
					// A file whose first value is broken is a broken JSON file, not JSON
					// Lines.
					valuesProblem = lines.isEmpty() ? jsonProblem : ex;
					return;
				}
			}
			start = end + 1;
		}
		if (lines.isEmpty()) {
			valuesProblem = jsonProblem;
			return;
		}
		values = List.copyOf(lines);
	}

}
