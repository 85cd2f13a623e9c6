package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.parity.run.Params;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * SGLang's {@code python -m sglang.bench_serving --output-file}: JSON Lines, one line per
 * benchmark (appended run after run, so the file order is the execution order). Lines
 * with the same params are repetitions of one cell. With {@code --output-details} the
 * per-request arrays (seconds) become samples. Python's bare {@code Infinity} (an
 * unlimited request rate) is accepted.
 */
final class SglangBenchServing implements HarnessImporter {

	static final String HARNESS = "sglang.bench_serving";

	@Override
	public HarnessFormat format() {
		return HarnessFormat.SGLANG;
	}

	@Override
	public FileRole role(ParsedFile file) {
		List<JsonNode> values = file.looksLikeJson() ? file.jsonValuesOrNull() : null;
		if (values == null) {
			return HarnessImporter.otherFile(file);
		}
		if (!values.stream().allMatch(VllmResult::isServingResult)) {
			return FileRole.FOREIGN;
		}
		if (values.stream().anyMatch(ServingBenchmark::hasSglangKeys)) {
			return FileRole.OWN;
		}
		return FileRole.OWN_PERHAPS;
	}

	@Override
	public HarnessImport read(List<ParsedFile> files, @Nullable TableMapping mapping) {
		RunDraft run = new RunDraft();
		List<ParsedFile> own = ownFiles(files, run);
		List<Line> lines = new ArrayList<>();
		for (ParsedFile file : own) {
			List<JsonNode> values = file.jsonValues();
			for (int i = 0; i < values.size(); i++) {
				JsonNode value = values.get(i);
				String source = values.size() == 1 ? file.name() : file.name() + " line " + (i + 1);
				if (!value.isObject()) {
					throw new ImportRejected(source + ": expected a JSON object (an SGLang result)");
				}
				lines.add(new Line(value, source, file.name()));
			}
		}
		boolean outputsVary = lines.stream()
			.map(line -> String.valueOf(Fields.number(line.result(), "random_output_len")))
			.distinct()
			.count() > 1;
		List<String> datasets = lines.stream()
			.map(line -> String.valueOf(Fields.text(line.result(), "dataset_name")))
			.distinct()
			.toList();
		boolean datasetsVary = datasets.size() > 1;
		if (datasetsVary) {
			run.note("the lines use different datasets (" + String.join(", ", datasets)
					+ "): dataset is a grid param of each cell, and workload.dataset is left out");
		}
		Map<Params, List<CellDraft>> repetitions = new LinkedHashMap<>();
		Map<Params, String> sources = new LinkedHashMap<>();
		Map<Params, Map<String, Object>> paramsOf = new LinkedHashMap<>();
		for (Line line : lines) {
			CellDraft cell = cell(line, outputsVary, datasetsVary, run);
			Params params = cell.comparableParams();
			repetitions.computeIfAbsent(params, key -> new ArrayList<>()).add(cell);
			sources.putIfAbsent(params, line.source());
			paramsOf.putIfAbsent(params, cell.params());
			provenance(line, datasetsVary, run);
		}
		repetitions.forEach((params, cells) -> {
			CellDraft merged = new CellDraft(cells.size() == 1 ? sources.get(params)
					: sources.get(params) + " (and " + (cells.size() - 1) + " more line(s))");
			paramsOf.get(params).forEach(merged::param);
			run.cell(Repetitions.merge(merged, cells, run));
		});
		ExecutionOrder.asListed(run.cells());
		if (run.cells().size() > 1) {
			run.note("execution order: the order of first appearance in the file (SGLang appends one line per run)");
		}
		return run.toImport();
	}

	private static CellDraft cell(Line line, boolean outputsVary, boolean datasetsVary, RunDraft run) {
		JsonNode result = line.result();
		String source = line.source();
		CellDraft cell = new CellDraft(source);
		Integer concurrency = Fields.integer(result, "max_concurrency");
		if (concurrency != null) {
			cell.param("concurrency", concurrency);
		}
		Object rate = VllmResult.requestRate(result);
		if (rate != null) {
			cell.param("request_rate", rate);
		}
		String dataset = Fields.text(result, "dataset_name");
		if (datasetsVary && dataset != null) {
			cell.param("dataset", dataset);
		}
		boolean random = dataset != null && dataset.startsWith("random");
		Double inputLength = Fields.number(result, "random_input_len");
		Double outputLength = Fields.number(result, "random_output_len");
		Double rangeRatio = Fields.number(result, "random_range_ratio");
		if (random && inputLength != null) {
			cell.param("prompt_tokens", inputLength);
			if (rangeRatio != null && rangeRatio < 1) {
				run.note(line.file() + ": prompt_tokens is the configured random_input_len " + inputLength.longValue()
						+ "; with random_range_ratio " + rangeRatio + " SGLang drew each prompt's length from ["
						+ Math.round(inputLength * rangeRatio) + ", " + inputLength.longValue() + "]");
			}
		}
		if (random && outputLength != null && outputsVary) {
			cell.param("output_tokens", outputLength);
		}
		counts(result, cell, source, run);
		if (cell.completed() != null && cell.completed() == 0) {
			cell.withoutMetricsWhenNothingCompleted();
			run.note(source
					+ ": no request completed: the values SGLang writes for zero completed requests are left out");
		}
		return cell;
	}

	/**
	 * The cell's counts and what follows from them. With per-request arrays, each request
	 * is a sample: failed where its error is non-empty or it returned no output, no first
	 * token and no error; completed and failed are those samples', and when SGLang
	 * counted otherwise its latency statistics and request throughput are recomputed from
	 * the successful requests. Without them, SGLang's {@code completed} and, as SGLang
	 * writes no failed count, the difference from {@code num_prompts} where a file has
	 * it.
	 */
	private static void counts(JsonNode result, CellDraft cell, String source, RunDraft run) {
		Integer completed = Fields.integer(result, "completed");
		ServingBenchmark.metrics(result, cell);
		if (ServingBenchmark.hasDetails(result)) {
			ServingBenchmark.Outcomes outcomes = ServingBenchmark.outcomes(result, cell, run, "SGLang", source,
					completed);
			int succeeded = outcomes.succeeded();
			int unsuccessful = outcomes.unsuccessful();
			run.note("SGLang: failed requests counted from the per-request arrays (an error, or no output at all);"
					+ " cancelled requests are not recorded: unknown");
			cell.requests(succeeded, unsuccessful, null);
			return;
		}
		cell.outputTokens(ServingBenchmark.meanOutputTokens(result));
		Integer failed = Fields.integer(result, "failed");
		Integer prompts = Fields.integer(result, "num_prompts");
		if (failed == null && !result.hasNonNull("failed") && completed != null && prompts != null
				&& prompts >= completed) {
			// SGLang writes no failed count: every prompt sent and not completed failed.
			failed = prompts - completed;
			run.note(source + ": SGLang wrote no failed count: failed = num_prompts − completed = " + prompts + " − "
					+ completed + " = " + failed + "; cancelled requests are not recorded: unknown");
		}
		else if (failed == null) {
			run.note("failed/cancelled counts not recorded by SGLang: unknown");
		}
		cell.requests(completed, failed, null);
	}

	private static void provenance(Line line, boolean datasetsVary, RunDraft run) {
		JsonNode result = line.result();
		String source = line.source();
		run.state("harness.name", HARNESS, source);
		if (!datasetsVary) {
			run.state("workload.dataset", Fields.text(result, "dataset_name"), source);
		}
		String dataset = Fields.text(result, "dataset_name");
		Double outputLength = Fields.number(result, "random_output_len");
		Double rangeRatio = Fields.number(result, "random_range_ratio");
		if (dataset != null && dataset.startsWith("random") && outputLength != null) {
			if (rangeRatio != null && rangeRatio >= 1) {
				run.state("workload.output_tokens", outputLength, source);
			}
			else {
				run.note(line.file() + ": random_output_len " + outputLength.longValue() + " with random_range_ratio "
						+ rangeRatio + " is a maximum, not a per-request length: workload.output_tokens is left out");
			}
		}
		JsonNode server = result.get("server_info");
		if (server != null && server.isObject()) {
			run.state("engine.name", "sglang", source);
			run.state("engine.version", Fields.text(server, "version"), source);
			ModelName.state(run, Fields.text(server, "model_path"), "server_info.model_path", source);
			run.note(line.file() + ": server_info lists every server argument with its default, not the flags that were"
					+ " set: engine.flags are left for you to state");
		}
		else {
			run.note(line.file() + ": backend '" + Fields.text(result, "backend")
					+ "' is the client API SGLang spoke, not a record of the engine: engine is left for you to state");
		}
	}

	/**
	 * One result line, with where it is (for cells) and its file (for notes, which repeat
	 * otherwise).
	 */
	private record Line(JsonNode result, String source, String file) {
	}

}
