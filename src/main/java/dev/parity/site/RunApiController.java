package dev.parity.site;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.parity.caveat.Caveats;
import dev.parity.caveat.web.CaveatJson;
import dev.parity.record.Publications;
import dev.parity.record.Retraction;
import dev.parity.run.Run;
import dev.parity.run.RunId;
import dev.parity.run.RunNotFoundException;
import dev.parity.run.Run.RunFile;
import dev.parity.run.RunRepository;
import dev.parity.run.RunSummaries.RunFilter;
import dev.parity.run.RunSummary;
import dev.parity.run.StoredFiles;
import dev.parity.web.RequestChecks;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.core.io.Resource;
import org.springframework.data.domain.Page;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The read side of the runs API: lists, runs with their flags, and the uploaded bytes.
 */
@RestController
class RunApiController {

	private final RunRepository runs;

	private final RunListing listing;

	private final RunFlagging flagging;

	private final JsonMapper json;

	private final Caveats caveats;

	private final Publications publications;

	private final RecordNotices notices;

	private final SiteUrls siteUrls;

	private final SweepViewing sweeps;

	private final StoredFiles storedFiles;

	RunApiController(RunRepository runs, StoredFiles storedFiles, RunListing listing, RunFlagging flagging,
			JsonMapper json, Caveats caveats, Publications publications, RecordNotices notices, SiteUrls siteUrls,
			SweepViewing sweeps) {
		this.sweeps = sweeps;
		this.storedFiles = storedFiles;
		this.notices = notices;
		this.siteUrls = siteUrls;
		this.caveats = caveats;
		this.publications = publications;
		this.json = json;
		this.runs = runs;
		this.listing = listing;
		this.flagging = flagging;
	}

	@Operation(summary = "List runs, newest first, with the filters of /runs")
	@GetMapping("/api/runs")
	RunJson.RunList listRuns(@Nullable RunFilter filter, @RequestParam(defaultValue = "0") String page,
			@RequestParam(defaultValue = "25") int size,
			@RequestParam(name = "hide_retracted", defaultValue = "false") boolean hideRetracted) {
		Page<RunSummary> found = listing.search(filter == null ? RunFilter.none() : filter,
				hideRetracted ? publications.retractedRuns() : Set.of(), RequestChecks.page(page),
				Math.min(Math.max(size, 1), 200));
		Map<String, Retraction> marks = notices.runMarks(found.map(RunSummary::getId).getContent());
		List<RunJson.Listed> list = new ArrayList<>();
		found.forEach(run -> {
			Retraction mark = marks.get(run.getId());
			list.add(RunJson.summary(run, mark != null, mark == null ? null : mark.kind()));
		});
		return new RunJson.RunList(found.getTotalElements(), found.getNumber(), found.getSize(), list);
	}

	@Operation(summary = "A run with its provenance, cells, samples and flags; its Pareto view (pareto) and, with "
			+ "slo_ttft_s, slo_tpot_ms or slo_e2e_s (and slo_share, default 0.9) in the URL, its goodput (goodput)")
	@ApiResponse(responseCode = "200", description = "OK",
			content = @Content(mediaType = "application/json", schema = @Schema(implementation = RunJson.Answer.class)))
	@GetMapping("/api/runs/{id}")
	ObjectNode showRun(@PathVariable String id, @RequestParam Map<String, String> query) {
		Run run = load(id);
		RunFlagging.Flags flags = flagging.check(run);
		ObjectNode body = json.valueToTree(RunJson.run(run, flags.run(), flags.cells()));
		body.setAll((ObjectNode) json.valueToTree(sweeps.ofRun(run, query)));
		body.set("caveats", CaveatJson.list(caveats.forRun(id), json));
		notices.forRun(id, siteUrls.link("")).writeJson(body);
		publications.retractionOf("run", id).ifPresent(r -> {
			ObjectNode retraction = body.putObject("retraction");
			retraction.put("kind", r.kind());
			retraction.put("reason", r.reason());
			retraction.put("replacement", r.replacementUrl());
			retraction.put("at", r.createdAt().toString());
			retraction.put("by", r.createdBy());
		});
		return body;
	}

	@Operation(summary = "The uploaded document, byte for byte (ETag: its SHA-256; Range requests answered)")
	@GetMapping("/api/runs/{id}/document")
	ResponseEntity<Resource> downloadDocument(@PathVariable String id) {
		return downloadFile(id, 0);
	}

	/**
	 * An uploaded file, streamed from PostgreSQL in binary with its length, and its
	 * SHA-256 as the ETag: a client that holds it gets a 304 (Spring answers
	 * If-None-Match from the ETag set here, before the body is read) and a {@code Range}
	 * request gets its bytes only (a 206, from the resource's stream, which skips without
	 * reading).
	 */
	@Operation(summary = "An uploaded file of a run, byte for byte (ETag: its SHA-256; Range requests answered)")
	@GetMapping("/api/runs/{id}/files/{position}")
	ResponseEntity<Resource> downloadFile(@PathVariable String id, @PathVariable int position) {
		if (!RunId.isValid(id)) {
			throw new RunNotFoundException(id);
		}
		RunId run = new RunId(id);
		RunFile file = storedFiles.find(run, position)
			.orElseThrow(() -> new RunNotFoundException(storedFiles.runExists(run) ? id + "/files/" + position : id));
		return ResponseEntity.ok()
			.contentType(MediaType.parseMediaType(file.mediaType()))
			.eTag(file.sha256())
			.header(HttpHeaders.CONTENT_DISPOSITION,
					ContentDisposition.attachment()
						.filename(file.fileName(), StandardCharsets.UTF_8)
						.build()
						.toString())
			.body(new StoredFileResource(storedFiles, run, file));
	}

	private Run load(String id) {
		if (!RunId.isValid(id)) {
			throw new RunNotFoundException(id);
		}
		return runs.find(new RunId(id)).orElseThrow(() -> new RunNotFoundException(id));
	}

}
