package dev.parity.run;

import java.util.Locale;

/**
 * Whose numbers a run holds: ours ({@code measured}) or someone else's published ones
 * ({@code reference}).
 */
public enum Role {

	MEASURED, REFERENCE;

	/** The name used in documents, URLs and the database. */
	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

	public static Role of(String id) {
		return valueOf(id.toUpperCase(Locale.ROOT));
	}

}
