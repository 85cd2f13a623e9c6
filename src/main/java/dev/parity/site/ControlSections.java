package dev.parity.site;

import java.util.Map;

import dev.parity.compare.CompareSettings;
import dev.parity.snapshots.ComparisonService;
import dev.parity.snapshots.ComparisonsBusy;
import dev.parity.control.ControlPlans;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.stereotype.Component;

/**
 * The "What would settle it" section of the pages of a comparison of two single runs,
 * live or published; none for groups or fixed params, and none (rather than no page) when
 * no turn to compute the plan came in time.
 */
@Component
class ControlSections {

	private final ControlPlans plans;

	private final ComparisonService comparisons;

	private final JsonMapper json;

	ControlSections(ControlPlans plans, ComparisonService comparisons, JsonMapper json) {
		this.json = json;
		this.plans = plans;
		this.comparisons = comparisons;
	}

	@Nullable ControlSection of(ComparisonService.Pair pair, Map<String, String> query) {
		if (pair.baselineIds().size() > 1 || pair.contenderIds().size() > 1 || pair.fixesParams()) {
			return null;
		}
		CompareSettings settings = comparisons.settings(query);
		try {
			return ControlSection.of(plans.plan(pair, settings), pair.path(), QueryStrings.of(query), json);
		}
		catch (ComparisonsBusy busy) {
			return null;
		}
	}

}
