package dev.parity.ingest.harness;

import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * AIPerf's per-request {@code profile_export.jsonl} on its own: one cell, with the
 * requests as samples and statistics computed from them; cancelled requests counted as
 * cancelled. The file states no grid coordinates (they are in
 * {@code profile_export_aiperf.json}).
 */
final class AiperfRecords implements HarnessImporter {

	@Override
	public HarnessFormat format() {
		return HarnessFormat.AIPERF_RECORDS;
	}

	@Override
	public FileRole role(ParsedFile file) {
		List<JsonNode> values = file.looksLikeJson() ? file.jsonValuesOrNull() : null;
		if (values == null) {
			// Beside AIPerf's CSV export, the records are its companions (AiperfCsv reads
			// both).
			return AiperfCsv.isExport(file) ? FileRole.FOREIGN : HarnessImporter.otherFile(file);
		}
		return values.stream().allMatch(AiperfRecordSet::isRecord) ? FileRole.OWN : FileRole.FOREIGN;
	}

	@Override
	public HarnessImport read(List<ParsedFile> files, @Nullable TableMapping mapping) {
		RunDraft run = new RunDraft();
		List<ParsedFile> own = ownFiles(files, run);
		if (own.size() > 1) {
			throw new ImportRejected(own.get(0).name() + ", " + own.get(1).name()
					+ ": AIPerf records state no grid coordinates, so several files cannot be told apart; upload each"
					+ " with its profile_export_aiperf.json");
		}
		ParsedFile file = own.get(0);
		AiperfRecordSet records = AiperfRecordSet.of(file.jsonValues(), file.name());
		CellDraft cell = new CellDraft(file.name()).requests(records.completed(), records.failed(),
				records.cancelled());
		records.metricsInto(cell, run);
		records.samplesInto(cell, run);
		run.state("harness.name", "aiperf", file.name());
		if (records.warmup() > 0) {
			run.state("workload.warmup_requests", records.warmup(), file.name());
		}
		run.note(file.name() + ": the records state no grid coordinates (concurrency, prompt length): the cell has no"
				+ " params; upload profile_export_aiperf.json with it to get them");
		run.note(file.name() + ": " + records.total() + " requests: " + records.completed() + " completed, "
				+ records.failed() + " failed, " + records.cancelled() + " cancelled");
		return run.cell(cell).toImport();
	}

}
