package dev.parity.compare;

import dev.parity.run.Cell;
import dev.parity.run.CellBootstraps;
import dev.parity.stats.Noise;
import dev.parity.stats.Seed;

import org.springframework.stereotype.Component;

/**
 * A run's bootstrap medians of one cell × metric, as ingest stores them and as a
 * comparison computes them when none are stored: {@link Noise#RESAMPLES} medians of the
 * cell's completed samples resampled, seeded from (run id, anchor, metric,
 * {@code median}); none with fewer than {@link Noise#MIN_SAMPLES} samples.
 */
@Component
public class SampleMedians implements CellBootstraps.Medians {

	@Override
	public double[] of(String runId, Cell cell, String metric) {
		return compute(runId, cell, metric);
	}

	public static double[] compute(String runId, Cell cell, String metric) {
		return Noise.bootstrapMedians(cell.sampleValues(metric), Seed.of(runId, cell.anchor(), metric, "median"));
	}

}
