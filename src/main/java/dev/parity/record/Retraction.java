package dev.parity.record;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A run or a publication taken back ({@code retracted}) or replaced by another
 * ({@code superseded}).
 *
 * @param subjectKind {@code run} or {@code publication}
 * @param subjectId the run or publication taken back
 * @param kind {@code retracted} or {@code superseded}
 * @param reason why
 * @param replacementId for a supersession, what replaces it (of the same kind)
 * @param createdAt when
 * @param createdBy who
 */
public record Retraction(String subjectKind, String subjectId, String kind, String reason,
		@Nullable String replacementId, Instant createdAt, String createdBy) {

	public boolean superseded() {
		return "superseded".equals(kind);
	}

	/** Where the replacement lives. */
	public @Nullable String replacementUrl() {
		if (replacementId == null) {
			return null;
		}
		return ("run".equals(subjectKind) ? "/runs/" : "/published/") + replacementId;
	}

}
