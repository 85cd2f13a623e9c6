package dev.parity.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.parity.run.MetricValue;
import org.jspecify.annotations.Nullable;

/**
 * {@code statistic-missing}: a side reports the metric but not the compared statistic.
 * Greys that metric: a mean is never compared with a median. (A metric absent altogether
 * counts as {@code missing-value} in the headline.)
 */
final class StatisticMissing implements MetricRule, Remedy {

	static final String ID = "statistic-missing";

	@Override
	public String id() {
		return ID;
	}

	/**
	 * The compared statistic reported by the rerun side; a side no control reruns that
	 * lacks it stays.
	 */
	@Override
	public void settle(Settling plan) {
		String stat = plan.settings().stat();
		for (Settling.Found found : plan.found(ID)) {
			if (found.anchor() == null) {
				continue;
			}
			for (String metric : found.flag().greys()) {
				for (String side : List.of(Flag.BASELINE, Flag.CONTENDER)) {
					boolean lacks = plan.cell(side, found.anchor())
						.map(cell -> cell.metrics().get(metric))
						.filter(value -> value.statistic(stat).isEmpty())
						.isPresent();
					if (!lacks) {
						continue;
					}
					if (plan.reruns(side)) {
						plan.change(ID, "cells[].metrics." + metric + "." + stat, null, stat, "report the " + stat
								+ " of " + metric + " in every cell (a mean never stands in for a median)");
					}
					else {
						plan.cannot(ID, plan.name(side) + " reports no " + stat + " of " + metric
								+ ": no rerun of the other side adds it — compare a statistic both report (stat=…)");
					}
				}
			}
		}
	}

	@Override
	public List<Flag> check(MetricPair pair, ComparisonContext context) {
		String stat = context.settings().stat();
		List<String> lacking = new ArrayList<>();
		describe(Flag.BASELINE, pair.baseline(), stat).ifPresent(lacking::add);
		describe(Flag.CONTENDER, pair.contender(), stat).ifPresent(lacking::add);
		if (lacking.isEmpty()) {
			return List.of();
		}
		String sides = lacking.size() == 2 ? "either side"
				: lacking.get(0).startsWith("the " + Flag.BASELINE) ? Flag.BASELINE : Flag.CONTENDER;
		return List.of(Flag.greying(ID, "no " + stat + " on " + sides,
				pair.metric() + " has no " + stat + " on " + String.join(" nor on ", lacking)
						+ ", and no other statistic stands in for it — compare a statistic both sides report (stat=…)",
				List.of(pair.metric())));
	}

	/**
	 * "the baseline (it reports median, mean)" when a side reports the metric without the
	 * statistic.
	 */
	private static Optional<String> describe(String side, @Nullable MetricValue value, String stat) {
		if (value == null || value.statistic(stat).isPresent()) {
			return Optional.empty();
		}
		return Optional.of("the " + side + " (it reports " + String.join(", ", value.statistics().keySet()) + ")");
	}

}
