package dev.parity.history.web;

import java.net.URI;
import java.security.Principal;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.parity.history.AlertControls;
import dev.parity.history.Alerts;
import dev.parity.history.Confirmations;
import dev.parity.history.SeriesUpdates;
import dev.parity.web.ApiProblems;
import dev.parity.web.Problem;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * The alerts API: list (every status but withdrawn unless asked), a new status record,
 * the confirmation plan and the confirmation reruns.
 */
@RestController
class AlertApiController {

	private final Alerts alerts;

	private final SeriesUpdates updates;

	private final AlertControls controls;

	private final Confirmations confirmations;

	AlertApiController(Alerts alerts, SeriesUpdates updates, AlertControls controls, Confirmations confirmations) {
		this.alerts = alerts;
		this.updates = updates;
		this.controls = controls;
		this.confirmations = confirmations;
	}

	/** The body of {@code POST /api/alerts/{id}/confirmations}. */
	record Confirmation(@Nullable String run) {
	}

	/** A linked rerun: 201. */
	record LinkedView(String alert, String run, String build, @JsonProperty("engine_commit") String engineCommit,
			@JsonProperty("linked_in") String linkedIn, @JsonProperty("linked_by") String linkedBy, String control,
			Alerts.@Nullable Confirmation confirmation) {
	}

	record AlertList(int total, List<Alerts.Alert> alerts) {
	}

	/**
	 * A new status; {@code caveat} links, for {@code explained}, the caveat or hypothesis
	 * that explains the alert.
	 */
	record StatusChange(@Nullable String status, @Nullable String reason, @Nullable String caveat) {
	}

	@Operation(summary = "List alerts, newest first; without status every status but withdrawn")
	@GetMapping("/api/alerts")
	AlertList listAlerts(@RequestParam(required = false) @Nullable String status,
			@RequestParam(required = false) @Nullable String series) {
		if (status != null && !status.isBlank() && !Alerts.STATUSES.contains(status.strip())) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
					"status must be one of " + String.join(", ", Alerts.STATUSES) + ", not '" + status + "'");
		}
		updates.catchUp();
		List<Alerts.Alert> list = alerts.list(status == null || status.isBlank() ? null : status.strip(),
				series == null || series.isBlank() ? null : series.strip());
		return new AlertList(list.size(), list);
	}

	@Operation(
			summary = "An alert's confirmation plan: rerun the alert's build and the last good build before it `times` "
					+ "each (enough, from the series' noise, for the interval of their ratio to be narrower than half the alert's "
					+ "magnitude), with the rerun commands; the range of engine commits between them (compare_url from "
					+ "engine.repository); the reruns linked so far and, once each build has 3, the confirmation")
	@GetMapping(path = "/api/alerts/{id}/control", produces = "application/json")
	AlertControls.Plan control(@PathVariable String id) {
		if (alerts.find(id).isEmpty()) {
			throw new ResponseStatusException(HttpStatus.NOT_FOUND, "No alert with id '" + id + "'");
		}
		return controls.plan(id);
	}

	@Operation(summary = "Link a stored run as a confirmation rerun of the alert's build or of the last good build (by "
			+ "its engine commit): {\"run\": \"<id>\"} → 201; the run is no longer a point of its series; 404 for an "
			+ "unknown alert, 400 naming what is wrong; nothing stored on error")
	@ApiResponse(responseCode = "201", description = "linked; Location is the alert's confirmation plan",
			content = @Content(mediaType = "application/json", schema = @Schema(implementation = LinkedView.class)))
	@PostMapping(path = "/api/alerts/{id}/confirmations", consumes = "application/json", produces = "application/json")
	ResponseEntity<?> confirm(@PathVariable String id, @RequestBody Confirmation body, Principal principal) {
		if (body.run() == null || body.run().isBlank()) {
			return problem(HttpStatus.BAD_REQUEST, "$.run", "name the rerun: {\"run\": \"<run id>\"}");
		}
		Confirmations.Linked linked;
		try {
			linked = confirmations.link(id, body.run().strip(), principal.getName());
		}
		catch (Confirmations.Rejected rejected) {
			return rejected.unknownAlert() ? problem(HttpStatus.NOT_FOUND, "$", rejected.getMessage())
					: problem(HttpStatus.BAD_REQUEST, "$." + rejected.field(), rejected.getMessage());
		}
		Alerts.Confirmation confirmation = confirmations.settle(id).orElse(null);
		String control = "/api/alerts/" + id + "/control";
		return ResponseEntity.created(URI.create(control))
			.body(new LinkedView(linked.alert(), linked.run(), linked.build(), linked.engineCommit(), linked.linkedIn(),
					linked.linkedBy(), control, confirmation));
	}

	private static ResponseEntity<ProblemDetail> problem(HttpStatus status, String path, String message) {
		return ApiProblems.of(status, List.of(new Problem(path, message)));
	}

	@Operation(summary = "Set an alert's status (a new record: who, when, why)")
	@PostMapping("/api/alerts/{id}/status")
	Alerts.Alert setStatus(@PathVariable String id, @RequestBody StatusChange change, Principal principal) {
		if (change.status() == null || change.status().isBlank()) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
					"status is required: one of " + String.join(", ", Alerts.STATUSES));
		}
		try {
			return alerts.setStatus(id, change.status().strip(), change.reason(),
					change.caveat() == null || change.caveat().isBlank() ? null : change.caveat().strip(),
					principal.getName());
		}
		catch (IllegalArgumentException ex) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, ex.getMessage());
		}
	}

}
