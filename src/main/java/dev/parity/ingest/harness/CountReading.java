package dev.parity.ingest.harness;

import org.jspecify.annotations.Nullable;

/**
 * One of the request counts a file states for a cell, when it states more than one
 * (guidellm's measured window, request lists and scheduler), and whether it became the
 * cell's counts; for the upload preview.
 *
 * @param cell the cell's params, as a label
 * @param source where in the file the counts come from, e.g. {@code requests lists}
 * @param completed completed requests, {@code null} when this source does not say
 * @param failed failed requests, {@code null} when this source does not say
 * @param cancelled cancelled requests, {@code null} when this source does not say
 * @param chosen whether these are the counts written into the cell
 */
public record CountReading(String cell, String source, @Nullable Integer completed, @Nullable Integer failed,
		@Nullable Integer cancelled, boolean chosen) {
}
