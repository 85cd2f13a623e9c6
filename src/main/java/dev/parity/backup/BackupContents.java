package dev.parity.backup;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * How many records of each kind an instance or an archive holds, e.g.
 * {@code runs=12, caveats=3}.
 *
 * @param counts records by kind, in the archive's order, must not be {@literal null}
 */
public record BackupContents(Map<String, Long> counts) {

	/** The kinds of record, in the order they are restored. */
	static final String[] KINDS = { "runs", "files", "cells", "caveats", "hypothesis_status", "publications",
			"retractions", "control_links", "audit_events" };

	public BackupContents {
		counts = Collections.unmodifiableMap(new LinkedHashMap<>(counts));
	}

	public long get(String kind) {
		return counts.getOrDefault(kind, 0L);
	}

	/**
	 * Whether there is nothing of the record: no run, caveat, status change, publication,
	 * retraction or control link.
	 */
	public boolean emptyRecord() {
		return get("runs") + get("files") + get("cells") + get("caveats") + get("hypothesis_status")
				+ get("publications") + get("retractions") + get("control_links") == 0;
	}

	@Override
	public String toString() {
		return counts.entrySet()
			.stream()
			.map(e -> e.getValue() + " " + e.getKey().replace('_', ' '))
			.collect(Collectors.joining(", "));
	}

}
