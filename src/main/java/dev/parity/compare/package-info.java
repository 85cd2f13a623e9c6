/**
 * Comparisons: a baseline run and a contender run matched cell by cell, with a ratio per
 * metric, the flags that grey confounded numbers, and a headline that counts only the
 * comparable cells.
 */
@ApplicationModule(allowedDependencies = { "run", "stats" })
@NullMarked
package dev.parity.compare;

import org.jspecify.annotations.NullMarked;

import org.springframework.modulith.ApplicationModule;
