package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

import dev.parity.run.TokenStats;
import org.jspecify.annotations.Nullable;

/**
 * Merges repetitions of one grid point (same params) into one cell, since params are
 * unique within a run: counts are summed; of each statistic, the mean is the mean over
 * all requests (weighted by completed requests), the min and max are the extremes, and
 * every other statistic (median, std, percentiles, single throughputs) is the median over
 * repetitions. Each repetition is kept as a sample, or, when every repetition has
 * per-request samples, those are kept.
 */
final class Repetitions {

	private Repetitions() {
	}

	static CellDraft merge(CellDraft into, List<CellDraft> repetitions, RunDraft run) {
		if (repetitions.size() == 1) {
			CellDraft only = repetitions.get(0);
			into.requests(only.completed(), only.failed(), only.cancelled())
				.outputTokens(only.outputTokens())
				.reasoningTokens(only.reasoningTokens());
			only.metrics().forEach(into::metric);
			only.samples().forEach(into::sample);
			return into;
		}
		into.requests(sum(repetitions, CellDraft::completed), sum(repetitions, CellDraft::failed),
				sum(repetitions, CellDraft::cancelled));
		List<Double> weights = repetitions.stream()
			.map(cell -> cell.completed() == null ? null : cell.completed().doubleValue())
			.toList();
		into.outputTokens(tokens(repetitions.stream().map(CellDraft::outputTokens).toList(), weights));
		into.reasoningTokens(tokens(repetitions.stream().map(CellDraft::reasoningTokens).toList(), weights));
		Set<String> metrics = new LinkedHashSet<>();
		repetitions.forEach(cell -> metrics.addAll(cell.metrics().keySet()));
		for (String metric : metrics) {
			into.metric(metric, statistics(metric, repetitions, weights));
		}
		boolean perRequest = repetitions.stream().allMatch(cell -> !cell.samples().isEmpty());
		if (perRequest) {
			repetitions.forEach(cell -> cell.samples().forEach(into::sample));
		}
		else {
			repetitions.forEach(cell -> into.sample(summary(cell)));
		}
		run.note(into.source() + ": " + repetitions.size() + " repetitions of " + into.label()
				+ " merged into one cell: counts summed, means over all requests, min/max the extremes, every other"
				+ " statistic the median over repetitions; "
				+ (perRequest ? "their requests kept as samples" : "each repetition kept as a sample"));
		return into;
	}

	/**
	 * One repetition as a sample: its status, its median (or mean) output tokens and the
	 * representative value of each metric.
	 */
	static SampleDraft summary(CellDraft repetition) {
		boolean completedSome = repetition.completed() == null ? !repetition.metrics().isEmpty()
				: repetition.completed() > 0;
		SampleDraft sample = new SampleDraft(completedSome ? SampleDraft.OK : SampleDraft.FAILED);
		TokenStats tokens = repetition.outputTokens();
		if (tokens != null) {
			sample.outputTokens(tokens.median() != null ? tokens.median() : tokens.mean());
		}
		repetition.metrics().forEach((name, statistics) -> sample.metric(name, statistics.representative()));
		return sample;
	}

	private static @Nullable Integer sum(List<CellDraft> cells, Function<CellDraft, @Nullable Integer> count) {
		int total = 0;
		for (CellDraft cell : cells) {
			Integer value = count.apply(cell);
			if (value == null) {
				return null;
			}
			total += value;
		}
		return total;
	}

	private static Statistics statistics(String metric, List<CellDraft> repetitions, List<@Nullable Double> weights) {
		Map<String, List<Double>> values = new LinkedHashMap<>();
		Map<String, List<@Nullable Double>> valueWeights = new LinkedHashMap<>();
		boolean single = true;
		for (int i = 0; i < repetitions.size(); i++) {
			Statistics statistics = repetitions.get(i).metrics().get(metric);
			if (statistics == null) {
				continue;
			}
			single &= statistics.single();
			for (Map.Entry<String, Double> entry : statistics.values().entrySet()) {
				values.computeIfAbsent(entry.getKey(), name -> new ArrayList<>()).add(entry.getValue());
				valueWeights.computeIfAbsent(entry.getKey(), name -> new ArrayList<>()).add(weights.get(i));
			}
		}
		if (single && values.containsKey("median")) {
			return Statistics.single(Distribution.of(values.get("median")).median());
		}
		Statistics.Builder merged = Statistics.builder();
		values
			.forEach((statistic, list) -> merged.put(statistic, combine(statistic, list, valueWeights.get(statistic))));
		return merged.build();
	}

	private static @Nullable TokenStats tokens(List<@Nullable TokenStats> stats, List<@Nullable Double> weights) {
		List<Double> medians = new ArrayList<>();
		List<Double> mins = new ArrayList<>();
		List<Double> maxes = new ArrayList<>();
		List<Double> means = new ArrayList<>();
		List<@Nullable Double> meanWeights = new ArrayList<>();
		for (int i = 0; i < stats.size(); i++) {
			TokenStats tokens = stats.get(i);
			if (tokens == null) {
				continue;
			}
			addIfPresent(medians, tokens.median());
			addIfPresent(mins, tokens.min());
			addIfPresent(maxes, tokens.max());
			if (tokens.mean() != null) {
				means.add(tokens.mean());
				meanWeights.add(weights.get(i));
			}
		}
		TokenStats merged = new TokenStats(combine("median", medians, null), combine("min", mins, null),
				combine("max", maxes, null), combine("mean", means, meanWeights));
		return merged.isEmpty() ? null : merged;
	}

	private static void addIfPresent(List<Double> list, @Nullable Double value) {
		if (value != null) {
			list.add(value);
		}
	}

	private static @Nullable Double combine(String statistic, List<Double> values,
			@Nullable List<@Nullable Double> weights) {
		if (values.isEmpty()) {
			return null;
		}
		Distribution distribution = Distribution.of(values);
		return switch (statistic) {
			case "min" -> distribution.percentile(0);
			case "max" -> distribution.percentile(100);
			case "mean" -> weightedMean(values, weights);
			default -> distribution.median();
		};
	}

	private static double weightedMean(List<Double> values, @Nullable List<@Nullable Double> weights) {
		if (weights == null || weights.size() != values.size() || weights.stream().anyMatch(Objects::isNull)) {
			return Distribution.of(values).mean();
		}
		double sum = 0;
		double total = 0;
		for (int i = 0; i < values.size(); i++) {
			sum += values.get(i) * weights.get(i);
			total += weights.get(i);
		}
		return total == 0 ? Distribution.of(values).mean() : sum / total;
	}

}
