package dev.parity.history.web;

import java.security.Principal;
import java.util.List;

import dev.parity.history.Alerts;
import dev.parity.history.SeriesUpdates;
import io.swagger.v3.oas.annotations.Operation;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** The alerts API: list (every status but withdrawn unless asked), and a new status record. */
@RestController
class AlertApiController {

	private final Alerts alerts;

	private final SeriesUpdates updates;

	AlertApiController(Alerts alerts, SeriesUpdates updates) {
		this.alerts = alerts;
		this.updates = updates;
	}

	record AlertList(int total, List<Alerts.Alert> alerts) {
	}

	/**
	 * A new status; {@code caveat} links, for {@code explained}, the caveat or hypothesis that explains the alert.
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

	@Operation(summary = "Set an alert's status (a new record: who, when, why)")
	@PostMapping("/api/alerts/{id}/status")
	Alerts.Alert setStatus(@PathVariable String id, @RequestBody StatusChange change, Principal principal) {
		if (change.status() == null || change.status().isBlank()) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
					"status is required: one of " + String.join(", ", Alerts.STATUSES));
		}
		try {
			return alerts.setStatus(id, change.status().strip(), change.reason(),
					change.caveat() == null || change.caveat().isBlank() ? null : change.caveat().strip(), principal.getName());
		}
		catch (IllegalArgumentException ex) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, ex.getMessage());
		}
	}

}
