/**
 * The comparisons this server computes and keeps: both sides' runs loaded (a pool loads
 * the second run while the request's thread loads the first), the rules of
 * {@code compare} applied with the settings in force, the snapshot kept by run pair and
 * settings, the turns to compute one ({@link dev.parity.snapshots.ComparisonBudget}), the
 * record versions of runs and the rendered pages kept by them. Pages, exports and the API
 * ({@code site}) show what this gives.
 */
@ApplicationModule(allowedDependencies = { "caveat", "compare", "record", "run", "stats" })
@NullMarked
package dev.parity.snapshots;

import org.jspecify.annotations.NullMarked;

import org.springframework.modulith.ApplicationModule;
