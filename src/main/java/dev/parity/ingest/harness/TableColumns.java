package dev.parity.ingest.harness;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The column names of the published tables in an upload, offered as choices when the uploader maps them.
 */
public final class TableColumns {

	private TableColumns() {
	}

	/** Every column name of the Markdown tables, or else of the CSV table, of each file, in order, once. */
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
