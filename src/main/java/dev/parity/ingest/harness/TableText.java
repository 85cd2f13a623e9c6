package dev.parity.ingest.harness;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.jspecify.annotations.Nullable;

/**
 * A table read from text: a header and rows of cells, each row with the line it came
 * from. Reads CSV (comma, semicolon or tab separated, as the first line suggests) and
 * Markdown pipe tables.
 *
 * @param headers the column names, trimmed
 * @param rows the data rows, cells trimmed
 * @param lines the line each row starts on, for messages
 * @param under the paragraph right under a Markdown table (its notes: "128K × c=4 did not
 * finish …"), lines joined with a space; empty when there is none or for CSV
 */
record TableText(List<String> headers, List<List<String>> rows, List<Integer> lines, String under) {

	TableText(List<String> headers, List<List<String>> rows, List<Integer> lines) {
		this(headers, rows, lines, "");
	}

	/**
	 * Whether the header has every one of the columns (matched as {@link #column(String)}
	 * does).
	 */
	boolean hasColumns(Collection<String> names) {
		return names.stream().allMatch(name -> column(name) >= 0);
	}

	/**
	 * The column's index, matching names without regard to case or surrounding space; -1
	 * when absent.
	 */
	int column(String name) {
		for (int i = 0; i < headers.size(); i++) {
			if (headers.get(i).equalsIgnoreCase(name.trim())) {
				return i;
			}
		}
		return -1;
	}

	String cell(int row, int column) {
		List<String> cells = rows.get(row);
		return column < cells.size() ? cells.get(column) : "";
	}

	/**
	 * The CSV table in the text, or {@code null} when it is not a consistent table of two
	 * or more columns.
	 */
	static @Nullable TableText csv(String text) {
		char delimiter = delimiter(text);
		CSVFormat format = CSVFormat.DEFAULT.builder()
			.setDelimiter(delimiter)
			.setIgnoreEmptyLines(true)
			.setTrim(true)
			.get();
		List<String> headers = null;
		List<List<String>> rows = new ArrayList<>();
		List<Integer> lines = new ArrayList<>();
		try (CSVParser parser = CSVParser.parse(new StringReader(text), format)) {
			long line = 1;
			for (CSVRecord record : parser) {
				List<String> cells = record.toList().stream().map(String::trim).toList();
				if (headers == null) {
					headers = cells;
				}
				else if (!cells.stream().allMatch(String::isEmpty)) {
					if (cells.size() != headers.size()) {
						return null;
					}
					rows.add(cells);
					lines.add((int) line);
				}
				line = parser.getCurrentLineNumber() + 1;
			}
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
		if (headers == null || headers.size() < 2 || rows.isEmpty()) {
			return null;
		}
		return new TableText(headers, rows, lines);
	}

	private static char delimiter(String text) {
		String first = text.lines().filter(line -> !line.isBlank()).findFirst().orElse("");
		char best = ',';
		long most = first.chars().filter(c -> c == ',').count();
		for (char candidate : new char[] { ';', '\t' }) {
			long count = first.chars().filter(c -> c == candidate).count();
			if (count > most) {
				most = count;
				best = candidate;
			}
		}
		return best;
	}

	/** Every Markdown pipe table in the text, in order. */
	static List<TableText> markdown(String text) {
		List<String> all = text.lines().toList();
		List<TableText> tables = new ArrayList<>();
		for (int i = 0; i + 1 < all.size(); i++) {
			String header = all.get(i).trim();
			String separator = all.get(i + 1).trim();
			if (!header.contains("|") || !separator.contains("-") || !isSeparator(separator)) {
				continue;
			}
			List<String> headers = cells(header);
			List<List<String>> rows = new ArrayList<>();
			List<Integer> lines = new ArrayList<>();
			int j = i + 2;
			while (j < all.size() && all.get(j).trim().contains("|")) {
				rows.add(cells(all.get(j).trim()));
				lines.add(j + 1);
				j++;
			}
			if (headers.size() >= 2 && !rows.isEmpty()) {
				tables.add(new TableText(headers, rows, lines, paragraphUnder(all, j)));
			}
			i = j - 1;
		}
		return tables;
	}

	/**
	 * The paragraph that starts within two lines under a table (a blank line may come
	 * between): its lines up to the next blank line, heading, table or list of code,
	 * joined with a space; at most 2,000 characters.
	 */
	private static String paragraphUnder(List<String> lines, int from) {
		int start = from;
		if (start < lines.size() && lines.get(start).isBlank()) {
			start++;
		}
		StringBuilder text = new StringBuilder();
		for (int i = start; i < lines.size(); i++) {
			String line = lines.get(i).strip();
			if (line.isEmpty() || line.startsWith("#") || line.startsWith("|") || line.startsWith("```")
					|| line.startsWith("<")) {
				break;
			}
			text.append(text.isEmpty() ? "" : " ").append(line);
			if (text.length() > 2_000) {
				return text.substring(0, 2_000).strip() + " …";
			}
		}
		return text.toString();
	}

	/**
	 * Whether the (trimmed) line separates a Markdown table's header from its rows: cells
	 * of at least three dashes, each perhaps with a colon at either end
	 * ({@code |:---|---:|}). Scanned, as a regular expression's repeated group overflows
	 * the stack on a long enough line.
	 */
	static boolean isSeparator(String line) {
		String body = line.startsWith("|") ? line.substring(1) : line;
		body = body.endsWith("|") ? body.substring(0, body.length() - 1) : body;
		for (String cell : body.split("\\|", -1)) {
			String dashes = cell.trim();
			dashes = dashes.startsWith(":") ? dashes.substring(1) : dashes;
			dashes = dashes.endsWith(":") ? dashes.substring(0, dashes.length() - 1) : dashes;
			if (dashes.length() < 3 || dashes.chars().anyMatch(c -> c != '-')) {
				return false;
			}
		}
		return true;
	}

	private static List<String> cells(String line) {
		String body = line;
		if (body.startsWith("|")) {
			body = body.substring(1);
		}
		if (body.endsWith("|") && !body.endsWith("\\|")) {
			body = body.substring(0, body.length() - 1);
		}
		List<String> cells = new ArrayList<>();
		StringBuilder current = new StringBuilder();
		for (int i = 0; i < body.length(); i++) {
			char c = body.charAt(i);
			if (c == '\\' && i + 1 < body.length() && body.charAt(i + 1) == '|') {
				current.append('|');
				i++;
			}
			else if (c == '|') {
				cells.add(clean(current.toString()));
				current.setLength(0);
			}
			else {
				current.append(c);
			}
		}
		cells.add(clean(current.toString()));
		return cells;
	}

	/** A Markdown cell without emphasis or code marks: {@code **1.2**} is {@code 1.2}. */
	private static String clean(String cell) {
		return cell.replace("**", "").replace("__", "").replace("`", "").trim();
	}

}
