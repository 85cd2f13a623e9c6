package dev.parity.compare;

import dev.parity.run.Cell;
import dev.parity.run.Run;
import dev.parity.stats.Noise;
import dev.parity.stats.Seed;

/**
 * Where a comparison finds a run's bootstrap medians of one cell × metric: stored at ingest, or computed from the
 * cell's samples the same way ({@link #fromSamples}), which gives the same numbers.
 */
@FunctionalInterface
public interface BootstrapMedians {

	/** Computes them from the run's samples now. */
	BootstrapMedians FROM_SAMPLES = BootstrapMedians::compute;

	/**
	 * The run's bootstrap medians of the cell × metric: {@link Noise#RESAMPLES} values, or none when the cell has
	 * fewer than {@link Noise#MIN_SAMPLES} samples of the metric.
	 */
	double[] of(Run run, Cell cell, String metric);

	/** The medians a run gets at ingest, seeded from the run id, the cell's anchor and the metric. */
	static double[] compute(String runId, Cell cell, String metric) {
		return Noise.bootstrapMedians(cell.sampleValues(metric), Seed.of(runId, cell.anchor(), metric, "median"));
	}

	private static double[] compute(Run run, Cell cell, String metric) {
		return compute(run.id().value(), cell, metric);
	}

}
