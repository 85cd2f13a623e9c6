package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.DoubleUnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * NVIDIA GenAI-Perf's CSV exports. {@code profile_export_genai_perf.csv} (or
 * {@code <name>_genai_perf.csv}) is one cell: a statistics table without a {@code std}
 * column, then {@code Metric,Value} with the throughputs and, from mid-2024, the request
 * count. Until June 2024 times were in nanoseconds ({@code Time To First Token (ns)}),
 * token counts were {@code Num Output Token}, and "inter token latency" was the gaps
 * between responses (the catalogue's ITL); since then times are in ms and it is (latency
 * − TTFT) / (tokens − 1), the catalogue's TPOT. The {@code analyze} export
 * ({@code analyze_export_genai_perf.csv}) is one cell per configuration row: the columns
 * without a unit ({@code Concurrency}, {@code ISL}, {@code Num Prompts}) are its params,
 * the others ({@code p99 Time To First Token (ms)}) its metrics. GenAI-Perf's CSVs record
 * no failed or cancelled count.
 */
final class GenaiPerfCsv implements HarnessImporter {

	private static final Set<String> KNOWN = Set.of("time_to_first_token", "request_latency", "inter_token_latency",
			"output_sequence_length", "num_output_token", "input_sequence_length", "num_input_token");

	/**
	 * {@code p99 Time To First Token}, {@code Avg. Output Token Throughput}: a statistic,
	 * then the metric.
	 */
	private static final Pattern STATISTIC = Pattern.compile("(p\\d{1,2}(?:\\.\\d+)?+|avg|min|max|std)_(.+)");

	/** The analyze export's configuration columns, under the names run documents use. */
	private static final Map<String, String> PARAMS = Map.of("concurrency", "concurrency", "isl", "prompt_tokens",
			"osl", "output_tokens", "request_rate", "request_rate", "num_prompts", "num_prompts", "batch_size",
			"batch_size");

	@Override
	public HarnessFormat format() {
		return HarnessFormat.GENAI_PERF_CSV;
	}

	static boolean isExport(ParsedFile file) {
		if (file.looksLikeJson() || !CsvSection.startsWith(file, "Metric", "Config Name")) {
			return false;
		}
		List<CsvSection> sections = CsvSection.of(file);
		return sections != null && !sections.isEmpty() && (isProfile(sections.get(0)) || isAnalyze(sections.get(0)));
	}

	private static boolean isProfile(CsvSection table) {
		return ProfileCsv.isStatistics(table) && table.column("std") < 0
				&& table.rows()
					.stream()
					.anyMatch(row -> KNOWN.contains(CsvSection.label(CsvSection.cell(row, 0)).tag()));
	}

	private static boolean isAnalyze(CsvSection table) {
		return !table.header().isEmpty() && table.header().get(0).equalsIgnoreCase("Config Name")
				&& table.header()
					.stream()
					.anyMatch(column -> column.contains("Latency") || column.contains("Throughput"));
	}

	@Override
	public FileRole role(ParsedFile file) {
		if (file.looksLikeJson()) {
			return HarnessImporter.otherFile(file);
		}
		if (isExport(file)) {
			return FileRole.OWN;
		}
		return AiperfCsv.isExport(file) ? FileRole.FOREIGN : FileRole.IGNORABLE;
	}

	@Override
	public HarnessImport read(List<ParsedFile> files, @Nullable TableMapping mapping) {
		RunDraft run = new RunDraft();
		for (ParsedFile file : ownFiles(files, run)) {
			List<CsvSection> sections = CsvSection.of(file);
			if (sections == null || sections.isEmpty()) {
				throw new ImportRejected(file.name() + ": not a GenAI-Perf CSV export");
			}
			run.state("harness.name", "genai-perf", file.name());
			if (isAnalyze(sections.get(0))) {
				analyze(sections, file.name(), run);
			}
			else {
				run.cell(profile(sections, file.name(), run));
			}
		}
		return run.toImport();
	}

	private static CellDraft profile(List<CsvSection> sections, String source, RunDraft run) {
		CellDraft cell = new CellDraft(source);
		CsvSection table = sections.get(0);
		for (List<String> row : table.rows()) {
			String label = CsvSection.cell(row, 0);
			CsvSection.Label read = CsvSection.label(label);
			if (read.tag().equals("output_sequence_length") || read.tag().equals("num_output_token")) {
				cell.outputTokens(ProfileCsv.tokens(table, row));
				continue;
			}
			metric(read, source, run).ifPresent(metric -> {
				DoubleUnaryOperator conversion = ProfileCsv.conversion(metric, read.unit(), label, source, run);
				if (conversion != null && !cell.metrics().containsKey(metric)) {
					cell.metric(metric, ProfileCsv.statistics(table, row, conversion));
				}
			});
		}
		Integer completed = null;
		for (CsvSection section : sections.subList(1, sections.size())) {
			if (!ProfileCsv.isValues(section)) {
				if (!section.rows().isEmpty()) {
					run.note(source + " line " + section.line() + ": a table of " + section.rows().size()
							+ " rows left out: GPU telemetry is not a cell metric");
				}
				continue;
			}
			for (List<String> row : section.rows()) {
				String label = CsvSection.cell(row, 0);
				CsvSection.Label read = CsvSection.label(label);
				Double value = CsvSection.number(CsvSection.cell(row, 1));
				if (read.tag().equals("request_count")) {
					completed = ProfileCsv.count(value);
					continue;
				}
				metric(read, source, run).filter(AiperfMetrics::aggregate).ifPresent(metric -> {
					DoubleUnaryOperator conversion = ProfileCsv.conversion(metric, read.unit(), label, source, run);
					if (conversion != null && value != null) {
						cell.metric(metric, conversion.applyAsDouble(value));
					}
				});
			}
		}
		cell.requests(completed, null, null);
		run.note(source + (completed == null
				? ": no request count (GenAI-Perf wrote one from mid-2024): completed,"
						+ " failed and cancelled are unknown"
				: ": GenAI-Perf records no failed or cancelled count: both unknown, completed is its Request Count"));
		run.note("the CSV states no configuration (concurrency, request rate, model): the cell has no params");
		return cell;
	}

	/**
	 * The catalogue metric of a GenAI-Perf metric. Its inter token latency is the
	 * catalogue's ITL in the nanosecond exports (gaps between responses) and its TPOT
	 * since (latency − TTFT) / (tokens − 1).
	 */
	private static Optional<String> metric(CsvSection.Label label, String source, RunDraft run) {
		if (label.tag().equals("inter_token_latency")) {
			boolean nanoseconds = "ns".equalsIgnoreCase(label.unit());
			run.note(source + (nanoseconds
					? ": Inter Token Latency in ns is GenAI-Perf's first definition, the gaps between responses: itl_ms"
					: ": GenAI-Perf's Inter Token Latency is (latency − TTFT) / (output tokens − 1) per request: tpot_ms"));
			return Optional.of(nanoseconds ? "itl_ms" : "tpot_ms");
		}
		return AiperfMetrics.catalogueName(label.tag());
	}

	private static void analyze(List<CsvSection> sections, String source, RunDraft run) {
		CsvSection table = sections.get(0);
		Map<Integer, String> params = new LinkedHashMap<>();
		Map<Integer, Column> metrics = new LinkedHashMap<>();
		List<String> leftOut = new ArrayList<>();
		for (int i = 1; i < table.header().size(); i++) {
			String header = table.header().get(i);
			CsvSection.Label label = CsvSection.label(header);
			Matcher statistic = STATISTIC.matcher(label.tag());
			String tag = statistic.matches() ? statistic.group(2) : label.tag();
			Optional<String> metric = label.unit() == null && !statistic.matches() ? Optional.empty()
					: metric(new CsvSection.Label(tag, label.unit()), source, run);
			if (label.unit() == null && !statistic.matches()) {
				params.put(i, PARAMS.getOrDefault(label.tag(), label.tag()));
			}
			else if (metric.isPresent()) {
				DoubleUnaryOperator conversion = ProfileCsv.conversion(metric.get(), label.unit(), header, source, run);
				if (conversion != null) {
					metrics.put(i,
							new Column(metric.get(), statistic.matches() ? statistic.group(1) : null, conversion));
				}
			}
			else {
				leftOut.add(header);
			}
		}
		if (!leftOut.isEmpty()) {
			run.note(source + ": columns without a catalogue metric, left out: " + String.join(", ", leftOut));
		}
		for (List<String> row : table.rows()) {
			CellDraft cell = new CellDraft(source + " " + CsvSection.cell(row, 0)).requests(null, null, null);
			params.forEach((column, param) -> {
				String text = CsvSection.cell(row, column);
				Double number = CsvSection.number(text);
				if (!text.isEmpty()) {
					cell.param(param, number != null ? number : text);
				}
			});
			Map<String, Statistics.Builder> statistics = new LinkedHashMap<>();
			metrics.forEach((column, reading) -> {
				Double value = CsvSection.number(CsvSection.cell(row, column));
				if (value == null) {
					return;
				}
				double converted = reading.conversion().applyAsDouble(value);
				if (AiperfMetrics.aggregate(reading.metric())) {
					cell.metric(reading.metric(), converted);
				}
				else {
					statistics.computeIfAbsent(reading.metric(), key -> Statistics.builder())
						.put(reading.statistic() == null ? "median" : reading.statistic(), converted);
				}
			});
			statistics.forEach((metric, builder) -> cell.metric(metric, builder.build().inDocumentOrder()));
			run.cell(cell);
		}
		for (CsvSection section : sections.subList(1, sections.size())) {
			run.note(source + " line " + section.line() + ": a table of " + section.rows().size()
					+ " rows (GPU telemetry per configuration) left out: not a cell metric");
		}
		run.note(
				source + ": the analyze export records no request counts: completed, failed and cancelled are unknown");
		run.note(source + ": one cell per configuration row; the rows' order is not the order they ran: cells are"
				+ " unordered");
	}

	/**
	 * An analyze export's metric column: the catalogue metric, its statistic
	 * ({@code null}: one value), its unit.
	 */
	private record Column(String metric, @Nullable String statistic, DoubleUnaryOperator conversion) {
	}

}
