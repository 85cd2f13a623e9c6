/**
 * The record of claims: published comparisons frozen under their own permalinks, and
 * retractions and supersessions of runs and publications. Nothing here is edited or
 * deleted; every action is a new record.
 */
@ApplicationModule(allowedDependencies = { "audit", "caveat", "run" })
@NullMarked
package dev.parity.record;

import org.jspecify.annotations.NullMarked;

import org.springframework.modulith.ApplicationModule;
