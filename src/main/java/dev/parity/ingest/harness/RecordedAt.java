package dev.parity.ingest.harness;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

import org.jspecify.annotations.Nullable;

/**
 * The instant a harness says a measurement was made. Only an unambiguous instant is taken
 * (epoch seconds, or a time with a zone); a local time without a zone is noted and left
 * out, since it could be any of 26 hours.
 */
final class RecordedAt {

	private RecordedAt() {
	}

	static @Nullable Instant ofEpochSeconds(@Nullable Double seconds) {
		if (seconds == null || seconds <= 0) {
			return null;
		}
		return Instant.ofEpochMilli(Math.round(seconds * 1000));
	}

	/**
	 * A time written as text: taken when it has a zone ({@code 2026-09-12 15:53:12Z}),
	 * noted when it has none.
	 */
	static @Nullable Instant ofText(@Nullable String text, String field, String source, RunDraft run) {
		if (text == null || text.isBlank()) {
			return null;
		}
		String iso = text.trim().replace(' ', 'T');
		try {
			return OffsetDateTime.parse(iso).toInstant();
		}
		catch (DateTimeParseException ex) {
			run.note(source + ": " + field + " '" + text + "' has no time zone: recorded_at is left for you to state");
			return null;
		}
	}

}
