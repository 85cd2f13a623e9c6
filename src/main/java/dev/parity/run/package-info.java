/**
 * Runs: what was measured (or quoted), with its provenance and its grid of cells;
 * immutable once stored.
 */
@ApplicationModule(allowedDependencies = {})
@NullMarked
package dev.parity.run;

import org.jspecify.annotations.NullMarked;

import org.springframework.modulith.ApplicationModule;
