package dev.parity.compare;

import java.util.Map;

import dev.parity.run.Cell;
import dev.parity.run.CellBootstraps;
import dev.parity.run.Run;

/**
 * Where a comparison finds a run's bootstrap medians of one cell × metric: stored at
 * ingest, or computed from the cell's samples the same way ({@link #fromSamples}), which
 * gives the same numbers.
 */
@FunctionalInterface
public interface BootstrapMedians {

	/** Computes them from the run's samples now. */
	BootstrapMedians FROM_SAMPLES = BootstrapMedians::compute;

	/**
	 * None at all, so no interval over samples: for comparisons read only for their flags
	 * (the checks between consecutive runs of a series), where resampling every cell of
	 * every pair would be wasted work.
	 */
	BootstrapMedians NONE = (run, cell, metric) -> new double[0];

	/**
	 * The run's bootstrap medians of the cell × metric: {@code Noise.RESAMPLES} values,
	 * or none when the cell has fewer than {@code Noise.MIN_SAMPLES} samples of the
	 * metric.
	 */
	double[] of(Run run, Cell cell, String metric);

	/**
	 * The stored medians where there are some, else computed from the samples (the same
	 * numbers).
	 */
	public static BootstrapMedians stored(Map<CellBootstraps.Key, double[]> stored) {
		return (run, cell, metric) -> {
			double[] medians = stored.get(new CellBootstraps.Key(run.id().value(), cell.anchor(), metric));
			return medians != null ? medians : compute(run, cell, metric);
		};
	}

	private static double[] compute(Run run, Cell cell, String metric) {
		return SampleMedians.compute(run.id().value(), cell, metric);
	}

}
