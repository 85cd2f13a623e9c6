/**
 * Statistics of a difference: the interval and p-value of a ratio between two sides
 * (Welch's t on log values, bootstrap over runs or over samples), seeded resampling, and
 * the Benjamini–Hochberg adjustment. Used by comparisons and by history's CI verdict
 * alike; depends on nothing else in Parity.
 */
@ApplicationModule(allowedDependencies = {})
@NullMarked
package dev.parity.stats;

import org.jspecify.annotations.NullMarked;

import org.springframework.modulith.ApplicationModule;
