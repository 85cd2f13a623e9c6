package dev.parity.reliability.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import dev.parity.Fixtures;
import dev.parity.MultipartBody;
import dev.parity.MultipartBody.Answer;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.TestUploads.RowCounts;
import dev.parity.ingest.harness.HarnessFormat;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Multipart requests to {@code POST /api/runs/import} in every shape clients and
 * attackers send, over real HTTP: text parts as form fields or files, sent twice, empty,
 * not UTF-8, with a byte-order mark, under odd content types or headers; files as form
 * fields, missing, zipped, cut short; unknown parts; bodies cut short. The answer is 201,
 * 200, or a 4xx that says what is wrong (a 400 names the part), never a 500; a refusal
 * stores nothing.
 */
@ParityTest
class ImportPartShapesFuzzTests {

	/** This property's share of the fuzz budget (see {@link FuzzCases}). */
	private static final double SHARE = 0.06;

	private static final List<String> SAMPLES = List.of("guidellm-report.json", "vllm-bench-serve-detailed.json",
			"sglang-bench-serving.jsonl", "llmperf-summary.json", "llama-benchy-report.json");

	private static final List<String> TEXT_PARTS = List.of("provenance", "mapping", "format");

	private static final String MAPPING = """
			{"prompt_column": "Prompt", "concurrency_column": "Users", "source_url": "https://example.org/table",
			 "metrics": {"TTFT (ms)": {"metric": "ttft_s", "unit": "ms"}}}""";

	private static final String TABLE = "Prompt,Users,TTFT (ms)\n280,1,920\n8192,1,6190\n";

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Test
	void aMultipartRequestOfAnyShapeIsStoredOrRefusedNamingThePartNeverA500() {
		FuzzCases.Tally tally = FuzzCases.check("import part shapes", SHARE, (random, outcome) -> {
			List<String> shape = new ArrayList<>();
			MultipartBody body = new MultipartBody();
			boolean table = random.nextInt(5) == 0;
			files(random, body, shape, table);
			for (String part : TEXT_PARTS) {
				text(random, body, shape, part, value(random, part, table));
			}
			if (random.nextInt(6) == 0) {
				String name = pick(random, List.of("provenence", "file", "_csrf", "", "files[]", "metadata"));
				body.field(name, "{}");
				shape.add("unknown part '" + name + "'");
			}
			byte[] bytes = body.bytes();
			if (random.nextInt(12) == 0) {
				bytes = Arrays.copyOf(bytes, random.nextInt(bytes.length));
				shape.add("body cut to " + bytes.length + " bytes");
			}
			try {
				post(bytes, outcome);
			}
			catch (AssertionError | RuntimeException ex) {
				throw new AssertionError(String.join(", ", shape) + ": " + ex.getMessage(), ex);
			}
		});
		if (tally.cases() >= 40) {
			assertThat(tally.get("stored")).as("stored cases").isPositive();
			assertThat(tally.get("rejected")).as("rejected cases").isPositive();
		}
	}

	private void post(byte[] bytes, FuzzCases.Tally outcome) {
		RowCounts before = TestUploads.rows(jdbc);
		Answer answer = MultipartBody.post("http://localhost:" + port + "/api/runs/import", bytes);
		RowCounts after = TestUploads.rows(jdbc);
		assertThat(answer.status()).as("status: %s", answer).isIn(200, 201, 400, 413, 415);
		if (answer.status() == 201) {
			outcome.count("stored");
			assertThat(after.runs()).as("runs after storing").isEqualTo(before.runs() + 1);
			return;
		}
		assertThat(after).as("row counts after %s", answer).isEqualTo(before);
		if (answer.status() == 200) {
			outcome.count("already stored");
			return;
		}
		outcome.count("rejected");
		JsonNode errors = TestUploads.tree(answer.body().getBytes(StandardCharsets.UTF_8)).path("errors");
		assertThat(errors.isArray() && !errors.isEmpty()).as("errors listed in %s", answer).isTrue();
		errors.forEach(error -> {
			assertThat(error.path("path").asString("")).as("the part named in %s", answer).isNotBlank();
			assertThat(error.path("message").asString("")).as("a message in %s", answer).isNotBlank();
		});
	}

	private static void files(Random random, MultipartBody body, List<String> shape, boolean table) throws IOException {
		int kind = random.nextInt(10);
		byte[] content = table ? TABLE.getBytes(StandardCharsets.UTF_8)
				: Fixtures.read(Fixtures.sample(pick(random, SAMPLES)));
		String name = table ? "table.csv" : "results.json";
		switch (kind) {
			case 0 -> shape.add("no files part");
			case 1 -> {
				body.field("files", new String(content, StandardCharsets.UTF_8));
				shape.add("files as a form field");
			}
			case 2 -> {
				body.file("files", name, new byte[0]);
				shape.add("an empty file");
			}
			case 3 -> {
				body.file("files", "upload.zip", zip(name, content));
				shape.add("files zipped");
			}
			case 4 -> {
				body.file("files", name, Arrays.copyOf(content, random.nextInt(content.length)));
				shape.add("a file cut short");
			}
			case 5 -> {
				body.file("files", name, content).file("files", "notes.txt", "hello".getBytes(StandardCharsets.UTF_8));
				shape.add("two files");
			}
			case 6 -> {
				body.rawPart("Content-Disposition: form-data; name=files; filename=" + name, content);
				shape.add("files with unquoted parameters");
			}
			case 7 -> {
				body.part("files", pick(random, List.of("", "../../etc/passwd", "résumé \"x\".json", "a\\b.json")),
						pick(random, List.of("application/json", "text/plain; charset=latin1", "x/y")), content);
				shape.add("files with an odd name or type");
			}
			default -> {
				body.file("files", name, content);
				shape.add("one file");
			}
		}
	}

	private static String value(Random random, String part, boolean table) {
		return switch (part) {
			case "provenance" -> {
				String title = "shapes " + UUID.randomUUID();
				String provenance = """
						{"title": "%s", "role": "measured", "system": {"name": "1x H100"},
						 "model": {"repo": "example-org/model", "revision": "main"}, "engine": {"name": "vllm"},
						 "harness": {"name": "harness"}, "workload": {}}""".formatted(title);
				yield table ? provenance.replace("\"role\": \"measured\", ", "") : provenance;
			}
			case "mapping" -> table ? MAPPING : "";
			default -> table ? "table-csv" : random.nextBoolean() ? "" : "auto";
		};
	}

	private static void text(Random random, MultipartBody body, List<String> shape, String part, String value) {
		byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
		int kind = value.isEmpty() ? random.nextInt(3) == 0 ? 9 : 0 : random.nextInt(16);
		switch (kind) {
			case 0 -> {
				return;
			}
			case 1, 2, 3, 4 -> body.field(part, value);
			case 5, 6, 7 -> body.file(part, part + ".json", utf8);
			case 8 -> {
				body.field(part, value).file(part, part + ".json", utf8);
				shape.add(part + " twice");
			}
			case 9 -> {
				body.file(part, part + ".json", new byte[0]);
				shape.add(part + " an empty file");
			}
			case 10 -> {
				body.file(part, part + ".json", value.replace("e", "\u00e9").getBytes(StandardCharsets.ISO_8859_1));
				shape.add(part + " in Latin-1");
			}
			case 11 -> {
				body.part(part, null, null, (value + "\u00e9").getBytes(StandardCharsets.UTF_16));
				shape.add(part + " in UTF-16");
			}
			case 12 -> {
				body.file(part, part + ".json", ("\uFEFF" + value).getBytes(StandardCharsets.UTF_8));
				shape.add(part + " with a byte-order mark");
			}
			case 13 -> {
				body.part(part, part + ".json", pick(random,
						List.of("application/json; charset=iso-8859-1", "image/png", "multipart/mixed; boundary=x")),
						utf8);
				shape.add(part + " with an odd content type");
			}
			case 14 -> {
				body.file(part, part + ".json", Arrays.copyOf(utf8, random.nextInt(utf8.length + 1)));
				shape.add(part + " cut short");
			}
			default -> {
				body.field(part,
						pick(random,
								List.of("[]", "null", "\"text\"", "{", "42", "\u0000",
										HarnessFormat.values()[random.nextInt(HarnessFormat.values().length)].id(),
										"x".repeat(10_000))));
				shape.add(part + " of another kind");
			}
		}
	}

	private static byte[] zip(String name, byte[] content) throws IOException {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
			zip.putNextEntry(new ZipEntry("results/" + name));
			zip.write(content);
			zip.closeEntry();
		}
		return bytes.toByteArray();
	}

	private static <T> T pick(Random random, List<T> values) {
		return values.get(random.nextInt(values.size()));
	}

}
