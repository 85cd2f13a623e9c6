package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.parity.run.Params;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * vLLM's {@code benchmark_serving.py} / {@code vllm bench serve --save-result}, 2024 on:
 * each result is a cell. With {@code --save-detailed} (always, before 2025) its
 * per-request arrays become samples. With {@code --append-result} a file holds one result
 * per line, sweeps appended one after another: one cell per distinct parameter set
 * (concurrency, request rate, uniform prompt length, and any {@code --metadata} key whose
 * value differs between the results), repeated ones merged as repetitions.
 */
final class VllmBenchServe implements HarnessImporter {

	@Override
	public HarnessFormat format() {
		return HarnessFormat.VLLM;
	}

	@Override
	public FileRole role(ParsedFile file) {
		if (!file.looksLikeJson()) {
			return HarnessImporter.otherFile(file);
		}
		JsonNode json = file.jsonOrNull();
		if (json == null) {
			List<JsonNode> lines = file.jsonValuesOrNull();
			if (lines == null) {
				return HarnessImporter.otherFile(file);
			}
			// --append-result: one result a line.
			if (lines.stream().allMatch(VllmResult::isVllm)) {
				return lines.stream().anyMatch(line -> line.has("run_number")) ? FileRole.OWN_PERHAPS : FileRole.OWN;
			}
			return lines.stream().allMatch(VllmResult::isServingResult) ? FileRole.OWN_PERHAPS : FileRole.FOREIGN;
		}
		if (VllmResult.isVllm(json)) {
			// A sweep's run file is a result too, but the sweep importer knows its swept
			// params.
			return json.has("run_number") ? FileRole.OWN_PERHAPS : FileRole.OWN;
		}
		return VllmResult.isServingResult(json) ? FileRole.OWN_PERHAPS : FileRole.FOREIGN;
	}

	@Override
	public HarnessImport read(List<ParsedFile> files, @Nullable TableMapping mapping) {
		RunDraft run = new RunDraft();
		List<Result> results = new ArrayList<>();
		for (ParsedFile file : ownFiles(files, run)) {
			List<JsonNode> values = file.jsonValues();
			for (int i = 0; i < values.size(); i++) {
				JsonNode value = values.get(i);
				String source = values.size() == 1 ? file.name() : file.name() + " line " + (i + 1);
				if (!value.isObject()) {
					throw new ImportRejected(source + ": expected a JSON object (a vLLM result), found "
							+ value.getNodeType().toString().toLowerCase(Locale.ROOT));
				}
				run.state("harness.name", "vllm bench serve", file.name());
				results.add(new Result(value, source, file.name()));
			}
		}
		Set<String> varying = varyingMetadata(results);
		if (!varying.isEmpty()) {
			run.note("--metadata keys that differ between the results, recorded as grid params: "
					+ String.join(", ", varying));
		}
		// Repetitions are results of one file with the same params; separate files with
		// the same params are
		// ambiguous, and the run refuses them.
		Map<Group, List<CellDraft>> repetitions = new LinkedHashMap<>();
		Map<Group, Result> firsts = new LinkedHashMap<>();
		Map<Group, Map<String, Object>> paramsOf = new LinkedHashMap<>();
		for (Result result : results) {
			CellDraft cell = VllmResult.cell(result.json(), result.source(), run);
			for (String key : varying) {
				Object value = scalar(result.json().get(key));
				if (value != null) {
					cell.param(VllmSweep.paramName(key), value);
				}
			}
			Group params = new Group(result.file(), cell.comparableParams());
			repetitions.computeIfAbsent(params, key -> new ArrayList<>()).add(cell);
			firsts.putIfAbsent(params, result);
			paramsOf.putIfAbsent(params, cell.params());
		}
		List<@Nullable String> dates = new ArrayList<>();
		repetitions.forEach((params, cells) -> {
			Result first = firsts.get(params);
			CellDraft merged = new CellDraft(cells.size() == 1 ? first.source()
					: first.source() + " (and " + (cells.size() - 1) + " more with the same params)");
			paramsOf.get(params).forEach(merged::param);
			run.cell(Repetitions.merge(merged, cells, run));
			dates.add(Fields.text(first.json(), "date"));
		});
		ExecutionOrder.byTimestamps(run.cells(), dates, run);
		return run.toImport();
	}

	/**
	 * The {@code --metadata} keys (anything vLLM does not write itself) whose values
	 * differ between results.
	 */
	private static Set<String> varyingMetadata(List<Result> results) {
		Map<String, Set<String>> values = new LinkedHashMap<>();
		for (Result result : results) {
			result.json().forEachEntry((key, node) -> {
				if (!VllmResult.isOwnKey(key) && (scalar(node) != null || node.isNull())) {
					values.computeIfAbsent(key, name -> new HashSet<>());
				}
			});
		}
		Set<String> varying = new LinkedHashSet<>();
		values.forEach((key, seen) -> {
			for (Result result : results) {
				Object value = scalar(result.json().get(key));
				seen.add(String.valueOf(value));
			}
			if (seen.size() > 1) {
				varying.add(key);
			}
		});
		return varying;
	}

	private static @Nullable Object scalar(@Nullable JsonNode node) {
		if (node == null || node.isNull()) {
			return null;
		}
		if (node.isNumber()) {
			return Fields.number(node);
		}
		if (node.isString()) {
			return node.stringValue();
		}
		return node.isBoolean() ? String.valueOf(node.booleanValue()) : null;
	}

	private record Result(JsonNode json, String source, String file) {
	}

	private record Group(String file, Params params) {
	}

}
