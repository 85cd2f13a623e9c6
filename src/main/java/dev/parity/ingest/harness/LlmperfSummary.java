package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.parity.run.TokenStats;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * ray llmperf's {@code *_summary.json}: flattened keys
 * ({@code results_ttft_s_quantiles_p50}, {@code results_ttft_s_mean}, …) in seconds, some
 * numbers written as strings. One cell per file (concurrency × mean prompt length). When
 * the run's {@code *_individual_responses.json} comes along, its requests become the
 * cell's samples.
 */
final class LlmperfSummary implements HarnessImporter {

	/**
	 * llmperf's flattened result prefix → catalogue (or declared) metric, and the factor
	 * to its unit.
	 */
	private static final Map<String, Conversion> METRICS = Map.of("results_ttft_s", new Conversion("ttft_s", 1),
			"results_end_to_end_latency_s", new Conversion("e2e_latency_s", 1), "results_inter_token_latency_s",
			new Conversion(Llmperf.LATENCY_PER_TOKEN, 1000), "results_request_output_throughput_token_per_s",
			new Conversion(Llmperf.REQUEST_OUTPUT_TPS, 1));

	/** The order metrics are written in: the catalogue's first. */
	private static final List<String> ORDER = List.of("results_ttft_s", "results_end_to_end_latency_s",
			"results_inter_token_latency_s", "results_request_output_throughput_token_per_s");

	@Override
	public HarnessFormat format() {
		return HarnessFormat.LLMPERF_SUMMARY;
	}

	static boolean isSummary(JsonNode node) {
		return node.isObject() && Fields.hasAny(node, "results_ttft_s_mean", "results_ttft_s_quantiles_p50",
				"results_num_completed_requests", "results_number_errors");
	}

	@Override
	public FileRole role(ParsedFile file) {
		JsonNode json = file.looksLikeJson() ? file.jsonOrNull() : null;
		if (json == null) {
			return HarnessImporter.otherFile(file);
		}
		if (isSummary(json)) {
			return FileRole.OWN;
		}
		return LlmperfResponseSet.isResponses(json) ? FileRole.COMPANION : FileRole.FOREIGN;
	}

	@Override
	public HarnessImport read(List<ParsedFile> files, @Nullable TableMapping mapping) {
		RunDraft run = new RunDraft();
		List<ParsedFile> summaries = ownFiles(files, run);
		List<ParsedFile> responses = new ArrayList<>(withRole(files, FileRole.COMPANION));
		List<Double> timestamps = new ArrayList<>();
		for (ParsedFile file : summaries) {
			JsonNode summary = file.json();
			CellDraft cell = cell(summary, file.name(), run);
			ParsedFile companion = companion(file, summaries, responses);
			if (companion != null) {
				responses.remove(companion);
				LlmperfResponseSet set = LlmperfResponseSet.of(companion.json(), companion.name());
				set.samplesInto(cell, run);
				if (set.completed() != nullToMinus(cell.completed()) || set.failed() != nullToMinus(cell.failed())) {
					run.reading(new CountReading(cell.label(), "summary", cell.completed(), cell.failed(), null, true));
					run.reading(new CountReading(cell.label(), "individual responses", set.completed(), set.failed(),
							null, false));
					run.note(cell.source()
							+ ": the summary and the responses count differently; the cell keeps the summary's");
				}
			}
			run.cell(cell);
			timestamps.add(Fields.number(summary, "timestamp"));
			run.recordedAt(RecordedAt.ofEpochSeconds(Fields.number(summary, "timestamp")));
		}
		for (ParsedFile unmatched : responses) {
			run.note(unmatched.name() + ": individual responses not matched to a summary (by file name): not read");
		}
		if (!timestamps.isEmpty()) {
			run.note("recorded_at: the time llmperf wrote the summary (its 'timestamp', at the end of the run)");
		}
		ExecutionOrder.byTimestamps(run.cells(), timestamps, run);
		return run.toImport();
	}

	private static @Nullable ParsedFile companion(ParsedFile summary, List<ParsedFile> summaries,
			List<ParsedFile> responses) {
		if (summaries.size() == 1 && responses.size() == 1) {
			return responses.get(0);
		}
		String name = summary.name();
		String prefix = name.endsWith("_summary.json") ? name.substring(0, name.length() - "_summary.json".length())
				: name;
		return responses.stream()
			.filter(candidate -> candidate.name().equals(prefix + "_individual_responses.json"))
			.findFirst()
			.orElse(null);
	}

	private static CellDraft cell(JsonNode summary, String source, RunDraft run) {
		CellDraft cell = new CellDraft(source);
		Integer concurrency = Fields.integer(summary, "num_concurrent_requests");
		if (concurrency != null) {
			cell.param("concurrency", concurrency);
		}
		Double prompt = Fields.number(summary, "mean_input_tokens");
		if (prompt != null) {
			cell.param("prompt_tokens", prompt);
			Double spread = Fields.number(summary, "stddev_input_tokens");
			if (spread != null && spread > 0) {
				run.note(source + ": prompt_tokens is llmperf's mean_input_tokens " + prompt.longValue()
						+ "; prompts were drawn with a standard deviation of " + spread);
			}
		}
		Integer completed = Fields.integer(summary, "results_num_completed_requests");
		cell.requests(completed, Fields.integer(summary, "results_number_errors"), null);
		run.note("llmperf does not record cancelled requests: the cancelled count is unknown");
		for (String prefix : ORDER) {
			Conversion conversion = METRICS.get(prefix);
			cell.metric(conversion.metric(), statistics(summary, prefix, conversion.factor()));
		}
		cell.outputTokens(tokens(summary));
		cell.metric("throughput_tps", Fields.number(summary, "results_mean_output_throughput_token_per_s"));
		Double perMinute = Fields.number(summary, "results_num_completed_requests_per_min");
		cell.metric("request_throughput", perMinute == null ? null : perMinute / 60);
		if (completed != null && completed == 0) {
			cell.withoutMetricsWhenNothingCompleted();
		}
		Llmperf.provenance(run, source);
		ModelName.state(run, Fields.text(summary, "model"), "model", source);
		Double output = Fields.number(summary, "mean_output_tokens");
		Double outputSpread = Fields.number(summary, "stddev_output_tokens");
		if (output != null && (outputSpread == null || outputSpread == 0)) {
			run.state("workload.output_tokens", output, source);
		}
		else if (output != null) {
			run.note(source + ": mean_output_tokens " + output + " with a standard deviation of " + outputSpread
					+ " is not one per-request length: workload.output_tokens is left out");
		}
		return cell;
	}

	private static Statistics statistics(JsonNode summary, String prefix, double factor) {
		Statistics.Builder statistics = Statistics.builder();
		summary.forEachEntry((key, value) -> {
			if (!key.startsWith(prefix + "_")) {
				return;
			}
			String statistic = key.substring(prefix.length() + 1).replace("quantiles_", "");
			Double number = Fields.number(value);
			statistics.put(statistic, number == null ? null : number * factor);
		});
		return statistics.build().inDocumentOrder();
	}

	private static @Nullable TokenStats tokens(JsonNode summary) {
		String prefix = "results_number_output_tokens_";
		TokenStats stats = new TokenStats(Fields.number(summary, prefix + "quantiles_p50"),
				Fields.number(summary, prefix + "min"), Fields.number(summary, prefix + "max"),
				Fields.number(summary, prefix + "mean"));
		return stats.isEmpty() ? null : stats;
	}

	private static int nullToMinus(@Nullable Integer count) {
		return count == null ? -1 : count;
	}

	/**
	 * A catalogue (or declared) metric and the whole-number factor from llmperf's unit to
	 * it (s to ms is 1000).
	 */
	private record Conversion(String metric, double factor) {
	}

}
