package dev.parity.site;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Several contenders against one baseline, on one page: each contender's own comparison
 * with the baseline (its values, ratios, flags and greying exactly as its pairwise page
 * shows them), gathered into one table by cell and metric. Contenders are never compared
 * with each other: every ratio is contender / baseline.
 *
 * @param baseline the baseline's run (or group)
 * @param contenders each contender's comparison with the baseline, in URL order
 * @param metrics every metric any of the comparisons shows
 * @param paramNames the grid coordinates of the rows
 * @param rows every cell matched by at least one contender, in the baseline's order
 * @param provenance the provenance diff of each contender against the baseline, field by
 * field
 * @param settings the thresholds in force (the same for every contender)
 */
public record ContendersPage(ComparisonPage.RunRef baseline, List<Contender> contenders,
		List<ComparisonPage.MetricHead> metrics, List<String> paramNames, List<Row> rows,
		List<ProvenanceRow> provenance, List<ComparisonPage.Setting> settings) {

	/**
	 * One contender's comparison with the baseline.
	 *
	 * @param key the prefix of its notes' anchors on this page: {@code vs1}, {@code vs2},
	 * …
	 * @param path the contender as written in the URL
	 * @param pairPath its pairwise comparison's path, {@code baseline...contender}
	 * @param page its pairwise comparison
	 */
	public record Contender(String key, int number, String path, String pairPath, ComparisonPage page) {

		public ComparisonPage.RunRef run() {
			return page.contender();
		}
	}

	/** A cell, with each metric's baseline value and each contender's value there. */
	public record Row(String anchor, String label, List<String> paramValues, List<MetricCells> metrics) {
	}

	/**
	 * One metric of one cell.
	 *
	 * @param values per contender, in URL order: its value and ratio there, or
	 * {@code null} where it has no such cell
	 */
	public record MetricCells(String metric, String baseline, List<@Nullable ContenderValue> values) {
	}

	/**
	 * A contender's value of one cell × metric, with its ratio to the baseline, flags and
	 * greying.
	 */
	public record ContenderValue(String key, ComparisonPage.Value value) {
	}

	/**
	 * A provenance field: the baseline's value and, per contender, its value and how it
	 * compares to the baseline's.
	 */
	public record ProvenanceRow(String field, String baseline, List<ProvenanceCell> contenders) {
	}

	/**
	 * A contender's value of a provenance field; {@code status} "same" when it equals the
	 * baseline's.
	 */
	public record ProvenanceCell(String value, String status, @Nullable String rule) {
	}

	static ContendersPage of(List<Contender> contenders) {
		ComparisonPage first = contenders.get(0).page();
		Map<String, ComparisonPage.MetricHead> metrics = new LinkedHashMap<>();
		List<String> paramNames = new ArrayList<>();
		Map<String, ComparisonPage.Row> cells = new LinkedHashMap<>();
		Map<String, List<String>> cellParamNames = new LinkedHashMap<>();
		List<Map<String, ComparisonPage.Row>> rowsByContender = new ArrayList<>();
		for (Contender contender : contenders) {
			ComparisonPage page = contender.page();
			page.metrics().forEach(metric -> metrics.putIfAbsent(metric.metric(), metric));
			page.paramNames().stream().filter(name -> !paramNames.contains(name)).forEach(paramNames::add);
			Map<String, ComparisonPage.Row> rows = new LinkedHashMap<>();
			for (ComparisonPage.Row row : page.rows()) {
				rows.put(row.anchor(), row);
				if (cells.putIfAbsent(row.anchor(), row) == null) {
					cellParamNames.put(row.anchor(), page.paramNames());
				}
			}
			rowsByContender.add(rows);
		}
		ComparisonPage.sortParams(paramNames);
		List<Row> rows = new ArrayList<>();
		for (ComparisonPage.Row cell : cells.values()) {
			List<MetricCells> byMetric = new ArrayList<>();
			for (ComparisonPage.MetricHead metric : metrics.values()) {
				String baseline = "—";
				List<@Nullable ContenderValue> values = new ArrayList<>();
				for (int i = 0; i < contenders.size(); i++) {
					ComparisonPage.Row row = rowsByContender.get(i).get(cell.anchor());
					ComparisonPage.Value value = row == null ? null : value(row, metric.metric());
					if (value != null && "—".equals(baseline)) {
						baseline = value.baseline();
					}
					values.add(value == null ? null : new ContenderValue(contenders.get(i).key(), value));
				}
				byMetric.add(new MetricCells(metric.metric(), baseline, values));
			}
			rows.add(new Row(cell.anchor(), cell.label(),
					paramValues(cell, cellParamNames.get(cell.anchor()), paramNames), byMetric));
		}
		return new ContendersPage(first.baseline(), List.copyOf(contenders), List.copyOf(metrics.values()),
				List.copyOf(paramNames), rows, provenance(contenders), first.settings());
	}

	private static ComparisonPage.@Nullable Value value(ComparisonPage.Row row, String metric) {
		return row.values().stream().filter(value -> value.metric().equals(metric)).findFirst().orElse(null);
	}

	/**
	 * The row's coordinates in the order of {@code names}; "—" for one its comparison
	 * does not have.
	 */
	private static List<String> paramValues(ComparisonPage.Row row, List<String> rowNames, List<String> names) {
		Map<String, String> byName = new LinkedHashMap<>();
		for (int i = 0; i < rowNames.size() && i < row.paramValues().size(); i++) {
			byName.put(rowNames.get(i), row.paramValues().get(i));
		}
		return names.stream().map(name -> byName.getOrDefault(name, "—")).toList();
	}

	/**
	 * Every field any pairwise diff shows, the baseline's value once, each contender's
	 * beside it.
	 */
	private static List<ProvenanceRow> provenance(List<Contender> contenders) {
		Map<String, String> baseline = new LinkedHashMap<>();
		List<Map<String, ComparisonPage.ProvenanceRow>> byContender = new ArrayList<>();
		for (Contender contender : contenders) {
			Map<String, ComparisonPage.ProvenanceRow> fields = new LinkedHashMap<>();
			for (ComparisonPage.ProvenanceRow row : contender.page().provenance()) {
				fields.put(row.field(), row);
				baseline.putIfAbsent(row.field(), row.baseline());
			}
			byContender.add(fields);
		}
		List<ProvenanceRow> rows = new ArrayList<>();
		baseline.forEach((field,
				value) -> rows.add(new ProvenanceRow(field, value,
						byContender.stream()
							.map(fields -> fields.get(field))
							.map(row -> row == null ? new ProvenanceCell("", "", null)
									: new ProvenanceCell(row.contender(), row.status(), row.rule()))
							.toList())));
		return rows;
	}

}
