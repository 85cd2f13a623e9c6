package dev.parity.site;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Lines that say the same thing with other numbers, said once: "512 vs 2,437
 * tokens/request" and "512 vs 5,680 tokens/request" become "512 vs 2,437–5,680
 * tokens/request" (each number that differs as the range it takes, in the lines' own
 * writing).
 */
final class NumberRanges {

	/**
	 * A number as the pages write it: an optional sign, digits with thousands commas, an
	 * optional fraction.
	 */
	private static final Pattern NUMBER = Pattern.compile("[+\u2212-]?\\d[\\d,]*(?:\\.\\d+)?");

	private NumberRanges() {
	}

	/**
	 * The lines as one, or {@code null} when they differ in more than their numbers (or
	 * there are none).
	 */
	static @Nullable String merge(List<String> lines) {
		if (lines.isEmpty()) {
			return null;
		}
		String words = NUMBER.matcher(lines.get(0)).replaceAll("#");
		List<List<String>> numbers = new ArrayList<>();
		for (String line : lines) {
			if (!NUMBER.matcher(line).replaceAll("#").equals(words)) {
				return null;
			}
			List<String> found = new ArrayList<>();
			Matcher m = NUMBER.matcher(line);
			while (m.find()) {
				found.add(m.group());
			}
			numbers.add(found);
		}
		StringBuilder merged = new StringBuilder();
		Matcher m = NUMBER.matcher(lines.get(0));
		int at = 0;
		int index = 0;
		while (m.find()) {
			merged.append(lines.get(0), at, m.start());
			String lowest = null;
			String highest = null;
			for (List<String> found : numbers) {
				String number = found.get(index);
				if (lowest == null || value(number) < value(lowest)) {
					lowest = number;
				}
				if (highest == null || value(number) > value(highest)) {
					highest = number;
				}
			}
			merged.append(value(lowest) == value(highest) ? lowest : lowest + "–" + highest);
			at = m.end();
			index++;
		}
		merged.append(lines.get(0).substring(at));
		return merged.toString();
	}

	private static double value(String number) {
		return Double.parseDouble(number.replace(",", "").replace('\u2212', '-').toLowerCase(Locale.ROOT));
	}

}
