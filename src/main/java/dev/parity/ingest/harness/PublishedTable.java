package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * A published table (CSV, or a pasted Markdown table) read with a {@link TableMapping}:
 * one cell per row, params from the mapped columns, metrics converted from the table's
 * units to the catalogue's. The run is a {@code reference} with the table's source URL. A
 * table states no request counts, no harness and no engine: those stay unknown.
 */
final class PublishedTable implements HarnessImporter {

	private static final Pattern NUMBER = Pattern
		.compile("[-+]?+(?:\\d++(?:\\.\\d*+)?+|\\.\\d++)(?:[eE][-+]?+\\d++)?+");

	private static final List<String> ABSENT = List.of("", "-", "—", "–", "n/a", "na", "none", "null", "?");

	private final HarnessFormat format;

	private PublishedTable(HarnessFormat format) {
		this.format = format;
	}

	static PublishedTable csv() {
		return new PublishedTable(HarnessFormat.TABLE_CSV);
	}

	static PublishedTable markdown() {
		return new PublishedTable(HarnessFormat.TABLE_MARKDOWN);
	}

	@Override
	public HarnessFormat format() {
		return format;
	}

	@Override
	public FileRole role(ParsedFile file) {
		if (file.looksLikeJson() || !isText(file)) {
			return FileRole.FOREIGN;
		}
		boolean markdownTable = !TableText.markdown(file.text()).isEmpty();
		if (format == HarnessFormat.TABLE_MARKDOWN) {
			return markdownTable ? FileRole.OWN : FileRole.FOREIGN;
		}
		return !markdownTable && TableText.csv(file.text()) != null ? FileRole.OWN : FileRole.FOREIGN;
	}

	private static boolean isText(ParsedFile file) {
		for (byte b : file.bytes()) {
			if (b == 0) {
				return false;
			}
		}
		return true;
	}

	@Override
	public HarnessImport read(List<ParsedFile> files, @Nullable TableMapping mapping) {
		if (mapping == null) {
			throw new ImportRejected("a published table needs a column mapping");
		}
		if (files.size() != 1) {
			throw new ImportRejected("a published table is one file; " + files.size() + " were uploaded");
		}
		ParsedFile file = files.get(0);
		RunDraft run = new RunDraft();
		TableText table = table(file, mapping, run);
		Columns columns = columns(table, mapping, file.name(), run);
		if (!table.under().isEmpty()) {
			run.note("text under the table, offered as a caveat of the run: \u201c" + table.under() + "\u201d");
		}
		for (int row = 0; row < table.rows().size(); row++) {
			run.cell(cell(table, row, columns, mapping, file.name()));
		}
		List<String> unmapped = new ArrayList<>(table.headers());
		unmapped.removeIf(header -> columns.mapped().contains(header));
		if (!unmapped.isEmpty()) {
			run.note("columns not mapped, left out: " + String.join(", ", unmapped));
		}
		run.state("role", "reference", file.name());
		run.state("source.url", mapping.sourceUrl(), file.name());
		run.state("source.revision", mapping.sourceRevision(), file.name());
		run.note("a published table states no request counts: completed, failed and cancelled are unknown");
		run.note("a published table states no execution order: cells are unordered");
		return run.toImport();
	}

	private TableText table(ParsedFile file, TableMapping mapping, RunDraft run) {
		if (file.looksLikeJson()) {
			throw new ImportRejected(file.name() + ": JSON, not a table");
		}
		if (format == HarnessFormat.TABLE_CSV) {
			TableText table = TableText.csv(file.text());
			if (table == null) {
				throw new ImportRejected(file.name() + ": not a CSV table (a header and rows with the same number of"
						+ " columns, at least two)");
			}
			return table;
		}
		List<TableText> tables = TableText.markdown(file.text());
		if (tables.isEmpty()) {
			throw new ImportRejected(file.name() + ": no Markdown table (a header row, a |---| row, then rows)");
		}
		int chosen = choose(tables, mapping, file.name());
		if (tables.size() > 1) {
			run.note(file.name() + ": " + tables.size() + " tables in the text; read table " + (chosen + 1) + " ("
					+ String.join(", ", tables.get(chosen).headers()) + ")");
		}
		return tables.get(chosen);
	}

	/**
	 * Which of the tables a mapping reads (0-based): the one it names, else the one whose
	 * header has every mapped column (the first, when several have).
	 * @throws ImportRejected when the named one does not exist, or no table has every
	 * mapped column, listing the tables to choose from
	 */
	static int choose(List<TableText> tables, TableMapping mapping, String name) {
		if (mapping.table() != null) {
			if (mapping.table() < 1 || mapping.table() > tables.size()) {
				throw new ImportRejected(name + ": no table " + mapping.table() + "; the text has " + describe(tables));
			}
			return mapping.table() - 1;
		}
		if (tables.size() == 1) {
			return 0;
		}
		for (int i = 0; i < tables.size(); i++) {
			if (tables.get(i).hasColumns(mapping.columns())) {
				return i;
			}
		}
		throw new ImportRejected(name + ": no table has every mapped column (" + String.join(", ", mapping.columns())
				+ "); the text has " + describe(tables) + ": choose one");
	}

	private static String describe(List<TableText> tables) {
		List<String> described = new ArrayList<>();
		for (int i = 0; i < tables.size(); i++) {
			described.add("table " + (i + 1) + " (" + String.join(", ", tables.get(i).headers()) + ")");
		}
		return tables.size() + (tables.size() == 1 ? " table: " : " tables: ") + String.join("; ", described);
	}

	/**
	 * The unit a header states: the last parenthesised or bracketed part
	 * ({@code TTFT (ms)}, {@code Rate [req/s]}), else the last word
	 * ({@code Decode tok/s}), when it is a unit Parity knows.
	 */
	static Optional<MetricUnit> headerUnit(String header) {
		String text = header.strip();
		int open = Math.max(text.lastIndexOf('('), text.lastIndexOf('['));
		if (open >= 0 && (text.endsWith(")") || text.endsWith("]")) && open < text.length() - 1) {
			Optional<MetricUnit> unit = MetricUnit.parse(text.substring(open + 1, text.length() - 1));
			if (unit.isPresent()) {
				return unit;
			}
		}
		int space = text.lastIndexOf(' ');
		return space < 0 ? Optional.empty() : MetricUnit.parse(text.substring(space + 1));
	}

	private static Columns columns(TableText table, TableMapping mapping, String name, RunDraft run) {
		List<String> mapped = new ArrayList<>();
		int prompt = required(table, mapping.promptColumn(), name, mapped);
		int concurrency = mapping.concurrencyColumn() == null ? -1
				: required(table, mapping.concurrencyColumn(), name, mapped);
		Map<Integer, String> params = new LinkedHashMap<>();
		mapping.paramColumns().forEach((column, param) -> {
			if (param.equals("prompt_tokens") || param.equals("concurrency")) {
				throw new ImportRejected(name + ": column '" + column + "' is mapped to " + param
						+ ", which has its own column in the mapping");
			}
			params.put(required(table, column, name, mapped), param);
		});
		Map<Integer, MetricReading> metrics = new LinkedHashMap<>();
		mapping.metrics().forEach((column, metric) -> {
			MetricUnit target = MetricUnit.ofCatalogueMetric(metric.metric())
				.orElseThrow(() -> new ImportRejected(name + ": column '" + column + "' is mapped to '"
						+ metric.metric()
						+ "', which is not a catalogue metric (ttft_s, prefill_tps, decode_tps, throughput_tps, tpot_ms,"
						+ " itl_ms, e2e_latency_s, request_throughput)"));
			String header = table.column(column) >= 0 ? table.headers().get(table.column(column)) : column;
			MetricUnit unit;
			if (metric.unit() == null || metric.unit().isBlank()) {
				Optional<MetricUnit> stated = headerUnit(header);
				unit = stated.orElse(target);
				run.note("column '" + header + "': in " + unit.symbol() + (stated.isPresent() ? ", as its header says"
						: ", " + metric.metric() + "'s unit (no unit given, none in the header)"));
			}
			else {
				unit = MetricUnit.parse(metric.unit())
					.orElseThrow(() -> new ImportRejected(name + ": column '" + column + "': unknown unit '"
							+ metric.unit() + "' (e.g. s, ms, tokens/s, requests/s)"));
			}
			String written = metric.unit() == null || metric.unit().isBlank() ? unit.symbol() : metric.unit();
			if (!unit.convertibleTo(target)) {
				throw new ImportRejected(name + ": column '" + column + "': " + metric.metric() + " is in "
						+ target.symbol() + ", which '" + written + "'"
						+ (metric.unit() == null || metric.unit().isBlank() ? " (the header's unit)" : "")
						+ " cannot be converted to");
			}
			String statistic = metric.statistic() == null ? null : Statistics.Builder.name(metric.statistic());
			if (metric.statistic() != null && statistic == null) {
				throw new ImportRejected(name + ": column '" + column + "': unknown statistic '" + metric.statistic()
						+ "' (median, mean, std, min, max or p1 … p99)");
			}
			metrics.put(required(table, column, name, mapped),
					new MetricReading(column, metric.metric(), unit, target, statistic));
		});
		if (metrics.isEmpty()) {
			throw new ImportRejected(name + ": the mapping names no metric column");
		}
		return new Columns(prompt, concurrency, params, metrics, mapped);
	}

	private static int required(TableText table, String column, String name, List<String> mapped) {
		int index = table.column(column);
		if (index < 0) {
			throw new ImportRejected(
					name + ": no column '" + column + "' (the table has: " + String.join(", ", table.headers()) + ")");
		}
		mapped.add(table.headers().get(index));
		return index;
	}

	private static CellDraft cell(TableText table, int row, Columns columns, TableMapping mapping, String name) {
		String source = name + " row " + (row + 1) + " (line " + table.lines().get(row) + ")";
		CellDraft cell = new CellDraft(source).requests(null, null, null);
		cell.param("prompt_tokens", number(table, row, columns.prompt(), source, true));
		if (columns.concurrency() >= 0) {
			cell.param("concurrency", number(table, row, columns.concurrency(), source, true));
		}
		columns.params().forEach((column, param) -> {
			String text = table.cell(row, column);
			Double value = parse(text);
			if (param.equals("request_rate") && (text.equalsIgnoreCase("inf") || text.equals("∞"))) {
				cell.param(param, "inf");
			}
			else if (!isAbsent(text)) {
				cell.param(param, value != null ? (Object) value : text);
			}
		});
		Map<String, Statistics.Builder> statistics = new LinkedHashMap<>();
		Map<String, Integer> columnsPerMetric = new LinkedHashMap<>();
		columns.metrics().values().forEach(reading -> columnsPerMetric.merge(reading.metric(), 1, Integer::sum));
		columns.metrics().forEach((column, reading) -> {
			Double value = number(table, row, column, source, false);
			if (value == null) {
				return;
			}
			double converted = reading.unit().convert(value, reading.target());
			if (reading.statistic() == null && columnsPerMetric.get(reading.metric()) == 1) {
				cell.metric(reading.metric(), converted);
			}
			else {
				statistics.computeIfAbsent(reading.metric(), key -> Statistics.builder())
					.put(reading.statistic() == null ? "median" : reading.statistic(), converted);
			}
		});
		statistics.forEach((metric, builder) -> cell.metric(metric, builder.build().inDocumentOrder()));
		return cell;
	}

	private static @Nullable Double number(TableText table, int row, int column, String source, boolean required) {
		String text = table.cell(row, column);
		if (isAbsent(text)) {
			if (required) {
				throw new ImportRejected(source + ", column '" + table.headers().get(column) + "': empty, but it is a"
						+ " grid coordinate");
			}
			return null;
		}
		Double value = parse(text);
		if (value == null) {
			throw new ImportRejected(source + ", column '" + table.headers().get(column) + "': '" + text
					+ "' is not a number" + (text.matches("(?i)\\d++(?:\\.\\d++)?+\\s*+k")
							? " (write 8192 or 8000, not 8k:" + " which one is meant cannot be guessed)" : ""));
		}
		return value;
	}

	private static boolean isAbsent(String text) {
		return ABSENT.contains(text.trim().toLowerCase(Locale.ROOT));
	}

	private static @Nullable Double parse(String text) {
		String trimmed = text.trim();
		if (isThousands(trimmed)) {
			trimmed = trimmed.replace(",", "");
		}
		if (!NUMBER.matcher(trimmed).matches()) {
			return null;
		}
		double value = Double.parseDouble(trimmed);
		return Double.isFinite(value) ? value : null;
	}

	/**
	 * Whether the text is a number with thousands separators ({@code 12,345.6},
	 * {@code -1,000}): what {@code [-+]?\\d{1,3}(,\\d{3})+(\\.\\d+)?} says, scanned, as a
	 * regular expression's repeated group overflows the stack on a long enough cell.
	 */
	static boolean isThousands(String text) {
		int n = text.length();
		int i = n > 0 && (text.charAt(0) == '-' || text.charAt(0) == '+') ? 1 : 0;
		int start = i;
		while (i < n && digit(text.charAt(i))) {
			i++;
		}
		if (i - start < 1 || i - start > 3) {
			return false;
		}
		int groups = 0;
		while (i < n && text.charAt(i) == ',') {
			if (i + 3 >= n || !digit(text.charAt(i + 1)) || !digit(text.charAt(i + 2)) || !digit(text.charAt(i + 3))) {
				return false;
			}
			i += 4;
			groups++;
		}
		if (groups == 0) {
			return false;
		}
		if (i < n && text.charAt(i) == '.') {
			int fraction = ++i;
			while (i < n && digit(text.charAt(i))) {
				i++;
			}
			return i > fraction && i == n;
		}
		return i == n;
	}

	private static boolean digit(char c) {
		return c >= '0' && c <= '9';
	}

	private record Columns(int prompt, int concurrency, Map<Integer, String> params,
			Map<Integer, MetricReading> metrics, List<String> mapped) {
	}

	private record MetricReading(String column, String metric, MetricUnit unit, MetricUnit target,
			@Nullable String statistic) {
	}

}
