package dev.parity.run;

import java.util.List;

/**
 * Published while a run is being stored, as its cells are read (in the storing
 * transaction, before the commit): the windows of sorted samples around their medians,
 * from which the exact laws of the medians follow. What a comparison of the run will need
 * may be computed from them at once, while the rest of the upload is read, so that a
 * comparison asked for right after the commit finds it done. A run whose upload is rolled
 * back is never stored, and its id is never used again: what was computed for it is never
 * asked for.
 *
 * @param run the run being stored
 * @param windows some of its cells' windows (each cell's in one event)
 */
public record MedianWindowsRead(RunId run, List<CellBootstraps.Row> windows) {

	public MedianWindowsRead {
		windows = List.copyOf(windows);
	}

}
