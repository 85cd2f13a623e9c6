package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * vLLM's {@code vllm bench sweep serve}: a folder (or zip) with one directory per
 * parameter combination ({@code SERVE--max_num_seqs=4-BENCH--max_concurrency=2}), holding
 * {@code run=N.json} per repetition and a {@code summary.json} listing them. One run; one
 * cell per combination, with the swept server and benchmark parameters as grid params and
 * the repetitions as samples. {@code warmup.json} is the unmeasured warm-up;
 * {@code run=N.failure.json} a repetition that failed.
 */
final class VllmSweep implements HarnessImporter {

	private static final Pattern PAIR = Pattern.compile("(?:^|-)([A-Za-z_][A-Za-z0-9_.]*+)=");

	private static final int WARMUP = -1;

	@Override
	public HarnessFormat format() {
		return HarnessFormat.VLLM_SWEEP;
	}

	@Override
	public FileRole role(ParsedFile file) {
		JsonNode json = file.looksLikeJson() ? file.jsonOrNull() : null;
		if (json == null) {
			return HarnessImporter.otherFile(file);
		}
		if (isRun(json) || (json.isArray() && !json.isEmpty() && allRuns(json))) {
			return FileRole.OWN;
		}
		if (isFailure(json)) {
			return FileRole.COMPANION;
		}
		return FileRole.FOREIGN;
	}

	private static boolean isRun(JsonNode json) {
		return VllmResult.isVllm(json) && json.has("run_number");
	}

	private static boolean allRuns(JsonNode array) {
		for (JsonNode item : array) {
			if (!isRun(item)) {
				return false;
			}
		}
		return true;
	}

	private static boolean isFailure(JsonNode json) {
		return json.isObject() && Fields.hasAll(json, "run_number", "error_type", "error");
	}

	@Override
	public HarnessImport read(List<ParsedFile> files, @Nullable TableMapping mapping) {
		RunDraft run = new RunDraft();
		List<ParsedFile> own = ownFiles(files, run);
		List<SweepRun> runs = new ArrayList<>();
		Set<String> seen = new HashSet<>();
		// Run files first: summary.json repeats them, and is read only for runs without a
		// file.
		List<ParsedFile> ordered = new ArrayList<>(own);
		ordered.sort(Comparator.comparing(file -> file.json().isArray()));
		Set<String> sweptKeys = new LinkedHashSet<>();
		for (ParsedFile file : ordered) {
			JsonNode json = file.json();
			List<JsonNode> results = new ArrayList<>();
			if (json.isArray()) {
				json.forEach(results::add);
			}
			else {
				results.add(json);
			}
			for (JsonNode result : results) {
				SweepRun sweepRun = SweepRun.of(result, file, sweptKeys);
				if (seen.add(sweepRun.key())) {
					runs.add(sweepRun);
				}
			}
		}
		Map<String, List<SweepRun>> combinations = new LinkedHashMap<>();
		Set<Double> warmups = new LinkedHashSet<>();
		for (SweepRun sweepRun : runs) {
			run.state("harness.name", "vllm bench sweep serve", sweepRun.source());
			if (sweepRun.number() == WARMUP) {
				Double prompts = Fields.number(sweepRun.result(), "num_prompts");
				if (prompts != null) {
					warmups.add(prompts);
				}
				continue;
			}
			combinations.computeIfAbsent(sweepRun.combination(), key -> new ArrayList<>()).add(sweepRun);
		}
		for (ParsedFile failure : withRole(files, FileRole.COMPANION)) {
			SweepRun failed = SweepRun.failure(failure.json(), failure, sweptKeys);
			combinations.computeIfAbsent(failed.combination(), key -> new ArrayList<>()).add(failed);
			run.note(failure.name() + ": repetition run=" + failed.number() + " failed ("
					+ Fields.text(failure.json(), "error_type") + ": " + Fields.text(failure.json(), "error")
					+ "); kept as a failed sample, and the cell's request counts are unknown");
		}
		List<@Nullable String> firstDates = new ArrayList<>();
		for (List<SweepRun> repetitions : combinations.values()) {
			repetitions.sort(Comparator.comparingInt(SweepRun::number));
			run.cell(cell(repetitions, run));
			firstDates.add(repetitions.stream()
				.map(sweepRun -> Fields.text(sweepRun.result(), "date"))
				.filter(Objects::nonNull)
				.min(Comparator.naturalOrder())
				.orElse(null));
		}
		ExecutionOrder.byTimestamps(run.cells(), firstDates, run);
		if (!sweptKeys.isEmpty()) {
			run.note("swept parameters recorded as grid params: " + String.join(", ", sweptKeys));
		}
		if (warmups.size() == 1) {
			run.state("workload.warmup_requests", warmups.iterator().next(), "warmup.json");
			run.note("warmup.json: an unmeasured warm-up of " + warmups.iterator().next().longValue()
					+ " requests before each combination; not a sample");
		}
		else if (warmups.isEmpty()) {
			run.note("no warmup.json: whether the sweep warmed up before measuring is not recorded");
		}
		return run.toImport();
	}

	private static CellDraft cell(List<SweepRun> repetitions, RunDraft run) {
		List<CellDraft> cells = new ArrayList<>();
		Map<String, Object> params = null;
		for (SweepRun repetition : repetitions) {
			CellDraft cell;
			if (repetition.failed()) {
				cell = new CellDraft(repetition.source()).requests(null, null, null);
			}
			else {
				cell = VllmResult.cell(repetition.result(), repetition.source(), run);
				repetition.params().forEach(cell::param);
				if (params == null) {
					params = cell.params();
				}
			}
			cells.add(cell);
		}
		if (params == null) {
			params = repetitions.get(0).params();
		}
		String combination = repetitions.get(0).combination();
		CellDraft merged = new CellDraft(combination.isEmpty() ? repetitions.get(0).source() : combination);
		params.forEach(merged::param);
		CellDraft result = Repetitions.merge(merged, cells, run);
		if (result.samples().isEmpty()) {
			// Repetitions are samples of their cell, even when there is only one.
			cells.forEach(cell -> result.sample(Repetitions.summary(cell)));
		}
		return result;
	}

	/**
	 * Swept parameters named in a combination directory
	 * ({@code SERVE--max_num_seqs=4-BENCH--max_concurrency=2}).
	 */
	static Map<String, String> combinationPairs(String directory) {
		String name = directory.substring(directory.lastIndexOf('/') + 1);
		Map<String, String> pairs = new LinkedHashMap<>();
		String cleaned = name.replace("SERVE--", "-").replace("BENCH--", "-");
		Matcher matcher = PAIR.matcher(cleaned);
		List<int[]> spans = new ArrayList<>();
		List<String> keys = new ArrayList<>();
		while (matcher.find()) {
			spans.add(new int[] { matcher.start(), matcher.end() });
			keys.add(matcher.group(1));
		}
		for (int i = 0; i < keys.size(); i++) {
			int end = i + 1 < spans.size() ? spans.get(i + 1)[0] : cleaned.length();
			// "SERVE--a=4-BENCH--b=2" leaves "a=4--b=2": the separator's dashes are no
			// part of the value.
			pairs.put(keys.get(i), withoutTrailingDashes(cleaned.substring(spans.get(i)[1], end)));
		}
		return pairs;
	}

	/**
	 * Scanned, not matched: {@code -+$} takes quadratic time on a long run of dashes that
	 * does not end the text.
	 */
	private static String withoutTrailingDashes(String text) {
		int end = text.length();
		while (end > 0 && text.charAt(end - 1) == '-') {
			end--;
		}
		return text.substring(0, end);
	}

	/** The conventional name of a swept vLLM parameter. */
	static String paramName(String key) {
		return switch (key) {
			case "max_concurrency", "max-concurrency" -> "concurrency";
			case "request_rate", "request-rate" -> "request_rate";
			case "random_input_len", "random-input-len", "input_len", "input-len", "sonnet_input_len" ->
				"prompt_tokens";
			case "random_output_len", "random-output-len", "output_len", "output-len", "sonnet_output_len" ->
				"output_tokens";
			case "_benchmark_name" -> "benchmark";
			default -> key;
		};
	}

	/**
	 * One repetition of one combination.
	 *
	 * @param combination the combination's directory, or its params when the file has no
	 * directory
	 * @param params the swept params, under conventional names
	 */
	private record SweepRun(JsonNode result, String source, String combination, int number, Map<String, Object> params,
			boolean failed) {

		String key() {
			return combination + "#" + number;
		}

		static SweepRun of(JsonNode result, ParsedFile file, Set<String> sweptKeys) {
			String source = file.json().isArray() ? file.name() + " (run_number " + result.path("run_number") + ")"
					: file.name();
			Map<String, Object> params = new LinkedHashMap<>();
			Map<String, String> pairs = combinationPairs(file.directory());
			if (!pairs.isEmpty()) {
				pairs.forEach((key, text) -> {
					Object value = scalar(result.get(key));
					params.put(paramName(key), value != null ? value : parse(text));
					sweptKeys.add(key);
				});
			}
			else {
				result.forEachEntry((key, node) -> {
					Object value = scalar(node);
					if (!VllmResult.isOwnKey(key) && value != null) {
						params.put(paramName(key), value);
						sweptKeys.add(key);
					}
				});
			}
			String combination = file.directory().isEmpty() ? params.toString() : file.directory();
			Integer number = Fields.integer(result, "run_number");
			return new SweepRun(result, source, combination, number == null ? 0 : number, params, false);
		}

		static SweepRun failure(JsonNode failure, ParsedFile file, Set<String> sweptKeys) {
			Map<String, Object> params = new LinkedHashMap<>();
			for (String overrides : List.of("serve_overrides", "bench_overrides")) {
				failure.path(overrides).forEachEntry((key, node) -> {
					Object value = scalar(node);
					if (value != null) {
						params.put(paramName(key), value);
						sweptKeys.add(key);
					}
				});
			}
			String combination = file.directory().isEmpty() ? params.toString() : file.directory();
			Integer number = Fields.integer(failure, "run_number");
			return new SweepRun(failure, file.name(), combination, number == null ? 0 : number, params, true);
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
			if (node.isBoolean()) {
				return String.valueOf(node.booleanValue());
			}
			return null;
		}

		private static Object parse(String text) {
			try {
				return Double.parseDouble(text);
			}
			catch (NumberFormatException ex) {
				return text;
			}
		}

	}

}
