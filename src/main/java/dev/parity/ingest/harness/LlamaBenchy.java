package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * llama-benchy's {@code --format json}: one cell per entry of {@code benchmarks} (prompt
 * size × concurrency, at a context depth), in the order they ran. Each metric gives a
 * mean, a std and its {@code values}, one per repetition (per request at concurrency > 1)
 * in order: they become the samples, and the median is computed from them. Times are in
 * ms, rates in tokens/s. llama-benchy drops errored requests without counting them, so
 * failed and cancelled are unknown.
 */
final class LlamaBenchy implements HarnessImporter {

	/**
	 * llama-benchy metric → catalogue metric, with the unit llama-benchy writes it in.
	 */
	private static final Map<String, Conversion> METRICS = metrics();

	private static Map<String, Conversion> metrics() {
		Map<String, Conversion> metrics = new LinkedHashMap<>();
		metrics.put("e2e_ttft", new Conversion("ttft_s", MetricUnit.MILLISECONDS));
		metrics.put("pp_req_throughput", new Conversion("prefill_tps", MetricUnit.TOKENS_PER_SECOND));
		metrics.put("tg_req_throughput", new Conversion("decode_tps", MetricUnit.TOKENS_PER_SECOND));
		return metrics;
	}

	@Override
	public HarnessFormat format() {
		return HarnessFormat.LLAMA_BENCHY;
	}

	static boolean isReport(JsonNode node) {
		if (!node.isObject() || !node.path("benchmarks").isArray()) {
			return false;
		}
		JsonNode first = node.path("benchmarks").path(0);
		return Fields.hasAny(node, "latency_mode", "prefix_caching_enabled")
				|| Fields.hasAny(first, "pp_throughput", "tg_throughput", "e2e_ttft", "est_ppt");
	}

	@Override
	public FileRole role(ParsedFile file) {
		JsonNode json = file.looksLikeJson() ? file.jsonOrNull() : null;
		if (json == null) {
			return HarnessImporter.otherFile(file);
		}
		return isReport(json) ? FileRole.OWN : FileRole.FOREIGN;
	}

	@Override
	public HarnessImport read(List<ParsedFile> files, @Nullable TableMapping mapping) {
		RunDraft run = new RunDraft();
		for (ParsedFile file : ownFiles(files, run)) {
			JsonNode report = file.json();
			run.state("harness.name", "llama-benchy", file.name());
			run.state("harness.version", Fields.text(report, "version"), file.name());
			run.recordedAt(RecordedAt.ofText(Fields.text(report, "timestamp"), "timestamp", file.name(), run));
			ModelName.state(run, Fields.text(report, "model"), "model", file.name());
			JsonNode benchmarks = report.path("benchmarks");
			boolean contexts = false;
			boolean responsesVary = false;
			Double response = null;
			for (JsonNode benchmark : benchmarks) {
				contexts |= Fields.number(benchmark, "context_size") != null
						&& Fields.number(benchmark, "context_size") > 0
						|| benchmark.path("is_context_prefill_phase").asBoolean(false);
				Double size = Fields.number(benchmark, "response_size");
				responsesVary |= response != null && size != null && !response.equals(size);
				response = response == null ? size : response;
			}
			List<CellDraft> cells = new ArrayList<>();
			for (int i = 0; i < benchmarks.size(); i++) {
				cells
					.add(cell(benchmarks.get(i), file.name() + " benchmarks[" + i + "]", contexts, responsesVary, run));
			}
			if (!responsesVary && response != null) {
				run.state("workload.output_tokens", response, file.name());
			}
			ExecutionOrder.asListed(cells);
			cells.forEach(run::cell);
		}
		run.note("llama-benchy drops errored requests without counting them: failed and cancelled are unknown,"
				+ " completed is the number of measured values");
		run.note("llama-benchy does not record how many tokens each response had: output tokens unknown");
		run.note("cells in the order llama-benchy ran them (the report's order)");
		return run.toImport();
	}

	private static CellDraft cell(JsonNode benchmark, String source, boolean contexts, boolean responsesVary,
			RunDraft run) {
		CellDraft cell = new CellDraft(source);
		Double prompt = Fields.number(benchmark, "prompt_size");
		if (prompt != null) {
			cell.param("prompt_tokens", prompt);
		}
		Integer concurrency = Fields.integer(benchmark, "concurrency");
		if (concurrency != null) {
			cell.param("concurrency", concurrency);
		}
		if (contexts) {
			Double context = Fields.number(benchmark, "context_size");
			cell.param("context_tokens", context == null ? 0 : context);
			cell.param("phase",
					benchmark.path("is_context_prefill_phase").asBoolean(false) ? "context-prefill" : "prompt");
		}
		if (responsesVary && Fields.number(benchmark, "response_size") != null) {
			cell.param("output_tokens", Fields.number(benchmark, "response_size"));
		}
		Map<String, List<Double>> values = new LinkedHashMap<>();
		METRICS.forEach((name, conversion) -> {
			JsonNode metric = benchmark.get(name);
			if (metric == null || !metric.isObject()) {
				// Older reports have only the totals; at concurrency 1 they are per
				// request too.
				String total = name.replace("_req_", "_");
				metric = concurrency != null && concurrency == 1 ? benchmark.get(total) : null;
			}
			if (metric == null || !metric.isObject()) {
				return;
			}
			List<Double> converted = Fields.numbers(metric.get("values")).stream().map(conversion::apply).toList();
			values.put(conversion.metric(), converted);
			Double mean = Fields.number(metric, "mean");
			Double std = Fields.number(metric, "std");
			Statistics.Builder statistics = Statistics.builder();
			if (!converted.isEmpty()) {
				statistics.put("median", Distribution.of(converted).median());
			}
			statistics.put("mean", mean == null ? null : conversion.apply(mean))
				.put("std", std == null ? null : conversion.apply(std));
			if (!converted.isEmpty()) {
				Distribution distribution = Distribution.of(converted);
				statistics.put("min", distribution.percentile(0)).put("max", distribution.percentile(100));
			}
			cell.metric(conversion.metric(), statistics.build());
		});
		int repetitions = values.values().stream().mapToInt(List::size).max().orElse(0);
		boolean aligned = values.values().stream().allMatch(list -> list.size() == repetitions);
		if (aligned) {
			for (int i = 0; i < repetitions; i++) {
				SampleDraft sample = SampleDraft.ok();
				int index = i;
				values.forEach((metric, list) -> sample.metric(metric, list.get(index)));
				cell.sample(sample);
			}
		}
		else {
			run.note(source + ": the metrics have different numbers of values, so they cannot be paired into samples:"
					+ " no samples");
		}
		List<Double> ttfts = values.getOrDefault("ttft_s", List.of());
		int completed = !ttfts.isEmpty() ? ttfts.size() : repetitions;
		cell.requests(completed, null, null);
		return cell;
	}

	/** A llama-benchy metric's catalogue name, and the unit llama-benchy writes it in. */
	private record Conversion(String metric, MetricUnit unit) {

		double apply(double value) {
			return unit.convert(value, MetricUnit.ofCatalogueMetric(metric).orElseThrow());
		}

	}

}
