package dev.parity.ingest.mapping;

import java.time.Instant;

import tools.jackson.databind.JsonNode;

/**
 * One version of a saved format: the mapping as its author wrote it, checked. A version
 * never changes; a change is a new version.
 *
 * @param name the format's name
 * @param version 1, 2, …
 * @param source the mapping's JSON as saved
 * @param createdBy who saved this version
 * @param createdAt when
 */
public record SavedFormat(String name, int version, JsonNode source, String createdBy, Instant createdAt) {

	/** {@code name@version}, as the import API accepts it and runs record it. */
	public String id() {
		return name + "@" + version;
	}

	FieldMapping mapping() {
		FieldMapping.Parsed parsed = FieldMapping.parse(source);
		if (parsed.mapping() == null) {
			throw new IllegalStateException("saved format " + id() + " no longer parses: " + parsed.problems());
		}
		return parsed.mapping();
	}

}
