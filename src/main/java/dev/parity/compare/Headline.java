package dev.parity.compare;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import dev.parity.stats.RatioInterval;
import dev.parity.stats.Verdict;
import org.jspecify.annotations.Nullable;

/**
 * One metric's verdict over the matched cells where at least one side has a value: how
 * many are comparable, how many of those fall within the band, their median ratio, and
 * why the others are excluded.
 *
 * @param metric the metric's name
 * @param comparable cells with both values and nothing greying the metric
 * @param withinBand comparable cells with |ratio − 1| ≤ band
 * @param medianRatio the interpolated median ratio over the comparable cells;
 * {@code null} when there are none
 * @param excluded the other cells
 * @param excludedReasons each excluded cell counted under every rule that greys the
 * metric there ({@code missing-value} when none does), most frequent first; the counts
 * may add up to more than {@code excluded}
 * @param verdicts the comparable cells counted by verdict, in the order of
 * {@link Verdict}; zero counts included
 * @param medianRatioInterval the median ratio's 95 % interval; {@code null} when the runs
 * give none
 */
public record Headline(String metric, int comparable, int withinBand, @Nullable Double medianRatio, int excluded,
		Map<String, Integer> excludedReasons, Map<String, Integer> verdicts,
		@Nullable RatioInterval medianRatioInterval) {

	public Headline(String metric, int comparable, int withinBand, @Nullable Double medianRatio, int excluded,
			Map<String, Integer> excludedReasons) {
		this(metric, comparable, withinBand, medianRatio, excluded, excludedReasons, Map.of(), null);
	}

	/** The reason of an excluded cell that lacks a value without any rule greying it. */
	public static final String MISSING_VALUE = "missing-value";

	public Headline {
		excludedReasons = Collections.unmodifiableMap(new LinkedHashMap<>(excludedReasons));
		verdicts = Collections.unmodifiableMap(new LinkedHashMap<>(verdicts));
	}

	/** This headline with the median ratio's interval. */
	Headline withMedianRatioInterval(@Nullable RatioInterval interval) {
		return new Headline(metric, comparable, withinBand, medianRatio, excluded, excludedReasons, verdicts, interval);
	}

	/** The headline of one metric over the compared cells. */
	static Headline over(String metric, List<ComparedCell> cells, double band) {
		List<Double> ratios = new ArrayList<>();
		int within = 0;
		int excluded = 0;
		Map<String, Integer> reasons = new LinkedHashMap<>();
		Map<String, Integer> verdicts = new LinkedHashMap<>();
		for (Verdict verdict : Verdict.values()) {
			verdicts.put(verdict.id(), 0);
		}
		for (ComparedCell cell : cells) {
			ComparedMetric compared = cell.metric(metric).orElse(null);
			if (compared == null) {
				continue;
			}
			if (compared.comparable()) {
				ratios.add(compared.ratio());
				within += Thresholds.exceeds(Math.abs(compared.ratio() - 1), band) ? 0 : 1;
				if (compared.verdict() != null) {
					verdicts.merge(compared.verdict().id(), 1, Integer::sum);
				}
				continue;
			}
			excluded++;
			Set<String> rules = new LinkedHashSet<>();
			compared.flags().stream().filter(flag -> flag.greys(metric)).forEach(flag -> rules.add(flag.rule()));
			if (rules.isEmpty()) {
				rules.add(MISSING_VALUE);
			}
			rules.forEach(rule -> reasons.merge(rule, 1, Integer::sum));
		}
		Map<String, Integer> mostFrequentFirst = reasons.entrySet()
			.stream()
			.sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()))
			.collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
		return new Headline(metric, ratios.size(), within, ratios.isEmpty() ? null : SampleStatistics.median(ratios),
				excluded, mostFrequentFirst, verdicts, null);
	}

	/**
	 * For people:
	 * {@code decode_tps — 18 of 18 comparable cells within ±10 %, median ratio 1.011; 2 excluded
	 * (failures ×2)}.
	 */
	public String sentence(double band) {
		StringBuilder sentence = new StringBuilder(metric).append(" — ");
		if (comparable == 0 || medianRatio == null) {
			sentence.append("no comparable cells");
		}
		else {
			sentence.append(withinBand)
				.append(" of ")
				.append(comparable)
				.append(" comparable ")
				.append(comparable == 1 ? "cell" : "cells")
				.append(" within ±")
				.append(Figures.tolerance(band))
				.append(", median ratio ")
				.append(Figures.ratio(medianRatio));
		}
		if (excluded > 0) {
			sentence.append("; ")
				.append(excluded)
				.append(" excluded (")
				.append(excludedReasons.entrySet()
					.stream()
					.map(reason -> reason.getKey() + " ×" + reason.getValue())
					.collect(Collectors.joining(", ")))
				.append(')');
		}
		return sentence.toString();
	}

}
