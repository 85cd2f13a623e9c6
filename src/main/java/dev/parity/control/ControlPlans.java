package dev.parity.control;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import dev.parity.compare.CompareSettings;
import dev.parity.compare.Comparison;
import dev.parity.compare.ControlOutcome;
import dev.parity.compare.ControlPlan;
import dev.parity.snapshots.ComparisonService;
import dev.parity.run.Run;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.stereotype.Service;

/**
 * The control plan of a comparison of two single runs, with every control declared for
 * it: what each holds and missed, its comparison with the baseline (the headlines exactly
 * as {@code /api/compare/{baseline}...{control}} gives them, same settings) and what the
 * confounded comparison claimed over the same cells. The confounded comparison is never
 * changed: the controls are shown beside it.
 */
@Service
public class ControlPlans {

	private final ComparisonService comparisons;

	private final Controls controls;

	private final JsonMapper json;

	/**
	 * Plans kept by pair, settings and the pair's record versions (a declaration moves
	 * them on): runs are immutable, so a plan with its controls changes only with a
	 * declaration.
	 */
	private final Cache<Key, Planned> kept = Caffeine.newBuilder()
		.maximumSize(32)
		.expireAfterAccess(Duration.ofHours(1))
		.build();

	private record Key(String pair, Map<String, Object> settings, List<Long> versions) {
	}

	ControlPlans(ComparisonService comparisons, Controls controls, JsonMapper json) {
		this.comparisons = comparisons;
		this.controls = controls;
		this.json = json;
	}

	/**
	 * A plan with its controls.
	 *
	 * @param comparison the confounded comparison
	 * @param plan what would settle it
	 * @param rerun the run to make again; {@code null} when both runs are references
	 * @param controls the declared controls, the first declared first
	 */
	public record Planned(Comparison comparison, ControlPlan plan, @Nullable Run rerun, List<Checked> controls) {
	}

	/**
	 * A declared control, checked against the plan.
	 *
	 * @param run the control run
	 * @param outcome what it holds and missed, and the claim before it
	 * @param comparison the baseline compared with the control
	 * @param headlines the headlines of {@code /api/compare/{baseline}...{control}}, as
	 * that API writes them
	 * @param contradicts whether it contradicts the confounded claim (a median ratio
	 * outside the band of the control's)
	 */
	public record Checked(Run run, ControlOutcome outcome, Comparison comparison, JsonNode headlines,
			boolean contradicts) {

		/** {@code baseline...control}. */
		public String path() {
			return comparison.baseline().id().value() + "..." + run.id().value();
		}

	}

	/**
	 * @throws dev.parity.run.RunNotFoundException when a run does not exist
	 * @throws IllegalArgumentException when the pair is not two single runs, or a setting
	 * is wrong
	 */
	public Planned plan(ComparisonService.Pair pair, CompareSettings settings) {
		if (pair.baselineIds().size() > 1 || pair.contenderIds().size() > 1 || pair.fixesParams()) {
			throw new IllegalArgumentException(
					"a control plan is made for a comparison of two single runs, not " + pair.path());
		}
		// The versions before the record is read: see ComparisonService.recordVersions.
		long[] versions = comparisons.recordVersions(pair);
		Key key = new Key(pair.path(), settings.asMap(), List.of(versions[0], versions[1]));
		Planned planned = kept.getIfPresent(key);
		if (planned == null) {
			planned = compute(pair, settings);
			kept.put(key, planned);
		}
		return planned;
	}

	private Planned compute(ComparisonService.Pair pair, CompareSettings settings) {
		Comparison comparison = comparisons.comparison(pair, settings);
		ControlPlan plan = ControlPlan.of(comparison);
		Run rerun = plan.rerun() == null ? null
				: plan.rerun().side().equals("baseline") ? comparison.baseline() : comparison.contender();
		List<Checked> checked = new ArrayList<>();
		for (Controls.Declared declared : controls.of(pair.baselineId(), pair.contenderId())) {
			ComparisonService.Pair controlled = new ComparisonService.Pair(pair.baselineId(), declared.control());
			Comparison withControl = comparisons.comparison(controlled, settings);
			JsonNode headlines = json.readTree(comparisons.snapshotJson(controlled, settings)).get("headlines");
			ControlOutcome outcome = ControlOutcome.of(plan, comparison, withControl.contender(), withControl);
			checked.add(new Checked(withControl.contender(), outcome, withControl, headlines,
					outcome.contradicts(withControl)));
		}
		return new Planned(comparison, plan, rerun, checked);
	}

}
