/**
 * The pages and read API that show several features at once (src/docs/architecture.md,
 * "One web convention"): the start page, run lists and run pages with their exports and
 * the read API of runs; comparison pages (two runs, several contenders, within a run)
 * with their JSON, exports, charts, kept pages and embeds; publications; the CI verdict's
 * API. A feature's own pages are in its module's {@code web} package.
 */
@ApplicationModule(allowedDependencies = { "caveat", "caveat :: web", "compare", "snapshots", "control", "history",
		"record", "run", "web" })
@NullMarked
package dev.parity.site;

import org.jspecify.annotations.NullMarked;

import org.springframework.modulith.ApplicationModule;
