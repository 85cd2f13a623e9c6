/**
 * Ingest: turning uploaded bytes into stored runs, validating every document and storing
 * nothing of a rejected one.
 */
@ApplicationModule(allowedDependencies = { "audit", "compare", "run", "web" })
@NullMarked
package dev.parity.ingest;

import org.jspecify.annotations.NullMarked;

import org.springframework.modulith.ApplicationModule;
