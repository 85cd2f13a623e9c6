/**
 * Saved formats: a team's own JSON described once as a field mapping (JSONPath limited to
 * fields, {@code [*]} and indices), versioned and append-only, then detected and imported
 * like a known harness's output.
 */
@NullMarked
package dev.parity.ingest.mapping;

import org.jspecify.annotations.NullMarked;
