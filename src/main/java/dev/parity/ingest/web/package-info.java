/**
 * The upload form with its import preview, the saved formats' editor, and the upload API:
 * {@code POST /api/runs} (a run document), {@code POST /api/runs/import} (harness output
 * and tables) and {@code /api/formats} (saved formats).
 */
@NullMarked
package dev.parity.ingest.web;

import org.jspecify.annotations.NullMarked;
