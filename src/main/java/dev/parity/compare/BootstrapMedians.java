package dev.parity.compare;

import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.parity.run.Cell;
import dev.parity.run.CellBootstraps;
import dev.parity.run.Run;
import dev.parity.stats.MedianLaw;

/**
 * Where a comparison finds the exact bootstrap law of a run's sample median of one cell ×
 * metric ({@link MedianLaw}): from the window of sorted samples stored at upload, or from
 * the cell's samples ({@link #FROM_SAMPLES}), which gives the same law.
 */
@FunctionalInterface
public interface BootstrapMedians {

	/** Computes it from the run's samples now. */
	BootstrapMedians FROM_SAMPLES = (run, cell, metric) -> SampleMedians.law(cell, metric);

	/**
	 * None at all, so no interval over samples: for comparisons read only for their flags
	 * (the checks between consecutive runs of a series).
	 */
	BootstrapMedians NONE = (run, cell, metric) -> null;

	/**
	 * The law of the median of the cell × metric's samples resampled; {@code null} when
	 * the cell has fewer than {@code Noise.MIN_SAMPLES} samples of the metric.
	 */
	@Nullable MedianLaw of(Run run, Cell cell, String metric);

	/**
	 * The stored windows where there are some, else computed from the samples (the same
	 * law).
	 */
	public static BootstrapMedians stored(Map<CellBootstraps.Key, CellBootstraps.Window> stored) {
		return (run, cell, metric) -> {
			CellBootstraps.Window window = stored.get(new CellBootstraps.Key(run.id().value(), cell.anchor(), metric));
			return window != null ? SampleMedians.law(window) : SampleMedians.law(cell, metric);
		};
	}

}
