/**
 * History: the series of runs that share a key, their segments (broken by anything but
 * the varied dimension), greyed points with their reasons, change points found by
 * E-Divisive as Apache Otava computes them, and alerts.
 */
@ApplicationModule(allowedDependencies = { "run", "compare", "snapshots", "caveat", "audit", "ingest", "stats", "web" })
@NullMarked
package dev.parity.history;

import org.jspecify.annotations.NullMarked;

import org.springframework.modulith.ApplicationModule;
