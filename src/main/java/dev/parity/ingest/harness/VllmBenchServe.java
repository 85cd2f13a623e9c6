package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * vLLM's {@code vllm bench serve --save-result}: one file is one cell. With {@code --save-detailed}
 * its per-request arrays become samples, failed where {@code errors[i]} says so.
 */
final class VllmBenchServe implements HarnessImporter {

	@Override
	public HarnessFormat format() {
		return HarnessFormat.VLLM;
	}

	@Override
	public FileRole role(ParsedFile file) {
		JsonNode json = file.looksLikeJson() ? file.jsonOrNull() : null;
		if (json == null) {
			return HarnessImporter.otherFile(file);
		}
		if (VllmResult.isVllm(json)) {
			// A sweep's run file is a result too, but the sweep importer knows its swept params.
			return json.has("run_number") ? FileRole.OWN_PERHAPS : FileRole.OWN;
		}
		return VllmResult.isServingResult(json) ? FileRole.OWN_PERHAPS : FileRole.FOREIGN;
	}

	@Override
	public HarnessImport read(List<ParsedFile> files, @Nullable TableMapping mapping) {
		RunDraft run = new RunDraft();
		List<ParsedFile> own = ownFiles(files, run);
		List<String> dates = new ArrayList<>();
		for (ParsedFile file : own) {
			JsonNode result = file.json();
			if (!result.isObject()) {
				throw new ImportRejected(file.name() + ": expected a JSON object (a vLLM result), found "
						+ result.getNodeType().toString().toLowerCase(java.util.Locale.ROOT));
			}
			run.state("harness.name", "vllm bench serve", file.name());
			run.cell(VllmResult.cell(result, file.name(), run));
			dates.add(Fields.text(result, "date"));
		}
		ExecutionOrder.byTimestamps(run.cells(), dates, run);
		return run.toImport();
	}

}
