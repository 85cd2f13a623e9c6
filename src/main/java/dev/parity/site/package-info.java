/**
 * The pages and read API that gather several features: the start page, run lists and run
 * pages.
 */
@ApplicationModule(
		allowedDependencies = { "caveat", "compare", "comparisons", "control", "history", "record", "run", "web" })
@NullMarked
package dev.parity.site;

import org.jspecify.annotations.NullMarked;

import org.springframework.modulith.ApplicationModule;
