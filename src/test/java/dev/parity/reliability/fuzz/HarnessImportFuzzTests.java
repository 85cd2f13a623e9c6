package dev.parity.reliability.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import dev.parity.Fixtures;
import dev.parity.web.Problem;
import dev.parity.ingest.RunDocumentValidator;
import dev.parity.ingest.RunFileRejected;
import dev.parity.ingest.RunIngest;
import dev.parity.ingest.harness.Detection;
import dev.parity.ingest.harness.FormatDetector;
import dev.parity.ingest.harness.HarnessFormat;
import dev.parity.ingest.harness.HarnessImport;
import dev.parity.ingest.harness.HarnessImporters;
import dev.parity.ingest.harness.ImportRejected;
import dev.parity.ingest.harness.InputFile;
import dev.parity.ingest.harness.MetricColumn;
import dev.parity.ingest.harness.TableMapping;
import dev.parity.run.RunDocumentReader;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Broken and hostile harness files (every real sample in
 * {@code src/test/resources/given/samples/} and a published table, mutated): detection
 * never fails, and reading them, as the format they are or as one the user picked
 * wrongly, either gives a document that is a valid run once the uploader's provenance is
 * added, or an {@link ImportRejected} that says what is wrong. Never another exception.
 */
class HarnessImportFuzzTests {

	/** This property's share of the fuzz budget (see {@link FuzzCases}). */
	private static final double SHARE = 0.59;

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final List<Input> INPUTS = inputs();

	/** A valid input, the format it is, and how to mutate it. */
	record Input(String name, byte[] content, HarnessFormat format, Mutator.Shape shape,
			@Nullable TableMapping mapping) {
	}

	@Test
	void aMutatedHarnessFileImportsAsAValidRunOrIsRejectedWithAReason() {
		FuzzCases.Tally tally = FuzzCases.check("harness import", SHARE, (random, outcome) -> {
			Input input = INPUTS.get(random.nextInt(INPUTS.size()));
			Mutation mutation = new Mutator(random).mutate(input.content(), input.shape());
			List<InputFile> files = files(input, mutation, random);
			HarnessFormat format = random.nextInt(100) < 85 ? input.format()
					: HarnessFormat.values()[random.nextInt(HarnessFormat.values().length)];
			try {
				importAs(format, files, input, outcome);
			}
			catch (AssertionError | RuntimeException ex) {
				throw new AssertionError(input.name() + " as " + format.id() + ", " + mutation.describe() + ": " + ex,
						ex);
			}
		});
		// Enough cases explore both sides; a mutator that only ever broke documents (or
		// never) would test little.
		if (tally.cases() >= 100) {
			assertThat(tally.get("rejected")).as("rejected cases").isPositive();
			assertThat(tally.get("imported")).as("imported cases").isPositive();
		}
	}

	@Test
	void everySampleIsValidAsItIs() {
		for (Input input : INPUTS) {
			assertThat(
					importable(input.format(), List.of(new InputFile(input.name(), input.content())), input.mapping()))
				.as(input.name())
				.isEmpty();
		}
	}

	private static void importAs(HarnessFormat format, List<InputFile> files, Input input, FuzzCases.Tally outcome) {
		Detection detection = FormatDetector.detect(files);
		assertThat(detection.explanation()).isNotBlank();
		TableMapping mapping = format.needsMapping() ? input.mapping() == null ? tableMapping() : input.mapping()
				: null;
		List<Problem> problems;
		try {
			problems = importable(format, files, mapping);
		}
		catch (ImportRejected rejected) {
			outcome.count("rejected");
			assertThat(rejected.getMessage()).isNotBlank();
			return;
		}
		if (format == HarnessFormat.NATIVE) {
			// A run document is the user's own: its validation reports each problem at
			// its place, as for any upload.
			outcome.count(problems.isEmpty() ? "imported" : "native, invalid");
			return;
		}
		assertThat(problems).as("problems of the imported document").isEmpty();
		outcome.count("imported");
	}

	/**
	 * Reads the files and returns the problems of the document made of them (with
	 * provenance added).
	 */
	private static List<Problem> importable(HarnessFormat format, List<InputFile> files,
			@Nullable TableMapping mapping) {
		HarnessImport imported = HarnessImporters.read(format, files, mapping);
		ObjectNode document = withProvenance(imported.cellsDocument());
		// As the upload will: the merged document goes through the same strict reading as
		// any upload.
		byte[] bytes = JSON.writeValueAsBytes(document);
		JsonNode parsed;
		try {
			parsed = RunIngest.parse(bytes);
		}
		catch (RunFileRejected rejected) {
			return rejected.problems();
		}
		List<Problem> problems = RunDocumentValidator.validate(parsed);
		if (problems.isEmpty()) {
			RunDocumentReader.read(parsed);
		}
		return problems;
	}

	/** The provenance an uploader adds in the form where the files state none. */
	static ObjectNode withProvenance(ObjectNode imported) {
		ObjectNode document = imported.deepCopy();
		document.put("title", "imported");
		if (!document.has("role")) {
			document.put("role", "measured");
		}
		document.putObject("system").put("name", "test system");
		ObjectNode model = document.path("model") instanceof ObjectNode existing ? existing
				: document.putObject("model");
		if (!model.has("repo")) {
			model.put("repo", "example-org/model");
		}
		ObjectNode engine = document.path("engine") instanceof ObjectNode existing ? existing
				: document.putObject("engine");
		if (!engine.has("name")) {
			engine.put("name", "vllm");
		}
		ObjectNode harness = document.path("harness") instanceof ObjectNode existing ? existing
				: document.putObject("harness");
		if (!harness.has("name")) {
			harness.put("name", "test-harness");
		}
		if (!document.has("workload")) {
			document.putObject("workload");
		}
		return document;
	}

	private static List<InputFile> files(Input input, Mutation mutation, Random random) throws IOException {
		List<InputFile> files = new ArrayList<>();
		files.add(new InputFile(input.name(), mutation.bytes()));
		if (random.nextInt(100) < 10) {
			byte[] zip = zip(files);
			if (random.nextBoolean()) {
				zip = Arrays.copyOf(zip, random.nextInt(zip.length));
			}
			return List.of(new InputFile("upload.zip", zip));
		}
		return files;
	}

	private static byte[] zip(List<InputFile> files) throws IOException {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
			for (InputFile file : files) {
				zip.putNextEntry(new ZipEntry("results/" + file.name()));
				zip.write(file.content());
				zip.closeEntry();
			}
		}
		return bytes.toByteArray();
	}

	static List<Input> inputs() {
		List<Input> inputs = new ArrayList<>();
		for (String name : List.of("aiperf-profile-export.json", "aiperf-profile-export.jsonl", "guidellm-report.json",
				"llama-benchy-report.json", "llmperf-individual-responses.json", "llmperf-summary.json",
				"sglang-bench-serving-details.jsonl", "sglang-bench-serving.jsonl", "vllm-bench-serve-all-failed.json",
				"vllm-bench-serve-detailed.json", "vllm-bench-sweep-run.json")) {
			byte[] content = Fixtures.read(Fixtures.sample(name));
			Detection detection = FormatDetector.detect(List.of(new InputFile(name, content)));
			assertThat(detection.certain()).as("the sample %s is recognised: %s", name, detection.explanation())
				.isTrue();
			inputs.add(new Input(name, content, detection.format(),
					name.endsWith(".jsonl") ? Mutator.Shape.JSON_LINES : Mutator.Shape.JSON, null));
		}
		inputs.add(new Input("published-table.csv", table("published-table.csv"), HarnessFormat.TABLE_CSV,
				Mutator.Shape.TEXT, tableMapping()));
		inputs.add(new Input("published-table.md", table("published-table.md"), HarnessFormat.TABLE_MARKDOWN,
				Mutator.Shape.TEXT, tableMapping()));
		return List.copyOf(inputs);
	}

	private static byte[] table(String name) {
		try (var in = HarnessImportFuzzTests.class.getResourceAsStream("/reliability/" + name)) {
			return in.readAllBytes();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The mapping of the two tables in {@code src/test/resources/reliability/}. */
	private static TableMapping tableMapping() {
		Map<String, MetricColumn> metrics = new LinkedHashMap<>();
		metrics.put("TTFT median (ms)", new MetricColumn("ttft_s", "ms"));
		metrics.put("TTFT p99 (ms)", new MetricColumn("ttft_s", "ms", "p99"));
		metrics.put("Decode (tok/s)", new MetricColumn("decode_tps", "tokens/s"));
		metrics.put("Req/min", new MetricColumn("request_throughput", "requests/min"));
		return new TableMapping("Input length", "Concurrency", metrics, "https://example.org/blog/serving-results",
				"2026-07-20", Map.of());
	}

}
