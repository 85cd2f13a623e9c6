/**
 * Runs: what was measured (or quoted), with its provenance and its grid of cells; immutable once stored.
 */
@NullMarked
package dev.parity.run;

import org.jspecify.annotations.NullMarked;
