package dev.parity.run;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A cell's grid coordinates, e.g. {@code prompt_tokens=32768, concurrency=4}. Values are
 * numbers ({@link BigDecimal}) or strings; two cells match when their params are equal,
 * numbers compared numerically (8192 = 8192.0), strings exactly.
 */
public record Params(SortedMap<String, Object> values) {

	public Params {
		SortedMap<String, Object> copy = new TreeMap<>();
		values.forEach((name, value) -> copy.put(name, normalise(value)));
		values = Collections.unmodifiableSortedMap(copy);
	}

	public static Params of(Map<String, ?> values) {
		return new Params(new TreeMap<>(values));
	}

	private static Object normalise(Object value) {
		if (value instanceof BigDecimal number) {
			return number.signum() == 0 ? BigDecimal.ZERO : number.stripTrailingZeros();
		}
		if (value instanceof Number number) {
			return normalise(new BigDecimal(number.toString()));
		}
		if (value instanceof String) {
			return value;
		}
		throw new IllegalArgumentException("a param is a number or a string, not " + value);
	}

	/**
	 * The value as written in anchors, tables and URLs: whole numbers without a fraction.
	 */
	public static String format(Object value) {
		if (value instanceof BigDecimal number) {
			return number.toPlainString();
		}
		return String.valueOf(value);
	}

	public Optional<Object> get(String name) {
		return Optional.ofNullable(values.get(name));
	}

	/** A numeric param, if present and a number. */
	public Optional<BigDecimal> number(String name) {
		return get(name).filter(BigDecimal.class::isInstance).map(BigDecimal.class::cast);
	}

	/** These params without one of them: "the same other params". */
	public Params without(String name) {
		SortedMap<String, Object> rest = new TreeMap<>(values);
		rest.remove(name);
		return new Params(rest);
	}

	/**
	 * The cell's anchor: {@code cell-} + params sorted by name as {@code name-value},
	 * joined by {@code --}, lower-cased, every character outside {@code [a-z0-9_.-]}
	 * replaced by {@code -}.
	 */
	public String anchor() {
		// Written out rather than with a regular expression: every rule and page asks for
		// anchors, cell by cell.
		StringBuilder anchor = new StringBuilder(64).append("cell-");
		boolean first = true;
		for (Map.Entry<String, Object> entry : values.entrySet()) {
			if (!first) {
				anchor.append("--");
			}
			first = false;
			appendSafe(anchor, entry.getKey());
			anchor.append('-');
			appendSafe(anchor, format(entry.getValue()));
		}
		return anchor.toString();
	}

	/**
	 * Lower-cased, with every character outside {@code [a-z0-9_.-]} replaced by
	 * {@code -}, as anchors need.
	 */
	private static void appendSafe(StringBuilder into, String text) {
		String lower = text.toLowerCase(Locale.ROOT);
		for (int i = 0; i < lower.length(); i += Character.charCount(lower.codePointAt(i))) {
			char c = lower.charAt(i); // one '-' for a character outside the BMP too, as
										// the expression it replaces gave
			into.append((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-' ? c : '-');
		}
	}

	/** {@code prompt_tokens=32768, concurrency=4}: for people. */
	public String label() {
		return values.entrySet()
			.stream()
			.map(e -> e.getKey() + "=" + format(e.getValue()))
			.collect(Collectors.joining(", "));
	}

	@Override
	public String toString() {
		return label();
	}

}
