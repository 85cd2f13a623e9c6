/**
 * Caveats and hypotheses written by people, with the append-only history of each
 * hypothesis's status.
 */
@ApplicationModule(allowedDependencies = { "audit", "compare", "run", "web" })
@NullMarked
package dev.parity.caveat;

import org.jspecify.annotations.NullMarked;

import org.springframework.modulith.ApplicationModule;
