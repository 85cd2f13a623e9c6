package dev.parity.stats;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * The Benjamini–Hochberg adjustment of p-values for the false discovery rate: many cells
 * × metrics tested at once would otherwise call some of them significant by chance alone.
 */
public final class BenjaminiHochberg {

	/** An adjusted p-value at or below this is significant. */
	public static final double FALSE_DISCOVERY_RATE = 0.05;

	private BenjaminiHochberg() {
	}

	/**
	 * Adjusted p-values, in the order given: p(i) · m / rank(i), made monotone from the
	 * largest down, at most 1.
	 */
	public static double[] adjust(double[] pValues) {
		int m = pValues.length;
		Integer[] byP = IntStream.range(0, m).boxed().toArray(Integer[]::new);
		Arrays.sort(byP, Comparator.comparingDouble(i -> pValues[i]));
		double[] adjusted = new double[m];
		double smallestSoFar = 1;
		for (int rank = m; rank >= 1; rank--) {
			int i = byP[rank - 1];
			smallestSoFar = Math.min(smallestSoFar, pValues[i] * m / rank);
			adjusted[i] = smallestSoFar;
		}
		return adjusted;
	}

}
