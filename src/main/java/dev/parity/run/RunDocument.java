package dev.parity.run;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A run as described by a {@code benchmark-run/1} document: title, role, provenance and
 * cells.
 */
public record RunDocument(String title, Role role, @Nullable Instant recordedAt, Provenance provenance,
		List<Cell> cells) {

	public RunDocument {
		cells = List.copyOf(cells);
	}

}
