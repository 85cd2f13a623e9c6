package dev.parity.ingest.harness;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What one column of a published table holds: a catalogue metric, the unit the table
 * writes it in, and which statistic it is ({@code null} for the median, or the one
 * aggregate value of a throughput).
 *
 * @param metric a catalogue metric, e.g. {@code ttft_s}
 * @param unit the table's unit, e.g. {@code ms} (converted to the catalogue's);
 * {@code null} for the unit the column's header states ({@code TTFT (ms)}), else the
 * catalogue's
 * @param statistic e.g. {@code mean} or {@code p99}; {@code null} for the median or
 * single value
 */
public record MetricColumn(String metric, @Nullable String unit, @Nullable String statistic) {

	public MetricColumn {
		Objects.requireNonNull(metric, "metric must not be null");
	}

	public MetricColumn(String metric, @Nullable String unit) {
		this(metric, unit, null);
	}

}
