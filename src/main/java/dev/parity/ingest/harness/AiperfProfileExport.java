package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * NVIDIA AIPerf's {@code profile_export_aiperf.json}: one cell per file, with the
 * statistics AIPerf computed (converted to catalogue units) and the counts of its
 * {@code error_summary}. When the per-request {@code profile_export.jsonl} of the same
 * run comes along (same directory, or the only pair), its requests become the cell's
 * samples.
 */
final class AiperfProfileExport implements HarnessImporter {

	@Override
	public HarnessFormat format() {
		return HarnessFormat.AIPERF;
	}

	@Override
	public FileRole role(ParsedFile file) {
		List<JsonNode> values = file.looksLikeJson() ? file.jsonValuesOrNull() : null;
		if (values == null) {
			return HarnessImporter.otherFile(file);
		}
		if (values.size() == 1 && AiperfSummary.isSummary(values.get(0))) {
			return FileRole.OWN;
		}
		if (values.stream().allMatch(AiperfRecordSet::isRecord)) {
			return FileRole.COMPANION;
		}
		if (values.size() == 1 && AiperfSummary.isOtherArtifact(values.get(0))) {
			return FileRole.IGNORABLE;
		}
		return FileRole.FOREIGN;
	}

	@Override
	public HarnessImport read(List<ParsedFile> files, @Nullable TableMapping mapping) {
		RunDraft run = new RunDraft();
		List<ParsedFile> summaries = ownFiles(files, run);
		List<ParsedFile> recordFiles = new ArrayList<>(withRole(files, FileRole.COMPANION));
		List<String> starts = new ArrayList<>();
		for (ParsedFile file : summaries) {
			JsonNode summary = file.json();
			CellDraft cell = AiperfSummary.cell(summary, file.name(), run);
			AiperfSummary.provenance(summary, file.name(), run);
			ParsedFile records = companion(file, summaries, recordFiles);
			if (records != null) {
				recordFiles.remove(records);
				samples(cell, records, run);
			}
			run.cell(cell);
			starts.add(Fields.text(summary, "start_time"));
		}
		for (ParsedFile unmatched : recordFiles) {
			run.note(unmatched.name() + ": per-request records not matched to a summary (not in the same directory):"
					+ " not read");
		}
		ExecutionOrder.byTimestamps(run.cells(), starts, run);
		return run.toImport();
	}

	private static @Nullable ParsedFile companion(ParsedFile summary, List<ParsedFile> summaries,
			List<ParsedFile> records) {
		if (summaries.size() == 1 && records.size() == 1) {
			return records.get(0);
		}
		return records.stream()
			.filter(candidate -> candidate.directory().equals(summary.directory()))
			.findFirst()
			.orElse(null);
	}

	private static void samples(CellDraft cell, ParsedFile file, RunDraft run) {
		AiperfRecordSet records = AiperfRecordSet.of(file.jsonValues(), file.name());
		records.samplesInto(cell, run);
		boolean same = records.completed() == nullToMinus(cell.completed())
				&& records.failed() == nullToMinus(cell.failed())
				&& records.cancelled() == nullToMinus(cell.cancelled());
		if (!same) {
			run.reading(new CountReading(cell.label(), "summary (request_count, error_summary)", cell.completed(),
					cell.failed(), cell.cancelled(), true));
			run.reading(new CountReading(cell.label(), "per-request records", records.completed(), records.failed(),
					records.cancelled(), false));
			run.note(cell.source() + ": the summary counts " + cell.completed() + "/" + cell.failed() + "/"
					+ cell.cancelled() + " (completed/failed/cancelled), the records " + records.completed() + "/"
					+ records.failed() + "/" + records.cancelled() + ": the cell keeps the summary's");
		}
	}

	private static int nullToMinus(@Nullable Integer count) {
		return count == null ? -1 : count;
	}

}
