package dev.parity.run;

import org.jspecify.annotations.Nullable;

/**
 * Measured tokens per request in a cell (output or reasoning): any of median, min, max,
 * mean.
 */
public record TokenStats(@Nullable Double median, @Nullable Double min, @Nullable Double max, @Nullable Double mean) {

	public boolean isEmpty() {
		return median == null && min == null && max == null && mean == null;
	}

}
