package dev.parity.ingest.harness;

import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * ray llmperf's {@code *_individual_responses.json} on its own: one cell, the requests as
 * samples, statistics computed over the requests without an error (as llmperf computes
 * its summary). The file states no concurrency; the prompt length is taken when every
 * request had the same.
 */
final class LlmperfResponses implements HarnessImporter {

	@Override
	public HarnessFormat format() {
		return HarnessFormat.LLMPERF_RESPONSES;
	}

	@Override
	public FileRole role(ParsedFile file) {
		JsonNode json = file.looksLikeJson() ? file.jsonOrNull() : null;
		if (json == null) {
			return HarnessImporter.otherFile(file);
		}
		return LlmperfResponseSet.isResponses(json) ? FileRole.OWN : FileRole.FOREIGN;
	}

	@Override
	public HarnessImport read(List<ParsedFile> files, @Nullable TableMapping mapping) {
		RunDraft run = new RunDraft();
		List<ParsedFile> own = ownFiles(files, run);
		if (own.size() > 1) {
			throw new ImportRejected(own.get(0).name() + ", " + own.get(1).name()
					+ ": llmperf's responses files state no concurrency, so several cannot be told apart; upload each with"
					+ " its *_summary.json");
		}
		ParsedFile file = own.get(0);
		LlmperfResponseSet responses = LlmperfResponseSet.of(file.json(), file.name());
		CellDraft cell = new CellDraft(file.name()).requests(responses.completed(), responses.failed(), null);
		Double prompt = responses.commonInputLength();
		if (prompt != null) {
			cell.param("prompt_tokens", prompt);
			run.note(file.name() + ": prompt_tokens " + prompt.longValue()
					+ " because every request had that many input" + " tokens");
		}
		run.note(file.name() + ": the responses file states no concurrency: add the *_summary.json or set it yourself");
		run.note("llmperf does not record cancelled requests: the cancelled count is unknown");
		responses.metricsInto(cell);
		responses.samplesInto(cell, run);
		Llmperf.provenance(run, file.name());
		return run.cell(cell).toImport();
	}

}
