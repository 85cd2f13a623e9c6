package dev.parity.ingest.harness;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.parity.Fixtures;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.run.BootstrapJobs;
import dev.parity.run.RunDocumentReader;
import dev.parity.run.RunId;
import dev.parity.run.RunWriter;
import dev.parity.run.Sha256;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * Every text an importer reads (string values, field names, file and folder names, table
 * cells and headers), a million characters long in the shapes that make a careless
 * regular expression take quadratic time or overflow the stack (long runs of digits,
 * dashes, spaces and letters that do not end the text; {@code 1,000,000,…};
 * {@code |---|---…}): each importer reads them, or refuses them with a reason, in linear
 * time. The timeout is only a guard against a hang (an {@code \d+$} on 80,000 characters
 * took 52 s), not a measurement.
 *
 * <p>
 * {@link OnAView}: the same for the rules that read a stored run's text (warnings, flags,
 * names, notes, titles, caveats) each time it is shown — the run page, its chart, a
 * comparison and its series.
 */
class LongTextTests {

	private static final int LENGTH = 1_000_000;

	private static final Duration HUNG = Duration.ofSeconds(20);

	/**
	 * How many string values are made long in one case (besides the case with all of
	 * them).
	 */
	private static final int PATHS_AT_ONCE = 4;

	private static final JsonMapper JSON = JsonMapper.builder()
		.enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
		.disable(JsonWriteFeature.WRITE_NAN_AS_STRINGS)
		.build();

	/**
	 * Blocks of digits, dashes, spaces and letters, each followed by something else, then
	 * repeated short units.
	 */
	static final String MIXED = mixed();

	/**
	 * Each worst case alone, for the places that look at a whole value (a table cell, a
	 * separator line).
	 */
	static final Map<String, String> PURE = pure();

	private static String mixed() {
		int block = LENGTH / 8;
		StringBuilder text = new StringBuilder(LENGTH);
		text.append("9".repeat(block)).append("-".repeat(block)).append(" ".repeat(block)).append("a".repeat(block));
		for (String unit : List.of("1,000", "|---", "-a=1", " (p9.")) {
			while (text.length() < LENGTH - block * (3 - List.of("1,000", "|---", "-a=1", " (p9.").indexOf(unit))) {
				text.append(unit);
			}
		}
		text.setLength(LENGTH - 1);
		return text.append('x').toString();
	}

	private static Map<String, String> pure() {
		Map<String, String> pure = new LinkedHashMap<>();
		pure.put("digits", "9".repeat(LENGTH - 1) + "x");
		pure.put("dashes", "-".repeat(LENGTH - 1) + "x");
		pure.put("spaces", "1" + " ".repeat(LENGTH - 2) + "x");
		pure.put("letters", "a".repeat(LENGTH));
		pure.put("thousands", "1" + ",000".repeat((LENGTH - 1) / 4));
		pure.put("thousands, broken", "1" + ",000".repeat((LENGTH - 1) / 4 - 1) + ",00x");
		pure.put("separator", "|" + "---|".repeat(LENGTH / 4 - 1));
		pure.put("number", "9".repeat(LENGTH / 2) + "." + "9".repeat(LENGTH / 2 - 2) + "k");
		return pure;
	}

	/**
	 * One upload: a name for the report, the files, the format and the mapping it is read
	 * as.
	 */
	private record Case(String what, List<InputFile> files, HarnessFormat format, @Nullable TableMapping mapping) {
	}

	static Stream<Arguments> importers() {
		List<Arguments> importers = new ArrayList<>();
		for (String name : Samples.sharedNames()) {
			InputFile sample = Samples.shared(name);
			HarnessFormat format = FormatDetector.detect(List.of(sample)).format();
			importers.add(Arguments.of(Named.of(format.id() + " (" + name + ")", jsonCases(List.of(sample), format))));
		}
		importers.add(Arguments.of(Named.of("vllm-sweep (folders)",
				jsonCases(Samples.ownFolder("vllm-sweep"), HarnessFormat.VLLM_SWEEP))));
		importers.add(Arguments
			.of(Named.of("aiperf-sweep", jsonCases(Samples.ownFolder("aiperf-sweep"), HarnessFormat.AIPERF_SWEEP))));
		importers.add(Arguments.of(Named.of("llmperf-summary (folder)",
				jsonCases(Samples.ownFolder("llmperf"), HarnessFormat.LLMPERF_SUMMARY))));
		String seedStory = Fixtures.seedStoryNames().get(0);
		importers.add(Arguments.of(Named.of("native (" + seedStory + ")", jsonCases(
				List.of(new InputFile(seedStory, Fixtures.seedStoryBytes(seedStory))), HarnessFormat.NATIVE))));
		importers.add(Arguments
			.of(Named.of("table-csv", tableCases(Samples.own("published-table.csv"), HarnessFormat.TABLE_CSV))));
		importers.add(Arguments.of(Named.of("table-markdown",
				tableCases(Samples.own("published-table.md"), HarnessFormat.TABLE_MARKDOWN))));
		// The harness tables cut to their first columns and rows (from harness/*/ files):
		// each cell is a case.
		importers.add(Arguments.of(Named.of("aiperf-csv", tableCases(InputFile.of("profile_export_aiperf.csv",
				"Metric,avg,std\nTime to First Token (ms),2343.22,1049.82\n\nMetric,Value\nRequest Count,89.00\n"),
				HarnessFormat.AIPERF_CSV))));
		importers.add(Arguments.of(Named.of("genai-perf-csv", tableCases(InputFile.of("profile_export_genai_perf.csv",
				"Metric,avg,p50\nRequest Latency (ms),\"9,611.46\",\"8,457.45\"\n\nMetric,Value\nRequest Count (count),26.00\n"),
				HarnessFormat.GENAI_PERF_CSV))));
		importers
			.add(Arguments.of(Named.of("genai-perf-csv (analyze)",
					tableCases(InputFile.of("analyze_export_genai_perf.csv",
							"Config Name,Concurrency,p99 Time To First Token (ms)\ngpt2_run_config_3,32,184.43\n"),
							HarnessFormat.GENAI_PERF_CSV))));
		importers.add(Arguments.of(Named.of("llama-benchy-md", tableCases(InputFile.of("llama-benchy.md",
				"| model | test | t/s |\n|:---|---:|---:|\n| m | pp2048 | 5063.05 ± 507.65 |\n| m | tg480 | 63.48 ± 2.54 |\n"),
				HarnessFormat.LLAMA_BENCHY_TABLE))));
		importers.add(Arguments.of(Named.of("inference-perf", jsonCases(
				List.of(Samples.own("inference-perf/summary_lifecycle_metrics.json")), HarnessFormat.INFERENCE_PERF))));
		return importers.stream();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("importers")
	void everyTextAMillionCharactersLongIsReadInLinearTime(List<Case> cases) {
		assertTimeoutPreemptively(HUNG, () -> {
			for (Case upload : cases) {
				// As an upload is read: detected, then imported, from the same expanded
				// files.
				UploadedFiles files = UploadedFiles.expand(upload.files());
				assertThat(files.detection().explanation()).as(upload.what()).isNotBlank();
				try {
					HarnessImporters.read(upload.format(), files, upload.mapping());
				}
				catch (ImportRejected rejected) {
					assertThat(rejected.getMessage()).as(upload.what()).isNotBlank();
				}
			}
		}, () -> "an import did not finish in " + HUNG.toSeconds() + " s");
	}

	/**
	 * The cases of JSON files: every string value at once, each distinct string value
	 * alone (array elements after the first left as they are), every field name, and the
	 * file and folder names.
	 */
	private static List<Case> jsonCases(List<InputFile> files, HarnessFormat format) {
		List<Case> cases = new ArrayList<>();
		for (int f = 0; f < files.size(); f++) {
			InputFile file = files.get(f);
			List<JsonNode> values = values(file);
			if (values == null) {
				continue;
			}
			int index = f;
			Function<List<JsonNode>, List<InputFile>> with = changed -> replace(files, index, write(file, changed));
			cases.add(new Case(file.name() + ": every string", with.apply(map(values, node -> strings(node, null))),
					format, null));
			cases.add(new Case(file.name() + ": every field name", with.apply(map(values, LongTextTests::names)),
					format, null));
			// A few at a time, so that a value refused early does not keep the others
			// from being read.
			Set<String> all = new LinkedHashSet<>();
			collect(values.get(0), "", all);
			List<String> paths = List.copyOf(all);
			for (int from = 0; from < paths.size(); from += PATHS_AT_ONCE) {
				List<String> some = paths.subList(from, Math.min(paths.size(), from + PATHS_AT_ONCE));
				cases.add(new Case(file.name() + ": " + some, with.apply(map(values, node -> {
					JsonNode changed = node;
					for (String path : some) {
						changed = path.isEmpty() ? JSON.getNodeFactory().stringNode(MIXED) : strings(changed, path);
					}
					return changed;
				})), format, null));
			}
		}
		InputFile first = files.get(0);
		cases.add(new Case("a long file name",
				replace(files, 0, new InputFile(MIXED + first.baseName(), first.content())), format, null));
		cases.add(
				new Case("a long folder name",
						files.stream()
							.map(file -> new InputFile("SERVE--max_num_seqs=" + MIXED + "-BENCH--max_concurrency="
									+ MIXED + "/" + file.name(), file.content()))
							.toList(),
						format, null));
		for (Map.Entry<String, String> pure : PURE.entrySet()) {
			cases.add(new Case("a folder name of " + pure.getKey(),
					files.stream()
						.map(file -> new InputFile("SERVE--a=" + pure.getValue() + "/" + file.name(), file.content()))
						.toList(),
					format, null));
		}
		return cases;
	}

	/**
	 * The cases of a published table: each header, cell and the separator line, in each
	 * worst case.
	 */
	private static List<Case> tableCases(InputFile table, HarnessFormat format) {
		TableMapping mapping = new TableMapping("Input length", "Concurrency",
				Map.of("TTFT median (ms)", new MetricColumn("ttft_s", "ms"), "Decode (tok/s)",
						new MetricColumn("decode_tps", "tokens/s")),
				"https://example.org/blog/serving-results", "2026-07-20", Map.of());
		String text = new String(table.content(), StandardCharsets.UTF_8);
		List<String> lines = text.lines().toList();
		boolean markdown = format == HarnessFormat.TABLE_MARKDOWN || format == HarnessFormat.LLAMA_BENCHY_TABLE;
		char delimiter = markdown ? '|' : ',';
		List<Case> cases = new ArrayList<>();
		Map<String, String> hostile = new LinkedHashMap<>(PURE);
		hostile.put("mixed", MIXED);
		int header = 0;
		while (lines.get(header).indexOf(delimiter) < 0) {
			header++;
		}
		int firstRow = markdown ? header + 2 : header + 1;
		for (Map.Entry<String, String> value : hostile.entrySet()) {
			if (value.getKey().equals("mixed") || value.getKey().equals("letters")) {
				cells(cases, lines, header, delimiter, value, table, format, mapping);
			}
			cells(cases, lines, firstRow, delimiter, value, table, format, mapping);
			for (int line : List.of(header, header + 1)) {
				List<String> all = new ArrayList<>(lines);
				all.set(line, value.getValue());
				cases.add(new Case("line " + (line + 1) + " replaced: " + value.getKey(),
						List.of(InputFile.of(table.name(), String.join("\n", all))), format, mapping));
			}
		}
		return cases;
	}

	/** Each cell of the line made long in turn. */
	private static void cells(List<Case> cases, List<String> lines, int line, char delimiter,
			Map.Entry<String, String> value, InputFile table, HarnessFormat format, TableMapping mapping) {
		String[] cells = lines.get(line).split(Pattern.quote(String.valueOf(delimiter)), -1);
		for (int cell = 0; cell < cells.length; cell++) {
			String[] changed = cells.clone();
			changed[cell] = delimiter == ',' && value.getValue().indexOf(',') >= 0 ? "\"" + value.getValue() + "\""
					: value.getValue();
			List<String> all = new ArrayList<>(lines);
			all.set(line, String.join(String.valueOf(delimiter), changed));
			cases.add(new Case("line " + (line + 1) + ", cell " + (cell + 1) + ": " + value.getKey(),
					List.of(InputFile.of(table.name(), String.join("\n", all))), format, mapping));
		}
	}

	private static @Nullable List<JsonNode> values(InputFile file) {
		List<JsonNode> values = new ParsedFile(file).jsonValuesOrNull();
		return values == null || values.isEmpty() ? null : values;
	}

	private static List<JsonNode> map(List<JsonNode> values, Function<JsonNode, JsonNode> change) {
		List<JsonNode> changed = new ArrayList<>(values);
		changed.set(0, change.apply(values.get(0).deepCopy()));
		return changed;
	}

	/**
	 * The JSON paths of the node's string values; of an array, only its first element's.
	 */
	private static void collect(JsonNode node, String path, Set<String> paths) {
		if (node.isString()) {
			paths.add(path);
		}
		else if (node instanceof ArrayNode array && !array.isEmpty()) {
			collect(array.get(0), path + "/0", paths);
		}
		else if (node instanceof ObjectNode object) {
			object.forEachEntry(
					(name, value) -> collect(value, path + "/" + name.replace("~", "~0").replace("/", "~1"), paths));
		}
	}

	/**
	 * The node with its string values made long: the one at {@code only}, or every one
	 * (first array elements).
	 */
	private static JsonNode strings(JsonNode node, @Nullable String only) {
		if (only != null) {
			JsonNode parent = node.at(only.substring(0, only.lastIndexOf('/')));
			String last = only.substring(only.lastIndexOf('/') + 1).replace("~1", "/").replace("~0", "~");
			if (parent instanceof ObjectNode object) {
				object.put(last, MIXED);
			}
			else if (parent instanceof ArrayNode array) {
				array.set(Integer.parseInt(last), array.stringNode(MIXED));
			}
			return node;
		}
		Set<String> paths = new LinkedHashSet<>();
		collect(node, "", paths);
		JsonNode changed = node;
		for (String path : paths) {
			changed = path.isEmpty() ? JSON.getNodeFactory().stringNode(MIXED) : strings(changed, path);
		}
		return changed;
	}

	/**
	 * The node with a long field name added to each object (first array elements),
	 * holding its first value.
	 */
	private static JsonNode names(JsonNode node) {
		if (node instanceof ArrayNode array && !array.isEmpty()) {
			array.set(0, names(array.get(0)));
		}
		else if (node instanceof ObjectNode object && !object.isEmpty()) {
			List<String> fields = new ArrayList<>(object.propertyNames());
			for (String field : fields) {
				object.set(field, names(object.get(field)));
			}
			object.set(MIXED, object.get(fields.get(0)).deepCopy());
		}
		return node;
	}

	private static InputFile write(InputFile file, List<JsonNode> values) {
		if (values.size() == 1) {
			return new InputFile(file.name(), JSON.writeValueAsBytes(values.get(0)));
		}
		StringBuilder lines = new StringBuilder();
		values.forEach(value -> lines.append(JSON.writeValueAsString(value)).append('\n'));
		return InputFile.of(file.name(), lines.toString());
	}

	private static List<InputFile> replace(List<InputFile> files, int index, InputFile file) {
		List<InputFile> replaced = new ArrayList<>(files);
		replaced.set(index, file);
		return replaced;
	}

	/**
	 * The text a run stores, read by the rules each time the run is shown: an anonymous
	 * view of its page, its chart, a comparison with it and its series reads the run's
	 * warnings, flags, names and caveats, as long as the upload bounds let them be (every
	 * bound at its limit, in the shapes that made the warning scan quadratic) and longer
	 * (a run stored before the bounds, written here without them). Each view is timed and
	 * printed; the timeout is only a guard against a hang (one view took 31–46 s when
	 * each cell scanned each warning again).
	 */
	@Nested
	@ParityTest
	class OnAView {

		private static final Duration VIEW_HUNG = Duration.ofSeconds(60);

		@Autowired
		MockMvc mvc;

		@Autowired
		RunWriter writer;

		@Autowired
		BootstrapJobs bootstraps;

		@Autowired
		JdbcClient jdbc;

		@Test
		void everyViewOfARunWithLongTextReadsItInLinearTime() throws Exception {
			String system = "long-text-" + UUID.randomUUID().toString().substring(0, 8);
			String bounded = TestUploads.upload(mvc, JSON.writeValueAsBytes(atTheBounds(system)));
			String unbounded = storedWithoutBounds(system);

			for (String id : List.of(bounded, unbounded)) {
				view("/runs/" + id);
				view("/runs/" + id + "/chart.png");
			}
			view("/compare/" + bounded + "..." + unbounded);
			view("/compare/" + unbounded + "..." + bounded);
			String series = JSON.readTree(view("/api/series?system=" + system).getResponse().getContentAsByteArray())
				.at("/series/0/id")
				.asString();
			view("/api/series/" + series);
		}

		@Test
		void theRepeatedWarningOfTheReportIsRefusedAtUploadNamingTheLimit() throws Exception {
			ObjectNode document = control("long-text refused " + UUID.randomUUID());
			((ObjectNode) document.get("engine")).putArray("warnings").add("a-a ".repeat(20_000));
			TestUploads.RowCounts before = TestUploads.rows(jdbc);

			MvcResult refused = mvc
				.perform(post("/api/runs").with(httpBasic(USER, PASSWORD))
					.contentType(MediaType.APPLICATION_JSON)
					.content(JSON.writeValueAsBytes(document)))
				.andReturn();

			assertThat(refused.getResponse().getStatus()).isEqualTo(400);
			assertThat(refused.getResponse().getContentAsString()).contains("$.engine.warnings[0]",
					"is 80000 characters; at most 4000");
			assertThat(TestUploads.rows(jdbc).runs()).isEqualTo(before.runs());
		}

		private MvcResult view(String url) {
			return assertTimeoutPreemptively(VIEW_HUNG, () -> {
				long start = System.nanoTime();
				MvcResult result = mvc.perform(get(url)).andReturn();
				long millis = (System.nanoTime() - start) / 1_000_000;
				System.out.println("long text, anonymous view: GET " + abbreviated(url) + " "
						+ result.getResponse().getStatus() + " in " + millis + " ms, "
						+ result.getResponse().getContentAsByteArray().length + " bytes");
				assertThat(result.getResponse().getStatus()).as(url).isEqualTo(200);
				return result;
			}, () -> "GET " + url + " did not answer in " + VIEW_HUNG.toSeconds() + " s");
		}

		private static String abbreviated(String url) {
			return url.length() > 80 ? url.substring(0, 77) + "…" : url;
		}

		/**
		 * A run stored as a run uploaded before the bounds could be: its text as long as
		 * a JSON string may be.
		 */
		private String storedWithoutBounds(String system) {
			ObjectNode document = control(system);
			document.put("title", "stored before the bounds");
			ObjectNode engine = (ObjectNode) document.get("engine");
			engine.put("commit", "b".repeat(40));
			ArrayNode warnings = engine.putArray("warnings");
			warnings.add("a-a ".repeat(20_000));
			warnings.add("max_num_batched_tokens " + "a-a ".repeat(50_000) + " 8168");
			PURE.values().forEach(pure -> warnings.add(pure.substring(0, 100_000)));
			warnings.add(MIXED.substring(0, 100_000));
			ObjectNode flags = (ObjectNode) engine.get("flags");
			flags.put("a".repeat(40_000) + "b", MIXED.substring(0, 100_000));
			flags.put("aa.aa.aa.aa.aa.b", "2");
			ArrayNode caveats = document.putArray("caveats");
			PURE.values().forEach(pure -> caveats.add(pure.substring(0, 100_000)));
			document.putObject("source").put("note", MIXED.substring(0, 100_000));
			((ObjectNode) document.get("harness")).put("command", MIXED.substring(0, 100_000));
			byte[] bytes = JSON.writeValueAsBytes(document);
			RunId id = writer
				.store(new RunWriter.NewRun(RunDocumentReader.read(document), document, Sha256.hex(bytes),
						List.of(new RunWriter.UploadedFile("long.json", "application/json", bytes)), USER))
				.id();
			bootstraps.complete(id);
			return id.value();
		}

		/**
		 * A run with every text the rules read at its upload bound, in the shapes of
		 * {@link LongTextTests#PURE}.
		 */
		private static ObjectNode atTheBounds(String system) {
			ObjectNode document = control(system);
			document.put("title", "t".repeat(199) + "x");
			ObjectNode engine = (ObjectNode) document.get("engine");
			engine.put("commit", "a".repeat(40));
			List<String> shapes = new ArrayList<>(PURE.values());
			shapes.add(MIXED);
			shapes.add("a-a ".repeat(5_000));
			ArrayNode warnings = engine.putArray("warnings");
			for (int i = 0; i < 100; i++) {
				String shape = shapes.get(i % shapes.size());
				warnings.add(i % 10 == 0 ? "max_num_batched_tokens was clamped to 8168; " + shape.substring(0, 3_900)
						: shape.substring(0, 4_000));
			}
			ObjectNode flags = (ObjectNode) engine.get("flags");
			for (int i = 0; flags.size() < 200; i++) {
				String shape = shapes.get(i % shapes.size());
				flags.put(i + shape.substring(0, 190), shape.substring(0, 4_000));
			}
			ArrayNode caveats = document.putArray("caveats");
			for (int i = 0; i < 50; i++) {
				caveats.add(shapes.get(i % shapes.size()).substring(0, 10_000));
			}
			document.putObject("source").put("note", MIXED.substring(0, 10_000));
			((ObjectNode) document.get("harness")).put("command", MIXED.substring(0, 20_000));
			return document;
		}

		/**
		 * The seed story's 20-cell control run on its own system (so that it starts its
		 * own series).
		 */
		private static ObjectNode control(String system) {
			ObjectNode document = (ObjectNode) JSON.readTree(Fixtures.seedStoryBytes("run-e-control.json"));
			((ObjectNode) document.get("system")).put("name", system);
			return document;
		}

	}

}
