package dev.parity.ingest.mapping;

import java.util.List;

import com.jayway.jsonpath.Configuration;
import com.jayway.jsonpath.InvalidPathException;
import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.Option;
import com.jayway.jsonpath.PathNotFoundException;
import org.jspecify.annotations.Nullable;

/**
 * One path of a mapping: JSONPath (Jayway) limited to what reads data and nothing else —
 * {@code $}, fields ({@code .name}, {@code ['a name']}), every item of a list
 * ({@code [*]}) and indices ({@code [0]}, {@code [-1]}). No filters, expressions,
 * functions, regular expressions, slices or deep scan: a mapping describes where the
 * numbers are; it never computes.
 */
final class MappingPath {

	private static final Configuration READ = Configuration.defaultConfiguration()
		.addOptions(Option.SUPPRESS_EXCEPTIONS);

	private static final Configuration EXISTS = Configuration.defaultConfiguration();

	private final String text;

	private final JsonPath path;

	private MappingPath(String text, JsonPath path) {
		this.text = text;
		this.path = path;
	}

	/**
	 * The path, checked.
	 * @throws IllegalArgumentException saying what is not allowed or wrong in it
	 */
	static MappingPath of(String text) {
		String problem = problem(text);
		if (problem != null) {
			throw new IllegalArgumentException(problem);
		}
		try {
			return new MappingPath(text, JsonPath.compile(text));
		}
		catch (InvalidPathException ex) {
			throw new IllegalArgumentException("not a valid JSONPath: " + ex.getMessage());
		}
	}

	String text() {
		return text;
	}

	/** Whether the path reads a list of items ({@code [*]}) rather than one value. */
	boolean many() {
		return !path.isDefinite();
	}

	/**
	 * The value at the path in the item (a list for a path with {@code [*]});
	 * {@code null} when absent.
	 */
	@Nullable Object read(Object item) {
		try {
			return path.read(item, READ);
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	/**
	 * Whether the path finds something in the item (for {@code [*]}: at least one value).
	 */
	boolean existsIn(Object item) {
		try {
			Object found = path.read(item, EXISTS);
			return !(many() && found instanceof List<?> list && list.isEmpty());
		}
		catch (PathNotFoundException ex) {
			return false;
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	/**
	 * What is not allowed in the path, in words; {@code null} when it is only fields,
	 * {@code [*]} and indices.
	 */
	static @Nullable String problem(String text) {
		if (text.isBlank()) {
			return "is empty: write a path such as $.cases[*]";
		}
		if (!text.startsWith("$")) {
			return "must start with $ (the current item), e.g. $." + text.strip();
		}
		if (text.contains("..")) {
			return "deep scan (..) is not allowed: write the path to the field";
		}
		if (text.contains("=~")) {
			return "regular expressions are not allowed: a mapping reads fields, [*] and indices only";
		}
		if (text.contains("?(") || text.contains("[?")) {
			return "filters ([?(...)]) are not allowed: a mapping reads fields, [*] and indices only";
		}
		if (text.contains("(") || text.contains(")")) {
			return "expressions and functions are not allowed: a mapping reads fields, [*] and indices only";
		}
		int i = 1;
		while (i < text.length()) {
			char c = text.charAt(i);
			if (c == '.') {
				int start = ++i;
				while (i < text.length() && text.charAt(i) != '.' && text.charAt(i) != '[') {
					i++;
				}
				String name = text.substring(start, i);
				if (name.isEmpty()) {
					return "a field name is missing after '.' at position " + start;
				}
				if (name.equals("*")) {
					return "the wildcard .* is not allowed: use [*] on a list";
				}
			}
			else if (c == '[') {
				int end = text.indexOf(']', i);
				if (end < 0) {
					return "'[' at position " + i + " is not closed";
				}
				String inside = text.substring(i + 1, end).strip();
				if (inside.startsWith("'") || inside.startsWith("\"")) {
					char quote = inside.charAt(0);
					if (inside.length() < 2 || inside.charAt(inside.length() - 1) != quote
							|| inside.substring(1, inside.length() - 1).indexOf(quote) >= 0) {
						return "[" + inside + "] must be one quoted field name";
					}
				}
				else if (!inside.equals("*") && !inside.matches("-?\\d{1,9}")) {
					return inside.contains(":") ? "slices ([" + inside + "]) are not allowed: use [*] or one index"
							: "[" + inside
									+ "] is not allowed: write [*], an index such as [0], or a quoted field name";
				}
				i = end + 1;
			}
			else {
				return "unexpected '" + c + "' at position " + i + ": write $.field, $.list[*] or $.list[0]";
			}
		}
		return null;
	}

}
