package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.parity.run.TokenStats;
import org.jspecify.annotations.Nullable;

/**
 * Statistics computed from per-request (or per-repetition) values, for formats that give
 * the values rather than their summary. Medians and percentiles are interpolated linearly
 * between the closest ranks (as numpy does); the standard deviation is the population
 * one.
 */
final class Distribution {

	private final List<Double> sorted;

	private Distribution(List<Double> values) {
		List<Double> copy = new ArrayList<>(values);
		Collections.sort(copy);
		this.sorted = copy;
	}

	static Distribution of(List<Double> values) {
		return new Distribution(values.stream().filter(Double::isFinite).toList());
	}

	/** median, mean, std, min, max, p90, p99; empty when there are no values. */
	Statistics statistics() {
		if (sorted.isEmpty()) {
			return Statistics.builder().build();
		}
		return Statistics.builder()
			.put("median", percentile(50))
			.put("mean", mean())
			.put("std", std())
			.put("min", sorted.get(0))
			.put("max", sorted.get(sorted.size() - 1))
			.put("p90", percentile(90))
			.put("p99", percentile(99))
			.build();
	}

	/**
	 * Median, min, max and mean, as measured workloads are written; {@code null} when
	 * there are no values.
	 */
	@Nullable TokenStats tokens() {
		if (sorted.isEmpty()) {
			return null;
		}
		return new TokenStats(percentile(50), sorted.get(0), sorted.get(sorted.size() - 1), mean());
	}

	double percentile(double p) {
		double rank = p / 100 * (sorted.size() - 1);
		int below = (int) Math.floor(rank);
		int above = (int) Math.ceil(rank);
		double fraction = rank - below;
		return sorted.get(below) + (sorted.get(above) - sorted.get(below)) * fraction;
	}

	double median() {
		return percentile(50);
	}

	double mean() {
		double sum = 0;
		for (double value : sorted) {
			sum += value;
		}
		return sum / sorted.size();
	}

	double std() {
		double mean = mean();
		double squares = 0;
		for (double value : sorted) {
			squares += (value - mean) * (value - mean);
		}
		return Math.sqrt(squares / sorted.size());
	}

}
