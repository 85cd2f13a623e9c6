package dev.parity.ingest.web;

import java.net.URI;
import java.security.Principal;
import java.util.List;
import java.util.Map;

import dev.parity.ingest.HarnessIngest;
import dev.parity.ingest.IngestTurns;
import dev.parity.ingest.harness.HarnessFormat;
import dev.parity.ingest.harness.InputFile;
import dev.parity.ingest.mapping.SavedFormats;
import dev.parity.run.RunWriter.Stored;
import io.swagger.v3.oas.annotations.Operation;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartHttpServletRequest;

/**
 * {@code POST /api/runs/import}: store a harness's output (or a published table) with the
 * provenance it lacks.
 */
@RestController
class RunImportApiController {

	private final HarnessIngest ingest;

	private final SavedFormats savedFormats;

	private final IngestTurns turns;

	RunImportApiController(HarnessIngest ingest, SavedFormats savedFormats, IngestTurns turns) {
		this.ingest = ingest;
		this.turns = turns;
		this.savedFormats = savedFormats;
	}

	@Operation(summary = "Import harness output as a run",
			description = "Multipart: `files` (one or more, or a zip), optional `format` (native, vllm, vllm-sweep, sglang, aiperf, "
					+ "aiperf-records, aiperf-sweep, llmperf-summary, llmperf-responses, llama-benchy, guidellm, table-csv, "
					+ "table-markdown, aiperf-csv, genai-perf-csv, llama-benchy-md, llama-benchy-progress, inference-perf, or a "
					+ "saved format's name (its latest version) or name@version; detected from the content when absent), "
					+ "`provenance` (JSON in the run-document shape, "
					+ "without cells), `mapping` (JSON column mapping, for tables); each text part once, as a form field or as a file "
					+ "(`curl -F provenance=@provenance.json`), in UTF-8. 201 new, 200 already stored, 400 with every problem.")
	@PostMapping(path = "/api/runs/import", consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
	ResponseEntity<Map<String, String>> importRun(MultipartHttpServletRequest request, Principal principal) {
		ImportParts parts = new ImportParts(request);
		String format = parts.text("format");
		String provenance = parts.text("provenance");
		String mapping = parts.text("mapping");
		List<InputFile> files = parts.files();
		FormatPick pick = FormatPick.of(format, savedFormats);
		HarnessFormat picked = pick.builtIn();
		Stored stored = turns.inTurn(() -> ingest.store(files, picked, pick.saved(),
				ImportRequest.provenance(provenance), ImportRequest.mapping(mapping, picked), principal.getName()));
		String url = "/runs/" + stored.id();
		Map<String, String> body = Map.of("id", stored.id().value(), "url", url);
		return stored.created() ? ResponseEntity.created(URI.create(url)).body(body)
				: ResponseEntity.ok().location(URI.create(url)).body(body);
	}

}
