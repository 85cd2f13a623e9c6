package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * NVIDIA AIPerf's {@code profile_export_aiperf.csv}: one cell per file. Its statistics
 * table (with a {@code std} column, which GenAI-Perf's has not) gives the metrics; its
 * table of single values the request count, the count of errored requests (a row AIPerf
 * writes only when some request erred, so its absence beside a request count means none)
 * and the throughputs. The CSV tells failures from cancellations only with the
 * per-request {@code profile_export.jsonl} beside it; alone, its errored requests count
 * as failed and cancelled is unknown. The CSV states no configuration (concurrency,
 * request rate): the cell has no params.
 */
final class AiperfCsv implements HarnessImporter {

	@Override
	public HarnessFormat format() {
		return HarnessFormat.AIPERF_CSV;
	}

	/**
	 * Whether the text is an AIPerf CSV export: a statistics table first, with a
	 * {@code std} column.
	 */
	static boolean isExport(ParsedFile file) {
		if (file.looksLikeJson() || !CsvSection.startsWith(file, "Metric")) {
			return false;
		}
		List<CsvSection> sections = CsvSection.of(file);
		return sections != null && !sections.isEmpty() && ProfileCsv.isStatistics(sections.get(0))
				&& sections.get(0).column("std") > 0;
	}

	@Override
	public FileRole role(ParsedFile file) {
		if (file.looksLikeJson()) {
			List<JsonNode> values = file.jsonValuesOrNull();
			return values != null && values.stream().allMatch(AiperfRecordSet::isRecord) ? FileRole.COMPANION
					: HarnessImporter.otherFile(file);
		}
		if (isExport(file)) {
			return FileRole.OWN;
		}
		return GenaiPerfCsv.isExport(file) ? FileRole.FOREIGN : FileRole.IGNORABLE;
	}

	@Override
	public HarnessImport read(List<ParsedFile> files, @Nullable TableMapping mapping) {
		RunDraft run = new RunDraft();
		List<ParsedFile> exports = ownFiles(files, run);
		List<ParsedFile> records = new ArrayList<>(withRole(files, FileRole.COMPANION));
		for (ParsedFile file : exports) {
			List<CsvSection> sections = CsvSection.of(file);
			if (sections == null || sections.isEmpty() || !ProfileCsv.isStatistics(sections.get(0))) {
				throw new ImportRejected(file.name() + ": not an AIPerf CSV export (a Metric,avg,… table first)");
			}
			CellDraft cell = new CellDraft(file.name());
			Counts counts = new Counts();
			read(sections, cell, counts, file.name(), run);
			ParsedFile companion = exports.size() == 1 && records.size() == 1 ? records.get(0)
					: records.stream().filter(r -> r.directory().equals(file.directory())).findFirst().orElse(null);
			if (companion != null) {
				records.remove(companion);
			}
			counts(cell, counts, companion, file.name(), run);
			if (cell.completed() != null && cell.completed() == 0) {
				cell.withoutMetricsWhenNothingCompleted();
			}
			run.cell(cell);
		}
		for (ParsedFile unmatched : records) {
			run.note(unmatched.name() + ": per-request records not matched to a CSV export (not in the same directory):"
					+ " not read");
		}
		run.state("harness.name", "aiperf", exports.get(0).name());
		run.note("the CSV states no configuration (concurrency, request rate, model): the cell has no params;"
				+ " the profile_export_aiperf.json of the same run states them");
		return run.toImport();
	}

	private static void read(List<CsvSection> sections, CellDraft cell, Counts counts, String source, RunDraft run) {
		CsvSection table = sections.get(0);
		for (List<String> row : table.rows()) {
			String label = CsvSection.cell(row, 0);
			CsvSection.Label read = CsvSection.label(label);
			switch (read.tag()) {
				case "output_sequence_length" -> cell.outputTokens(ProfileCsv.tokens(table, row));
				case "reasoning_token_count" -> cell.reasoningTokens(ProfileCsv.tokens(table, row));
				default -> AiperfMetrics.catalogueName(read.tag()).ifPresent(metric -> {
					DoubleUnaryOperator conversion = ProfileCsv.conversion(metric, read.unit(), label, source, run);
					if (conversion == null || cell.metrics().containsKey(metric)) {
						return;
					}
					if (AiperfMetrics.aggregate(metric)) {
						Double value = ProfileCsv.value(table, row, "avg");
						cell.metric(metric, value == null ? null : conversion.applyAsDouble(value));
					}
					else {
						cell.metric(metric, ProfileCsv.statistics(table, row, conversion));
					}
				});
			}
		}
		for (CsvSection section : sections.subList(1, sections.size())) {
			if (!ProfileCsv.isValues(section)) {
				if (!section.rows().isEmpty()) {
					run.note(source + " line " + section.line() + ": a table of " + section.rows().size() + " rows ("
							+ String.join(",", section.header().subList(0, Math.min(4, section.header().size())))
							+ ",…) left out: GPU telemetry is not a cell metric");
				}
				continue;
			}
			for (List<String> row : section.rows()) {
				String label = CsvSection.cell(row, 0);
				CsvSection.Label read = CsvSection.label(label);
				Double value = CsvSection.number(CsvSection.cell(row, 1));
				switch (read.tag()) {
					case "request_count" -> counts.requests = value;
					case "error_request_count" -> counts.errors = value;
					default ->
						AiperfMetrics.catalogueName(read.tag()).filter(AiperfMetrics::aggregate).ifPresent(metric -> {
							DoubleUnaryOperator conversion = ProfileCsv.conversion(metric, read.unit(), label, source,
									run);
							if (conversion != null && value != null && !cell.metrics().containsKey(metric)) {
								cell.metric(metric, conversion.applyAsDouble(value));
							}
						});
				}
			}
		}
	}

	/**
	 * The cell's counts: the CSV's request count and errored requests; the records beside
	 * it, when they agree on the total, tell which errored requests failed and which were
	 * cancelled (and become the samples).
	 */
	private static void counts(CellDraft cell, Counts counts, @Nullable ParsedFile companion, String source,
			RunDraft run) {
		Integer completed = ProfileCsv.count(counts.requests);
		Integer errored = ProfileCsv.count(counts.errors);
		if (completed == null && errored != null) {
			completed = 0;
			run.note(source + ": no Request Count row beside " + errored
					+ " errored requests (AIPerf writes it only when some request completed): none completed");
		}
		if (errored == null && completed != null) {
			errored = 0;
			run.note(source + ": no Error Request Count row (AIPerf writes it whenever a request errs): none failed");
		}
		if (companion != null) {
			AiperfRecordSet records = AiperfRecordSet.of(companion.jsonValues(), companion.name());
			records.samplesInto(cell, run);
			if (completed != null && records.completed() == completed
					&& records.failed() + records.cancelled() == errored) {
				cell.requests(completed, records.failed(), records.cancelled());
				run.note(source + ": " + errored + " errored requests; the per-request records (" + companion.name()
						+ ") tell " + records.failed() + " failed and " + records.cancelled() + " cancelled");
				return;
			}
			run.reading(new CountReading(cell.label(), "CSV (Request Count, Error Request Count)", completed, errored,
					null, true));
			run.reading(new CountReading(cell.label(), "per-request records", records.completed(), records.failed(),
					records.cancelled(), false));
			run.note(source + ": the CSV counts " + completed + " completed and " + errored + " errored, the records "
					+ records.completed() + "/" + records.failed() + "/" + records.cancelled()
					+ " (completed/failed/cancelled): the cell keeps the CSV's");
		}
		if (errored != null && errored > 0) {
			cell.requests(completed, errored, null);
			run.note(source + ": " + errored + " errored requests (Error Request Count), which the CSV does not tell"
					+ " failed from cancelled: counted as failed, cancelled unknown");
		}
		else if (errored != null) {
			cell.requests(completed, 0, 0);
		}
		else {
			cell.requests(null, null, null);
			run.note(source + ": no request count in the CSV: completed, failed and cancelled are unknown");
		}
	}

	/** The counts the table of single values states, as written. */
	private static final class Counts {

		private @Nullable Double requests;

		private @Nullable Double errors;

	}

}
