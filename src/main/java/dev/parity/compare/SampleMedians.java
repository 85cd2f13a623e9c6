package dev.parity.compare;

import java.util.Arrays;

import org.jspecify.annotations.Nullable;

import dev.parity.run.Cell;
import dev.parity.run.CellBootstraps;
import dev.parity.stats.MedianLaw;
import dev.parity.stats.Noise;

import org.springframework.stereotype.Component;

/**
 * The sorted samples of one cell × metric around their median, as ingest stores them and
 * as a comparison computes them when none are stored: the completed samples' values of
 * the ranks the exact bootstrap law of their median needs ({@link MedianLaw#ranks}); none
 * with fewer than {@link Noise#MIN_SAMPLES} samples.
 */
@Component
public class SampleMedians implements CellBootstraps.Medians {

	@Override
	public CellBootstraps.@Nullable Window of(Cell cell, String metric) {
		return window(cell.sampleValues(metric));
	}

	/** The window of these samples, in any order; {@code null} with too few. */
	public static CellBootstraps.@Nullable Window window(double[] samples) {
		if (samples.length < Noise.MIN_SAMPLES) {
			return null;
		}
		double[] sorted = samples.clone();
		Arrays.sort(sorted);
		MedianLaw.Ranks ranks = MedianLaw.ranks(sorted.length);
		return new CellBootstraps.Window(sorted.length, ranks.first(),
				Arrays.copyOfRange(sorted, ranks.first(), ranks.last() + 1));
	}

	/**
	 * The law of the median of the cell's samples resampled; {@code null} with too few.
	 */
	public static @Nullable MedianLaw law(Cell cell, String metric) {
		return law(window(cell.sampleValues(metric)));
	}

	/** The law of a stored window; {@code null} without one. */
	public static @Nullable MedianLaw law(CellBootstraps.@Nullable Window window) {
		return window == null ? null : MedianLaw.of(window.samples(), window.first(), window.values());
	}

}
