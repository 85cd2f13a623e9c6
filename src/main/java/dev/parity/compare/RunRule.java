package dev.parity.compare;

import java.util.List;

/**
 * A run check about the run as a whole (e.g. {@code unpinned}); its flags go on the run's
 * banner.
 */
interface RunRule {

	List<Flag> check(RunContext context);

}
