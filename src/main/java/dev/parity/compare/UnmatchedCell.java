package dev.parity.compare;

import dev.parity.run.Params;

/**
 * A cell present on one side only: shown apart, never compared, outside every headline.
 *
 * @param side {@code baseline} or {@code contender}
 * @param params the cell's grid coordinates
 * @param anchor its anchor
 */
public record UnmatchedCell(String side, Params params, String anchor) {
}
