/**
 * Harness importers: recognise the raw output of a benchmark harness by its content, and
 * turn it into the cells (and only the provenance the files state) of a
 * {@code benchmark-run/1} document.
 */
@NullMarked
package dev.parity.ingest.harness;

import org.jspecify.annotations.NullMarked;
