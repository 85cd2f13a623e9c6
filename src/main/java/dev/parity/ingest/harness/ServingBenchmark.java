package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.parity.run.TokenStats;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What vLLM's {@code bench serve} and SGLang's {@code bench_serving} (its descendant)
 * write alike: summaries in milliseconds ({@code median_ttft_ms}, {@code p99_e2el_ms},
 * …), aggregate throughputs, and, with details saved, per-request arrays in seconds
 * ({@code ttfts}, {@code itls}, {@code output_lens}, {@code errors}, …).
 */
final class ServingBenchmark {

	private static final Pattern SUMMARY = Pattern
		.compile("(mean|median|std|p\\d{1,2}(?:\\.\\d++)?+)_(ttft|tpot|itl|e2el|e2e_latency)_ms");

	private ServingBenchmark() {
	}

	/**
	 * The latency statistics (converted to catalogue units) and the aggregate
	 * throughputs.
	 */
	static void metrics(JsonNode result, CellDraft cell) {
		Map<String, Statistics.Builder> latencies = new LinkedHashMap<>();
		result.forEachEntry((key, value) -> {
			Matcher matcher = SUMMARY.matcher(key);
			Double number = Fields.number(value);
			if (matcher.matches() && number != null) {
				String metric = switch (matcher.group(2)) {
					case "ttft" -> "ttft_s";
					case "tpot" -> "tpot_ms";
					case "itl" -> "itl_ms";
					default -> "e2e_latency_s";
				};
				double converted = metric.endsWith("_s") ? number / 1000 : number;
				latencies.computeIfAbsent(metric, name -> Statistics.builder()).put(matcher.group(1), converted);
			}
		});
		for (String metric : List.of("ttft_s", "tpot_ms", "itl_ms", "e2e_latency_s")) {
			Statistics.Builder statistics = latencies.get(metric);
			if (statistics != null) {
				cell.metric(metric, statistics.build().inDocumentOrder());
			}
		}
		cell.metric("throughput_tps", Fields.number(result, "output_throughput"));
		cell.metric("request_throughput", Fields.number(result, "request_throughput"));
	}

	/** Keys only SGLang writes: what tells its results from vLLM's. */
	static boolean hasSglangKeys(JsonNode node) {
		return Fields.hasAny(node, "mean_e2e_latency_ms", "median_e2e_latency_ms", "total_output_tokens_retokenized",
				"sharegpt_output_len", "random_range_ratio", "accept_length", "server_info");
	}

	/** Whether the result carries per-request arrays. */
	static boolean hasDetails(JsonNode result) {
		return result.path("ttfts").isArray() && result.path("output_lens").isArray();
	}

	/**
	 * Samples from the per-request arrays (seconds): failed where {@code errors[i]} is
	 * non-empty; the end-to-end latency is {@code latencies[i]} where written, otherwise
	 * derived as the harness derives it (TTFT + the sum of the request's inter-token
	 * latencies); TPOT = (latency − TTFT) / (output − 1). Also sets the cell's output
	 * tokens from the completed requests' lengths.
	 */
	static void samples(JsonNode result, CellDraft cell, RunDraft run, String harness) {
		samples(result, cell, run, harness, false);
	}

	/**
	 * Samples as {@link #samples(JsonNode, CellDraft, RunDraft, String)}; with
	 * {@code noOutputFails}, a request with no output, no first token and an empty error
	 * ({@code output_lens} 0, {@code ttfts} 0) is a failed sample, not a completed one.
	 * @return the numbers (from 1) of the requests failed for having no output
	 */
	static List<Integer> samples(JsonNode result, CellDraft cell, RunDraft run, String harness, boolean noOutputFails) {
		List<@Nullable Double> ttfts = Fields.numbersOrNull(result.get("ttfts"));
		List<@Nullable Double> outputs = Fields.numbersOrNull(result.get("output_lens"));
		List<@Nullable Double> starts = Fields.numbersOrNull(result.get("start_times"));
		List<@Nullable Double> latencies = Fields.numbersOrNull(result.get("latencies"));
		JsonNode itls = result.path("itls");
		JsonNode errors = result.path("errors");
		List<Double> completedOutputs = new ArrayList<>();
		List<Integer> zeroTtft = new ArrayList<>();
		List<Integer> noOutput = new ArrayList<>();
		for (int i = 0; i < ttfts.size(); i++) {
			String error = errors.path(i).isString() ? errors.path(i).stringValue().trim() : "";
			if (!error.isEmpty()) {
				cell.sample(new SampleDraft(SampleDraft.FAILED));
				continue;
			}
			Double output = i < outputs.size() ? outputs.get(i) : null;
			Double ttft = ttfts.get(i);
			if (noOutputFails && output != null && output == 0 && (ttft == null || ttft <= 0)) {
				noOutput.add(i + 1);
				cell.sample(new SampleDraft(SampleDraft.FAILED));
				continue;
			}
			SampleDraft sample = SampleDraft.ok().outputTokens(output);
			if (output != null) {
				completedOutputs.add(output);
			}
			if (ttft == null || ttft <= 0) {
				// A completed request cannot have a first token at 0 s: the harness wrote
				// a placeholder.
				zeroTtft.add(i + 1);
			}
			else {
				sample.metric("ttft_s", ttft);
				List<Double> gaps = Fields.numbers(itls.path(i));
				Double recorded = i < latencies.size() ? latencies.get(i) : null;
				double latency = recorded != null ? recorded
						: ttft + gaps.stream().mapToDouble(Double::doubleValue).sum();
				double decoding = latency - ttft;
				sample.metric("e2e_latency_s", latency);
				if (output != null && output > 1) {
					sample.metric("tpot_ms", decoding / (output - 1) * 1000);
				}
				Double start = i < starts.size() ? starts.get(i) : null;
				sample.finishedAt(start == null ? null : start + latency);
			}
			cell.sample(sample);
		}
		if (!zeroTtft.isEmpty()) {
			run.note(cell.source() + ": " + zeroTtft.size() + " completed request(s) (#" + join(zeroTtft)
					+ ") have TTFT written as 0.0 by " + harness + ": kept as completed, their TTFT absent");
		}
		if (cell.orderSamplesByCompletion()) {
			run.note(cell.source() + ": samples in completion order (start_times + latency)");
		}
		else {
			run.note(cell.source() + ": samples in the order " + harness + " wrote its per-request arrays (the order"
					+ " requests were sent; completion times are not recorded for all)");
		}
		TokenStats tokens = Distribution.of(completedOutputs).tokens();
		cell.outputTokens(tokens);
		return noOutput;
	}

	/**
	 * Replaces the latency statistics and the request throughput of a cell whose
	 * summaries counted requests that failed: recomputed from its successful samples (and
	 * their inter-token latencies), with the statistics the file summarised. Call after
	 * {@link #samples}, whose samples follow the per-request arrays one for one.
	 */
	static void recomputeFromSuccesses(JsonNode result, CellDraft cell) {
		List<SampleDraft> samples = cell.samples();
		Map<String, List<Double>> values = new LinkedHashMap<>();
		JsonNode itls = result.path("itls");
		for (int i = 0; i < samples.size(); i++) {
			SampleDraft sample = samples.get(i);
			if (!SampleDraft.OK.equals(sample.status())) {
				continue;
			}
			for (String metric : List.of("ttft_s", "tpot_ms", "e2e_latency_s")) {
				Double value = sample.metric(metric);
				if (value != null) {
					values.computeIfAbsent(metric, name -> new ArrayList<>()).add(value);
				}
			}
			for (Double gap : Fields.numbers(itls.path(i))) {
				values.computeIfAbsent("itl_ms", name -> new ArrayList<>()).add(gap * 1000);
			}
		}
		for (String metric : List.of("ttft_s", "tpot_ms", "itl_ms", "e2e_latency_s")) {
			Statistics summarised = cell.metrics().get(metric);
			List<Double> metricValues = values.getOrDefault(metric, List.of());
			if (summarised == null || metricValues.isEmpty()) {
				continue;
			}
			Distribution distribution = Distribution.of(metricValues);
			Statistics.Builder statistics = Statistics.builder();
			for (String statistic : summarised.values().keySet()) {
				statistics.put(statistic, switch (statistic) {
					case "mean" -> distribution.mean();
					case "median" -> distribution.median();
					case "std" -> distribution.std();
					case "min" -> distribution.percentile(0);
					case "max" -> distribution.percentile(100);
					default -> distribution.percentile(Double.parseDouble(statistic.substring(1)));
				});
			}
			cell.metric(metric, statistics.build().inDocumentOrder());
		}
		Double duration = Fields.number(result, "duration");
		long completed = samples.stream().filter(sample -> SampleDraft.OK.equals(sample.status())).count();
		if (duration != null && duration > 0 && cell.metrics().containsKey("request_throughput")) {
			cell.metric("request_throughput", completed / duration);
		}
	}

	/**
	 * The mean output tokens of completed requests, from the totals, when no per-request
	 * lengths exist.
	 */
	static @Nullable TokenStats meanOutputTokens(JsonNode result) {
		Double total = Fields.number(result, "total_output_tokens");
		Integer completed = Fields.integer(result, "completed");
		if (total == null || completed == null || completed == 0) {
			return null;
		}
		return new TokenStats(null, null, null, total / completed);
	}

	/**
	 * What the per-request arrays say of a cell's requests; {@code recomputed} when they
	 * overrule the file's count.
	 */
	record Outcomes(int succeeded, int unsuccessful, boolean recomputed) {
	}

	/**
	 * Reads the per-request arrays into samples (a request with no output, no first token
	 * and no error failed) and, where the harness's own completed count disagrees with
	 * them, recomputes the cell's statistics from the successful requests — each with a
	 * note naming the harness.
	 */
	static Outcomes outcomes(JsonNode result, CellDraft cell, RunDraft run, String harness, String source,
			@Nullable Integer completed) {
		List<Integer> noOutput = samples(result, cell, run, harness, true);
		int succeeded = (int) cell.samples().stream().filter(sample -> SampleDraft.OK.equals(sample.status())).count();
		int unsuccessful = cell.samples().size() - succeeded;
		if (!noOutput.isEmpty()) {
			run.note(source + ": " + noOutput.size() + " request(s) (#" + join(noOutput) + ") returned no output, no"
					+ " first token and no error: failed, not completed");
		}
		boolean recomputed = completed == null || completed != succeeded;
		if (recomputed) {
			recomputeFromSuccesses(result, cell);
			run.note(source + ": " + harness + " counted " + (completed == null ? "an unknown number of" : completed)
					+ " completed request(s) where its per-request arrays show " + succeeded + " successful: the counts"
					+ " (" + succeeded + " completed, " + unsuccessful + " failed), the TTFT, TPOT, ITL and end-to-end"
					+ " latency statistics and the request throughput are recomputed from the successful requests");
		}
		return new Outcomes(succeeded, unsuccessful, recomputed);
	}

	private static String join(List<Integer> numbers) {
		List<String> shown = numbers.stream().limit(10).map(String::valueOf).toList();
		return String.join(", #", shown) + (numbers.size() > 10 ? ", …" : "");
	}

}
