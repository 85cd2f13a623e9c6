package dev.parity.compare;

import java.util.List;

/**
 * {@code implausible-ratio}: a ratio beyond the implausible factor either way (or against
 * a zero baseline). Greys that metric of that cell: check the other side before believing
 * it.
 */
final class ImplausibleRatio implements MetricRule, Remedy {

	static final String ID = "implausible-ratio";

	@Override
	public String id() {
		return ID;
	}

	/**
	 * Not a confound a rerun removes: a number to check on the other side before
	 * believing it.
	 */
	@Override
	public void settle(Settling plan) {
		List<String> anchors = plan.cells(ID, null);
		if (!anchors.isEmpty()) {
			plan.cannot(ID,
					"ratios beyond " + Figures.factor(plan.settings().implausible()) + " at "
							+ String.join(", ", anchors)
							+ " are not a confound a rerun removes: check both sides' numbers there "
							+ "before believing them");
		}
	}

	@Override
	public List<Flag> check(MetricPair pair, ComparisonContext context) {
		String stat = context.settings().stat();
		Double baseline = pair.baselineValue(stat);
		Double ratio = pair.ratio(stat);
		double implausible = context.settings().implausible();
		if (baseline != null && baseline == 0 && pair.contenderValue(stat) != null) {
			return List.of(Flag.greying(ID, "baseline is 0: no ratio",
					"the baseline's " + pair.metric()
							+ " is 0, so no ratio exists — check the other side before believing this",
					List.of(pair.metric())));
		}
		if (ratio == null || !(Thresholds.exceeds(ratio, implausible) || Thresholds.below(ratio, 1 / implausible))) {
			return List.of();
		}
		return List.of(Flag.greying(ID, "ratio " + Figures.ratio(ratio) + ", beyond " + Figures.factor(implausible),
				"ratio " + Figures.ratio(ratio) + " (" + Figures.change(ratio - 1) + ") is beyond "
						+ Figures.factor(implausible) + " either way — check the other side before believing this",
				List.of(pair.metric())));
	}

}
