package dev.parity.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.parity.run.Provenance;
import org.jspecify.annotations.Nullable;

/**
 * What differs between two runs' provenance, field by field, decided once for every
 * field: "differs" needs a value on both sides; a value on one side only is unknown and
 * triggers nothing, except for the checkpoint. The rules of the comparison then say what
 * each triggered difference means.
 */
final class ProvenanceDiff {

	private ProvenanceDiff() {
	}

	static List<ProvenanceDifference> between(Provenance baseline, Provenance contender, CompareSettings settings) {
		List<ProvenanceDifference> rows = new ArrayList<>();
		rows.add(row("system.name", baseline.system().name(), contender.system().name(), "system-differs"));
		rows.add(row("system.hardware", baseline.system().hardware(), contender.system().hardware(), null));
		rows.add(row("model.repo", baseline.model().repo(), contender.model().repo(), null));
		rows.add(row("model.revision", baseline.model().revision(), contender.model().revision(), null));
		rows.add(commit(baseline.model(), contender.model()));
		rows.add(row("engine.name", baseline.engine().name(), contender.engine().name(), "engine-differs"));
		rows.add(row("engine.version", baseline.engine().version(), contender.engine().version(), "versions-differ"));
		rows.addAll(flags(baseline.engine(), contender.engine(), settings));
		rows.add(row("harness.name", baseline.harness().name(), contender.harness().name(), "harness-differs"));
		rows.add(
				row("harness.version", baseline.harness().version(), contender.harness().version(), "versions-differ"));
		Provenance.Workload declared = baseline.workload();
		Provenance.Workload other = contender.workload();
		rows.add(row("workload.dataset", declared.dataset(), other.dataset(), "dataset-differs"));
		rows.add(row("workload.output_tokens", declared.outputTokens(), other.outputTokens(), null));
		rows.add(row("workload.reasoning", declared.reasoning(), other.reasoning(), "params-differ"));
		rows.add(row("workload.request_params", declared.requestParams(), other.requestParams(), "params-differ"));
		rows.add(warmup(declared.warmupRequests(), other.warmupRequests()));
		rows.addAll(EnvironmentDiffers.rows(baseline.environment(), contender.environment()));
		return rows;
	}

	private static ProvenanceDifference commit(Provenance.Model baseline, Provenance.Model contender) {
		ProvenanceDifference row = row("model.commit", baseline.commit(), contender.commit(), CheckpointDiffers.ID);
		return row.status().equals(ProvenanceDifference.UNKNOWN) ? withRule(row, CheckpointUnknown.ID) : row;
	}

	/**
	 * Every flag either side sets, matched by normalised name; critical flags trigger
	 * their own rule.
	 */
	private static List<ProvenanceDifference> flags(Provenance.Engine baseline, Provenance.Engine contender,
			CompareSettings settings) {
		Map<String, String> names = new LinkedHashMap<>();
		Map<String, String> baselineValues = normalised(baseline.flags(), names);
		Map<String, String> contenderValues = normalised(contender.flags(), names);
		List<ProvenanceDifference> rows = new ArrayList<>();
		names.forEach((name, written) -> rows
			.add(row("engine.flags." + written, baselineValues.get(name), contenderValues.get(name),
					settings.criticalFlags().contains(name) ? CriticalFlagsDiffer.ID : FlagsDiffer.ID)));
		return rows;
	}

	private static Map<String, String> normalised(Map<String, String> flags, Map<String, String> names) {
		Map<String, String> values = new LinkedHashMap<>();
		flags.forEach((name, value) -> {
			String normalised = Provenance.Engine.normaliseFlag(name);
			names.putIfAbsent(normalised, name.replaceFirst("^-+", ""));
			values.put(normalised, value.strip());
		});
		return values;
	}

	/**
	 * Warm-up differences trigger nothing between the runs, but a side without warm-up
	 * triggers its run check.
	 */
	private static ProvenanceDifference warmup(@Nullable Integer baseline, @Nullable Integer contender) {
		ProvenanceDifference row = row("workload.warmup_requests", baseline, contender, null);
		boolean cold = baseline == null || baseline == 0 || contender == null || contender == 0;
		return cold ? withRule(row, NoWarmup.ID) : row;
	}

	private static ProvenanceDifference row(String field, @Nullable Object baseline, @Nullable Object contender,
			@Nullable String ruleWhenDiffers) {
		String status = baseline == null || contender == null ? ProvenanceDifference.UNKNOWN
				: Objects.equals(baseline, contender) ? ProvenanceDifference.SAME : ProvenanceDifference.DIFFERS;
		return new ProvenanceDifference(field, baseline == null ? null : baseline.toString(),
				contender == null ? null : contender.toString(), status,
				status.equals(ProvenanceDifference.DIFFERS) ? ruleWhenDiffers : null);
	}

	private static ProvenanceDifference withRule(ProvenanceDifference row, String rule) {
		return new ProvenanceDifference(row.field(), row.baseline(), row.contender(), row.status(), rule);
	}

}
