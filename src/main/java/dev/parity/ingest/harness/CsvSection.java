package dev.parity.ingest.harness;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.jspecify.annotations.Nullable;

/**
 * One table of a CSV export that writes several one after another, separated by blank
 * lines (AIPerf's and GenAI-Perf's statistics table, then a table of single values, then
 * GPU telemetry).
 *
 * @param header the first row, trimmed
 * @param rows the rows after it, trimmed
 * @param line the line the header is on, for messages
 */
record CsvSection(List<String> header, List<List<String>> rows, int line) {

	/** The file's sections, read once; {@code null} when it is JSON or not CSV. */
	static @Nullable List<CsvSection> of(ParsedFile file) {
		return file.looksLikeJson() ? null : file.reading("csv-sections", parsed -> of(parsed.text()));
	}

	/**
	 * Whether the file's first line starts with one of the given column names and a
	 * comma: a look at a few bytes that spares parsing a large file that cannot be the
	 * export.
	 */
	static boolean startsWith(ParsedFile file, String... columns) {
		String text = file.text();
		int start = 0;
		while (start < text.length() && Character.isWhitespace(text.charAt(start))) {
			start++;
		}
		for (String column : columns) {
			if (text.regionMatches(true, start, column + ",", 0, column.length() + 1)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The sections of the text; {@code null} when it is not CSV (a NUL, an unclosed
	 * quote).
	 */
	static @Nullable List<CsvSection> of(String text) {
		if (text.indexOf('\0') >= 0) {
			return null;
		}
		CSVFormat format = CSVFormat.DEFAULT.builder().setIgnoreEmptyLines(false).setTrim(true).get();
		List<CsvSection> sections = new ArrayList<>();
		List<String> header = null;
		List<List<String>> rows = new ArrayList<>();
		int headerLine = 0;
		try (CSVParser parser = CSVParser.parse(new StringReader(text), format)) {
			long line = 1;
			for (CSVRecord record : parser) {
				List<String> cells = record.toList().stream().map(String::trim).toList();
				if (cells.stream().allMatch(String::isEmpty)) {
					if (header != null) {
						sections.add(new CsvSection(header, rows, headerLine));
					}
					header = null;
					rows = new ArrayList<>();
				}
				else if (header == null) {
					header = cells;
					headerLine = (int) line;
				}
				else {
					rows.add(cells);
				}
				line = parser.getCurrentLineNumber() + 1;
			}
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
		if (header != null) {
			sections.add(new CsvSection(header, rows, headerLine));
		}
		return sections;
	}

	/** The column's index, ignoring case; -1 when absent. */
	int column(String name) {
		for (int i = 0; i < header.size(); i++) {
			if (header.get(i).equalsIgnoreCase(name)) {
				return i;
			}
		}
		return -1;
	}

	static String cell(List<String> row, int column) {
		return column >= 0 && column < row.size() ? row.get(column) : "";
	}

	/**
	 * A cell as a number: {@code 9611.46}, {@code "9,611.46"} (GenAI-Perf's thousands
	 * separators), {@code 26.00}; {@code null} for an empty cell, {@code N/A} or anything
	 * else that is not a finite number.
	 */
	static @Nullable Double number(String text) {
		String trimmed = text.trim();
		if (PublishedTable.isThousands(trimmed)) {
			trimmed = trimmed.replace(",", "");
		}
		if (trimmed.isEmpty() || !trimmed.matches("[-+]?+[0-9.]++(?:[eE][-+]?+[0-9]++)?+")) {
			return null;
		}
		try {
			double value = Double.parseDouble(trimmed);
			return Double.isFinite(value) ? value : null;
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	/**
	 * A metric label's name and unit: {@code Time to First Token (ms)} →
	 * {@code time_to_first_token}, {@code ms}.
	 */
	static Label label(String text) {
		// Scanned, not matched with a regular expression: a lazy name before a bracket
		// takes quadratic time on a
		// long cell of spaces.
		String trimmed = text.trim();
		int open = trimmed.lastIndexOf('(');
		boolean bracketed = trimmed.endsWith(")") && open >= 0 && trimmed.indexOf(')', open) == trimmed.length() - 1;
		String name = bracketed ? trimmed.substring(0, open).trim() : trimmed;
		String unit = bracketed ? trimmed.substring(open + 1, trimmed.length() - 1).trim() : null;
		StringBuilder tag = new StringBuilder(name.length());
		for (char c : name.toLowerCase(Locale.ROOT).toCharArray()) {
			boolean word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
			if (word) {
				tag.append(c);
			}
			else if (!tag.isEmpty() && tag.charAt(tag.length() - 1) != '_') {
				tag.append('_');
			}
		}
		if (!tag.isEmpty() && tag.charAt(tag.length() - 1) == '_') {
			tag.setLength(tag.length() - 1);
		}
		return new Label(tag.toString(), unit);
	}

	/**
	 * A metric label read.
	 *
	 * @param tag the name in snake case, e.g. {@code time_to_first_token}
	 * @param unit the unit in brackets, e.g. {@code ms}; {@code null} when none
	 */
	record Label(String tag, @Nullable String unit) {
	}

}
