/**
 * The audit trail: every write, and every refused one, with who, when, what and from where. Append-only.
 */
@NullMarked
package dev.parity.audit;

import org.jspecify.annotations.NullMarked;
