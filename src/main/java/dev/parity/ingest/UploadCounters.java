package dev.parity.ingest;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Component;

/**
 * Counts uploads for {@code /actuator/prometheus}:
 * {@code parity_uploads_stored_total{via, outcome}} (a new run, or one already stored)
 * and {@code parity_uploads_refused_total{via, reason}} (an invalid document or import, a
 * preview or body too large). {@code via} is {@code document} (a run document, form or
 * API) or {@code import} (harness output).
 */
@Component
public class UploadCounters {

	private final MeterRegistry registry;

	UploadCounters(MeterRegistry registry) {
		this.registry = registry;
	}

	/** A run stored, or found already stored. */
	public void stored(String via, boolean created) {
		Counter.builder("parity.uploads.stored")
			.description("Uploads that gave a run: a new one, or one stored before")
			.tag("via", via)
			.tag("outcome", created ? "new" : "existing")
			.register(registry)
			.increment();
	}

	/** An upload refused with a 4xx: nothing stored. */
	public void refused(String via, String reason) {
		Counter.builder("parity.uploads.refused")
			.description("Uploads refused with a 4xx; nothing was stored")
			.tag("via", via)
			.tag("reason", reason)
			.register(registry)
			.increment();
	}

}
