package dev.parity.ingest.harness;

import java.util.List;
import java.util.function.DoubleUnaryOperator;

import dev.parity.run.TokenStats;
import org.jspecify.annotations.Nullable;

/**
 * What AIPerf's {@code profile_export_aiperf.csv} and GenAI-Perf's
 * {@code profile_export_genai_perf.csv} share: a statistics table
 * ({@code Metric,avg,min,max,…}, one row per metric, the unit in brackets after its
 * name), then a table of single values ({@code Metric,Value}: request count, throughputs,
 * duration), then perhaps GPU telemetry. Metric names are AIPerf's (GenAI-Perf's are the
 * same words), read into catalogue metrics and units.
 */
final class ProfileCsv {

	private ProfileCsv() {
	}

	/**
	 * Whether the section is a statistics table: {@code Metric} first, then {@code avg}
	 * among the columns.
	 */
	static boolean isStatistics(CsvSection section) {
		return !section.header().isEmpty() && section.header().get(0).equalsIgnoreCase("Metric")
				&& section.column("avg") > 0;
	}

	/** Whether the section is the table of single values: {@code Metric,Value}. */
	static boolean isValues(CsvSection section) {
		return section.header().size() == 2 && section.header().get(0).equalsIgnoreCase("Metric")
				&& section.header().get(1).equalsIgnoreCase("Value");
	}

	/**
	 * The catalogue metric of a tag, with the conversion of its unit; {@code null}
	 * (noted) when the unit cannot be converted. {@code per sec} (GenAI-Perf) is per
	 * second of whatever the metric counts.
	 */
	static @Nullable DoubleUnaryOperator conversion(String metric, @Nullable String unit, String label, String source,
			RunDraft run) {
		if (unit == null || unit.equalsIgnoreCase("per sec")) {
			if (metric.equals("throughput_tps") || metric.equals("request_throughput")) {
				return value -> value;
			}
		}
		DoubleUnaryOperator conversion = AiperfMetrics.conversion(metric, unit);
		if (conversion == null) {
			run.note(source + ": '" + label + "' is in a unit not convertible to " + metric + ": left out");
		}
		return conversion;
	}

	/**
	 * The row's statistics under their document names ({@code avg} is the mean,
	 * {@code p50} the median), converted.
	 */
	static Statistics statistics(CsvSection table, List<String> row, DoubleUnaryOperator conversion) {
		Statistics.Builder statistics = Statistics.builder();
		for (int i = 1; i < table.header().size(); i++) {
			String statistic = table.header().get(i);
			Double value = CsvSection.number(CsvSection.cell(row, i));
			if (Statistics.Builder.name(statistic) != null && value != null) {
				statistics.put(statistic, conversion.applyAsDouble(value));
			}
		}
		return statistics.build().inDocumentOrder();
	}

	/** A token-count row as token statistics (median, min, max, mean). */
	static @Nullable TokenStats tokens(CsvSection table, List<String> row) {
		TokenStats stats = new TokenStats(value(table, row, "p50"), value(table, row, "min"), value(table, row, "max"),
				value(table, row, "avg"));
		return stats.isEmpty() ? null : stats;
	}

	static @Nullable Double value(CsvSection table, List<String> row, String column) {
		return CsvSection.number(CsvSection.cell(row, table.column(column)));
	}

	/**
	 * A count written as a number ({@code 89.00}), or {@code null} when it is not a whole
	 * number.
	 */
	static @Nullable Integer count(@Nullable Double value) {
		if (value == null || value != Math.rint(value) || value < 0 || value > Integer.MAX_VALUE) {
			return null;
		}
		return value.intValue();
	}

}
