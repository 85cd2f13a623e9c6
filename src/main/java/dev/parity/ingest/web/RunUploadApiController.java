package dev.parity.ingest.web;

import java.net.URI;
import java.security.Principal;
import java.util.Map;

import dev.parity.ingest.IngestTurns;
import dev.parity.ingest.RunIngest;
import dev.parity.run.RunWriter.Stored;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/runs}: store a run document from a script or CI.
 */
@RestController
class RunUploadApiController {

	private final RunIngest ingest;

	private final IngestTurns turns;

	RunUploadApiController(RunIngest ingest, IngestTurns turns) {
		this.ingest = ingest;
		this.turns = turns;
	}

	@Operation(summary = "Upload a benchmark-run/1 document",
			description = "201 with Location for a new run; 200 with the same id when these exact bytes were uploaded before; "
					+ "400 with every problem and its JSON path when the document is not valid (nothing is stored).")
	@ApiResponse(responseCode = "201", description = "stored")
	@ApiResponse(responseCode = "200", description = "already stored")
	@ApiResponse(responseCode = "400", description = "rejected: {\"errors\": [{\"path\", \"message\"}]}")
	@PostMapping(path = "/api/runs", consumes = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<Map<String, String>> uploadRun(@RequestBody byte[] document, Principal principal) {
		Stored stored = turns.inTurn(() -> ingest.ingestDocument(document, "document.json", principal.getName()));
		String url = "/runs/" + stored.id();
		Map<String, String> body = Map.of("id", stored.id().value(), "url", url);
		if (stored.created()) {
			return ResponseEntity.created(URI.create(url)).body(body);
		}
		return ResponseEntity.status(HttpStatus.OK).location(URI.create(url)).body(body);
	}

}
