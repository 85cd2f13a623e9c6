package dev.parity.ingest.harness;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;

import dev.parity.run.TokenStats;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * NVIDIA AIPerf's sweep aggregate {@code profile_export_aiperf_sweep.json}: one cell per
 * entry of {@code per_combination_metrics}. Each metric key is an AIPerf metric and a
 * statistic ({@code time_to_first_token_p99}); its {@code mean} is that statistic
 * averaged over the trials of the combination (a single trial's value when there is one).
 */
final class AiperfSweep implements HarnessImporter {

	@Override
	public HarnessFormat format() {
		return HarnessFormat.AIPERF_SWEEP;
	}

	static boolean isSweep(JsonNode node) {
		return node.isObject() && "sweep".equals(Fields.text(node, "aggregation_type"))
				&& node.path("per_combination_metrics").isArray();
	}

	@Override
	public FileRole role(ParsedFile file) {
		List<JsonNode> values = file.looksLikeJson() ? file.jsonValuesOrNull() : null;
		if (values == null) {
			return HarnessImporter.otherFile(file);
		}
		if (values.size() == 1 && isSweep(values.get(0))) {
			return FileRole.OWN;
		}
		boolean otherAiperfFile = values.stream().allMatch(AiperfRecordSet::isRecord) || (values.size() == 1
				&& (AiperfSummary.isSummary(values.get(0)) || AiperfSummary.isOtherArtifact(values.get(0))));
		return otherAiperfFile ? FileRole.IGNORABLE : FileRole.FOREIGN;
	}

	@Override
	public HarnessImport read(List<ParsedFile> files, @Nullable TableMapping mapping) {
		RunDraft run = new RunDraft();
		List<ParsedFile> own = ownFiles(files, run);
		if (own.size() > 1) {
			throw new ImportRejected(own.get(0).name() + ", " + own.get(1).name()
					+ ": one sweep aggregate describes one run; upload them one at a time");
		}
		ParsedFile file = own.get(0);
		JsonNode sweep = file.json();
		run.state("harness.name", "aiperf", file.name());
		JsonNode combinations = sweep.path("per_combination_metrics");
		Integer trials = trials(sweep, combinations.size());
		for (int i = 0; i < combinations.size(); i++) {
			run.cell(cell(combinations.get(i), file.name() + " per_combination_metrics[" + i + "]", trials, run));
		}
		if (trials != null && trials > 1) {
			run.note(file.name() + ": " + trials
					+ " trials per combination; each statistic is the mean over the trials of"
					+ " that trial's statistic (the spread across trials is left out)");
		}
		else if (trials == null) {
			run.note(file.name() + ": the number of trials per combination is not clear (num_successful_runs "
					+ sweep.path("num_successful_runs") + " over " + combinations.size()
					+ " combinations): request counts left unknown");
		}
		for (JsonNode failure : sweep.path("failed_runs")) {
			run.note(file.name() + ": a profile run failed: " + failure);
		}
		run.note(file.name() + ": the sweep aggregate does not record failed or cancelled requests: unknown");
		run.note(file.name() + ": execution order unknown (the aggregate lists combinations, not when they ran)");
		return run.toImport();
	}

	private static @Nullable Integer trials(JsonNode sweep, int combinations) {
		Integer runs = Fields.integer(sweep, "num_successful_runs");
		if (runs == null || combinations == 0 || runs % combinations != 0 || !sweep.path("failed_runs").isEmpty()) {
			return null;
		}
		return runs / combinations;
	}

	private static CellDraft cell(JsonNode combination, String source, @Nullable Integer trials, RunDraft run) {
		CellDraft cell = new CellDraft(source);
		combination.path("parameters").forEachEntry((name, value) -> {
			Double number = Fields.number(value);
			String param = switch (name) {
				case "isl", "input_sequence_length", "prompt_input_tokens_mean", "synthetic_input_tokens_mean" ->
					"prompt_tokens";
				case "osl", "output_sequence_length", "prompt_output_tokens_mean", "output_tokens_mean" ->
					"output_tokens";
				default -> name;
			};
			if (number != null) {
				cell.param(param, number);
			}
			else if (value.isString()) {
				cell.param(param, value.stringValue());
			}
		});
		JsonNode metrics = combination.path("metrics");
		cell.requests(total(metrics.get("request_count_avg"), trials), null, null);
		Map<String, Statistics.Builder> statistics = new LinkedHashMap<>();
		metrics.forEachEntry((key, metric) -> {
			int split = key.lastIndexOf('_');
			if (split < 0) {
				return;
			}
			String tag = key.substring(0, split);
			String statistic = key.substring(split + 1);
			AiperfMetrics.catalogueName(tag).ifPresent(name -> {
				DoubleUnaryOperator conversion = AiperfMetrics.conversion(name, Fields.text(metric, "unit"));
				Double mean = Fields.number(metric, "mean");
				if (conversion == null || mean == null) {
					return;
				}
				if (AiperfMetrics.aggregate(name)) {
					cell.metric(name, conversion.applyAsDouble(mean));
				}
				else {
					statistics.computeIfAbsent(name, key2 -> Statistics.builder())
						.put(statistic, conversion.applyAsDouble(mean));
				}
			});
		});
		statistics.forEach((name, builder) -> cell.metric(name, builder.build().inDocumentOrder()));
		cell.outputTokens(tokens(metrics));
		if (cell.completed() != null && cell.completed() == 0) {
			cell.withoutMetricsWhenNothingCompleted();
		}
		return cell;
	}

	/**
	 * All trials' requests: the per-trial count times the trials, when every trial had
	 * the same count.
	 */
	private static @Nullable Integer total(@Nullable JsonNode count, @Nullable Integer trials) {
		if (count == null || trials == null) {
			return null;
		}
		Double mean = Fields.number(count, "mean");
		Double min = Fields.number(count, "min");
		Double max = Fields.number(count, "max");
		if (mean == null || (min != null && max != null && !min.equals(max)) || mean != Math.rint(mean)) {
			return null;
		}
		return (int) (mean * trials);
	}

	private static @Nullable TokenStats tokens(JsonNode metrics) {
		TokenStats stats = new TokenStats(mean(metrics, "output_sequence_length_p50"),
				mean(metrics, "output_sequence_length_min"), mean(metrics, "output_sequence_length_max"),
				mean(metrics, "output_sequence_length_avg"));
		return stats.isEmpty() ? null : stats;
	}

	private static @Nullable Double mean(JsonNode metrics, String key) {
		return Fields.number(metrics.path(key), "mean");
	}

}
