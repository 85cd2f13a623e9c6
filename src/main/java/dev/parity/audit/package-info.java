/**
 * The audit trail: every write, and every refused one, with who, when, what and from
 * where. Append-only.
 */
@ApplicationModule(allowedDependencies = {})
@NullMarked
package dev.parity.audit;

import org.jspecify.annotations.NullMarked;

import org.springframework.modulith.ApplicationModule;
