/**
 * Caveats and hypotheses written by people, with the append-only history of each hypothesis's status.
 */
@NullMarked
package dev.parity.caveat;

import org.jspecify.annotations.NullMarked;
