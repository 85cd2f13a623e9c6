package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Lenient reading of harness fields: numbers may be written as strings ({@code "550"}), a
 * non-finite number ({@code NaN}, {@code Infinity}) or a {@code null} is absent.
 */
final class Fields {

	private Fields() {
	}

	static @Nullable Double number(@Nullable JsonNode parent, String field) {
		return parent == null ? null : number(parent.get(field));
	}

	static @Nullable Double number(@Nullable JsonNode node) {
		if (node == null || node.isNull() || node.isMissingNode()) {
			return null;
		}
		if (node.isNumber()) {
			// Not node.doubleValue(): it throws for an integer beyond the range of a
			// double (1e400 written out).
			double value = node.numberValue().doubleValue();
			return Double.isFinite(value) ? value : null;
		}
		if (node.isString()) {
			try {
				double value = Double.parseDouble(node.stringValue().trim());
				return Double.isFinite(value) ? value : null;
			}
			catch (NumberFormatException ex) {
				return null;
			}
		}
		return null;
	}

	static @Nullable Integer integer(@Nullable JsonNode parent, String field) {
		return parent == null ? null : integer(parent.get(field));
	}

	static @Nullable Integer integer(@Nullable JsonNode node) {
		Double value = number(node);
		if (value == null || value != Math.rint(value) || Math.abs(value) > Integer.MAX_VALUE) {
			return null;
		}
		return value.intValue();
	}

	static @Nullable String text(@Nullable JsonNode parent, String field) {
		if (parent == null) {
			return null;
		}
		JsonNode node = parent.get(field);
		if (node == null || !node.isString()) {
			return null;
		}
		String value = node.stringValue().trim();
		return value.isEmpty() ? null : value;
	}

	/** The string at an index of an array, or {@code null}. */
	static @Nullable String text(@Nullable JsonNode array, int index) {
		if (array == null || !array.isArray()) {
			return null;
		}
		JsonNode node = array.get(index);
		return node == null || !node.isString() || node.stringValue().isBlank() ? null : node.stringValue().trim();
	}

	/** The finite numbers of an array field, in order; non-numbers are skipped. */
	static List<Double> numbers(@Nullable JsonNode array) {
		List<Double> result = new ArrayList<>();
		if (array != null && array.isArray()) {
			for (JsonNode item : array) {
				Double value = number(item);
				if (value != null) {
					result.add(value);
				}
			}
		}
		return result;
	}

	/**
	 * An array field's items as numbers, with {@code null} where an item is not a finite
	 * number.
	 */
	static List<@Nullable Double> numbersOrNull(@Nullable JsonNode array) {
		List<@Nullable Double> result = new ArrayList<>();
		if (array != null && array.isArray()) {
			for (JsonNode item : array) {
				result.add(number(item));
			}
		}
		return result;
	}

	static boolean hasAll(JsonNode node, String... fields) {
		for (String field : fields) {
			if (!node.has(field)) {
				return false;
			}
		}
		return true;
	}

	static boolean hasAny(JsonNode node, String... fields) {
		for (String field : fields) {
			if (node.has(field)) {
				return true;
			}
		}
		return false;
	}

}
