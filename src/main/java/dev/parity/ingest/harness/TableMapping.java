package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * How to read a published table: which column is the prompt length, which the
 * concurrency, which other columns are grid params, which columns are which metric in
 * which unit, and where the table was published.
 *
 * @param promptColumn the column holding prompt tokens (the {@code prompt_tokens} param)
 * @param concurrencyColumn the column holding concurrency, if the table has one
 * @param metrics column name to the metric it holds, in table order
 * @param sourceUrl where the table is published (the reference run's {@code source.url})
 * @param sourceRevision the revision of the published data, if known
 * @param paramColumns other param columns: column name to param name (e.g.
 * {@code "Rate" → request_rate})
 * @param table which table of a text holding several to read, 1-based; {@code null} for
 * the one whose header has every mapped column
 */
public record TableMapping(String promptColumn, @Nullable String concurrencyColumn, Map<String, MetricColumn> metrics,
		String sourceUrl, @Nullable String sourceRevision, Map<String, String> paramColumns, @Nullable Integer table) {

	public TableMapping {
		Objects.requireNonNull(promptColumn, "promptColumn must not be null");
		Objects.requireNonNull(sourceUrl, "sourceUrl must not be null");
		metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
		paramColumns = Collections.unmodifiableMap(new LinkedHashMap<>(paramColumns));
	}

	public TableMapping(String promptColumn, @Nullable String concurrencyColumn, Map<String, MetricColumn> metrics,
			String sourceUrl) {
		this(promptColumn, concurrencyColumn, metrics, sourceUrl, null, Map.of());
	}

	public TableMapping(String promptColumn, @Nullable String concurrencyColumn, Map<String, MetricColumn> metrics,
			String sourceUrl, @Nullable String sourceRevision, Map<String, String> paramColumns) {
		this(promptColumn, concurrencyColumn, metrics, sourceUrl, sourceRevision, paramColumns, null);
	}

	/** Every column the mapping names: prompt, concurrency, params and metrics. */
	public List<String> columns() {
		List<String> columns = new ArrayList<>();
		columns.add(promptColumn);
		if (concurrencyColumn != null) {
			columns.add(concurrencyColumn);
		}
		columns.addAll(paramColumns.keySet());
		columns.addAll(metrics.keySet());
		return columns;
	}

}
