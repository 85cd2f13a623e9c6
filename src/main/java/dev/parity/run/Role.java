package dev.parity.run;

/**
 * Whose numbers a run holds: ours ({@code measured}) or someone else's published ones
 * ({@code reference}).
 */
public enum Role {

	MEASURED, REFERENCE;

	/** The name used in documents, URLs and the database. */
	public String id() {
		return name().toLowerCase(java.util.Locale.ROOT);
	}

	public static Role of(String id) {
		return valueOf(id.toUpperCase(java.util.Locale.ROOT));
	}

}
