/**
 * The application's plumbing: the database, error handling and the demo story.
 */
@ApplicationModule(allowedDependencies = { "ingest", "run", "web" })
@NullMarked
package dev.parity.system;

import org.jspecify.annotations.NullMarked;

import org.springframework.modulith.ApplicationModule;
