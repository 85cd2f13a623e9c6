package dev.parity.history;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * The points of one cell × metric in series order, held as arrays: a series of 1,000 runs
 * × 20 cells has some 200 of them and 200,000 points, which as objects would cost an
 * analysis (and every read of one kept in memory) that many allocations. Read as a list
 * of {@link SeriesAnalysis.Point}, each made when it is read. Filled by the analysis,
 * then never changed: the analysis of a run appended fills a copy.
 */
final class Track extends AbstractList<SeriesAnalysis.Point> implements RandomAccess {

	private static final Object[] NONE = new Object[0];

	/** The series' run ids by index, shared by every track of one analysis. */
	private final String[] runIds;

	private int size;

	private int[] runs;

	private double[] values;

	/** The rules that grey each point; null where none does. */
	private Object[] greyedBy;

	private int[] segments;

	private boolean[] lowerIsBetter;

	Track(String[] runIds) {
		this.runIds = runIds;
		int capacity = Math.max(4, runIds.length);
		runs = new int[capacity];
		values = new double[capacity];
		greyedBy = NONE;
		segments = new int[capacity];
		lowerIsBetter = new boolean[capacity];
	}

	/**
	 * A copy of {@code from} to add the points of more runs to; {@code from} is left as
	 * it is.
	 * @param runIds the series' run ids, beginning with those of {@code from}
	 */
	Track(Track from, String[] runIds) {
		this.runIds = runIds;
		size = from.size;
		int capacity = Math.max(Math.max(4, runIds.length), size);
		runs = Arrays.copyOf(from.runs, capacity);
		values = Arrays.copyOf(from.values, capacity);
		greyedBy = from.greyedBy.length == 0 ? NONE
				: Arrays.copyOf(from.greyedBy, Math.max(from.greyedBy.length, capacity));
		segments = Arrays.copyOf(from.segments, capacity);
		lowerIsBetter = Arrays.copyOf(from.lowerIsBetter, capacity);
	}

	/**
	 * Adds the point of run {@code run} (an index into the series' runs, after those
	 * added before).
	 * @param rules the rules that grey it, empty when none does
	 */
	void add(int run, double value, List<String> rules, int segment, boolean lowerIsBetter) {
		if (size == runs.length) {
			int capacity = size * 2;
			runs = Arrays.copyOf(runs, capacity);
			values = Arrays.copyOf(values, capacity);
			segments = Arrays.copyOf(segments, capacity);
			this.lowerIsBetter = Arrays.copyOf(this.lowerIsBetter, capacity);
		}
		if (!rules.isEmpty()) {
			if (greyedBy.length <= size) {
				greyedBy = Arrays.copyOf(greyedBy, Math.max(runs.length, size + 1));
			}
			greyedBy[size] = rules;
		}
		runs[size] = run;
		values[size] = value;
		segments[size] = segment;
		this.lowerIsBetter[size] = lowerIsBetter;
		size++;
	}

	String runId(int index) {
		return runIds[runs[index]];
	}

	/** The index of the point's run in the series. */
	int run(int index) {
		return runs[index];
	}

	double value(int index) {
		return values[index];
	}

	int segment(int index) {
		return segments[index];
	}

	boolean lowerIsBetter(int index) {
		return lowerIsBetter[index];
	}

	boolean greyed(int index) {
		return index < greyedBy.length && greyedBy[index] != null;
	}

	@SuppressWarnings("unchecked")
	List<String> greyedBy(int index) {
		return greyed(index) ? (List<String>) greyedBy[index] : List.of();
	}

	@Override
	public SeriesAnalysis.Point get(int index) {
		Objects.checkIndex(index, size);
		return new SeriesAnalysis.Point(runIds[runs[index]], values[index], greyed(index), greyedBy(index));
	}

	@Override
	public int size() {
		return size;
	}

}
