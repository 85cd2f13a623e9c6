package dev.parity.history.web;

import java.security.Principal;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.parity.history.Webhooks;
import io.swagger.v3.oas.annotations.Operation;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Admins register webhooks for alerts and read the delivery log (the URL is never shown
 * again).
 */
@RestController
class WebhookApiController {

	private final Webhooks webhooks;

	WebhookApiController(Webhooks webhooks) {
		this.webhooks = webhooks;
	}

	record Registration(@Nullable String url, @Nullable String kind) {
	}

	record Registered(long id, String host, String kind, @JsonProperty("signing_secret") String signingSecret,
			String note) {
	}

	@Operation(
			summary = "Register a webhook for alerts (admin): generic JSON or slack; answers the signing secret once")
	@PostMapping("/api/admin/webhooks")
	@ResponseStatus(HttpStatus.CREATED)
	Registered register(@RequestBody Registration registration, Principal principal) {
		if (registration.url() == null || registration.url().isBlank()) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "url is required");
		}
		try {
			Webhooks.Registered done = webhooks.register(registration.url(),
					registration.kind() == null ? "generic" : registration.kind().strip(), principal.getName());
			return new Registered(done.id(), done.host(), done.kind(), done.signingSecret(),
					"keep the signing secret: it is not shown again (nor is the URL); X-Parity-Signature is sha256=HMAC-SHA256(secret, body)");
		}
		catch (IllegalArgumentException ex) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, ex.getMessage());
		}
	}

	@Operation(summary = "The webhooks (host only)")
	@GetMapping("/api/admin/webhooks")
	List<Webhooks.Listed> listWebhooks() {
		return webhooks.list();
	}

	@Operation(summary = "The delivery log: every delivery with every attempt")
	@GetMapping("/api/admin/webhooks/deliveries")
	List<Webhooks.Delivery> listDeliveries(@RequestParam(required = false) @Nullable String alert) {
		return webhooks.deliveries(alert);
	}

}
