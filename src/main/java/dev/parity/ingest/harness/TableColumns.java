package dev.parity.ingest.harness;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The column names of the published tables in an upload, offered as choices when the
 * uploader maps them, and what else the form offers from the tables: which table to read,
 * and the text under it as a caveat.
 */
public final class TableColumns {

	private TableColumns() {
	}

	/**
	 * One Markdown table of an upload, for the uploader to choose.
	 *
	 * @param number 1-based, as a mapping's {@code table} names it
	 * @param columns its header
	 * @param under the paragraph right under it (empty when none)
	 */
	public record Table(int number, List<String> columns, String under) {
	}

	/** The Markdown tables of the upload's first text that has any, in order. */
	public static List<Table> tables(List<InputFile> files) {
		for (InputFile file : files) {
			String text = new String(file.content(), StandardCharsets.UTF_8);
			if (text.indexOf('\0') >= 0) {
				continue;
			}
			List<TableText> markdown = TableText.markdown(text);
			if (!markdown.isEmpty()) {
				List<Table> tables = new ArrayList<>();
				for (int i = 0; i < markdown.size(); i++) {
					tables.add(new Table(i + 1, markdown.get(i).headers(), markdown.get(i).under()));
				}
				return tables;
			}
		}
		return List.of();
	}

	/**
	 * The text under the table a mapping reads (the only table when there is no mapping
	 * yet), offered as a caveat of the run; empty when there is none or the mapping fits
	 * no table.
	 */
	public static String offeredCaveat(List<InputFile> files, @Nullable TableMapping mapping) {
		for (InputFile file : files) {
			String text = new String(file.content(), StandardCharsets.UTF_8);
			List<TableText> markdown = text.indexOf('\0') >= 0 ? List.of() : TableText.markdown(text);
			if (markdown.isEmpty()) {
				continue;
			}
			if (mapping == null) {
				return markdown.size() == 1 ? markdown.get(0).under() : "";
			}
			try {
				return markdown.get(PublishedTable.choose(markdown, mapping, file.name())).under();
			}
			catch (ImportRejected ex) {
				return "";
			}
		}
		return "";
	}

	/**
	 * Every column name of the Markdown tables, or else of the CSV table, of each file,
	 * in order, once.
	 */
	public static List<String> of(List<InputFile> files) {
		Set<String> columns = new LinkedHashSet<>();
		for (InputFile file : files) {
			String text = new String(file.content(), StandardCharsets.UTF_8);
			if (text.indexOf('\0') >= 0) {
				continue;
			}
			List<TableText> markdown = TableText.markdown(text);
			if (!markdown.isEmpty()) {
				markdown.forEach(table -> columns.addAll(table.headers()));
				continue;
			}
			TableText csv = TableText.csv(text);
			if (csv != null) {
				columns.addAll(csv.headers());
			}
		}
		columns.removeIf(String::isBlank);
		return List.copyOf(columns);
	}

}
