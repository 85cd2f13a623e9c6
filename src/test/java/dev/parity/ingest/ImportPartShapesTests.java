package dev.parity.ingest;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

import dev.parity.Fixtures;
import dev.parity.MultipartBody;
import dev.parity.MultipartBody.Answer;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The parts of {@code POST /api/runs/import} as clients really send them, over real HTTP:
 * each text part ({@code provenance}, {@code mapping}, {@code format}) as a form field or
 * as a file part ({@code curl -F
 * provenance=@provenance.json}); any other shape is a 400 naming the part, and nothing is
 * stored.
 */
@ParityTest
class ImportPartShapesTests {

	private static final byte[] GUIDELLM = Fixtures.read(Fixtures.sample("guidellm-report.json"));

	private static final String TABLE = "Prompt,Users,TTFT (ms)\n280,1,920\n8192,1,6190\n";

	private static final String MAPPING = """
			{"prompt_column": "Prompt", "concurrency_column": "Users", "source_url": "https://example.org/table",
			 "metrics": {"TTFT (ms)": {"metric": "ttft_s", "unit": "ms"}}}""";

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@ParameterizedTest
	@ValueSource(booleans = { false, true })
	void provenanceAndFormatAsFormFieldsOrAsFiles(boolean asFiles) {
		MultipartBody body = new MultipartBody().file("files", "guidellm-report.json", GUIDELLM);
		text(body, "provenance", provenance("guidellm as " + (asFiles ? "files " : "fields ") + UUID.randomUUID()),
				asFiles);
		text(body, "format", "guidellm", asFiles);

		Answer answer = body.post(url());

		assertThat(answer.status()).as(answer.toString()).isEqualTo(201);
	}

	@ParameterizedTest
	@ValueSource(booleans = { false, true })
	void aTableMappingAsAFormFieldOrAsAFile(boolean asFiles) {
		MultipartBody body = new MultipartBody().file("files", "table.csv", TABLE.getBytes(StandardCharsets.UTF_8));
		text(body, "provenance", provenance("table " + UUID.randomUUID()).replace("\"role\": \"measured\", ", ""),
				asFiles);
		text(body, "mapping", MAPPING, asFiles);
		text(body, "format", "table-csv", asFiles);

		Answer answer = body.post(url());

		assertThat(answer.status()).as(answer.toString()).isEqualTo(201);
	}

	@Test
	void aProvenanceFileWithAByteOrderMarkIsRead() {
		byte[] withBom = ("\uFEFF" + provenance("bom " + UUID.randomUUID())).getBytes(StandardCharsets.UTF_8);

		Answer answer = new MultipartBody().file("files", "guidellm-report.json", GUIDELLM)
			.file("provenance", "provenance.json", withBom)
			.post(url());

		assertThat(answer.status()).as(answer.toString()).isEqualTo(201);
	}

	@ParameterizedTest
	@ValueSource(strings = { "provenance", "mapping", "format" })
	void aTextPartSentTwiceIsRefusedNamingIt(String part) {
		MultipartBody body = new MultipartBody().file("files", "guidellm-report.json", GUIDELLM)
			.field(part, part.equals("format") ? "guidellm" : provenance("twice " + UUID.randomUUID()));
		if (!part.equals("provenance")) {
			body.field("provenance", provenance("twice " + UUID.randomUUID()));
		}
		body.file(part, part + ".json", "{}".getBytes(StandardCharsets.UTF_8));

		assertRefused(body, part, "more than once");
	}

	@ParameterizedTest
	@ValueSource(strings = { "provenance", "mapping", "format" })
	void aTextPartThatIsNotUtf8IsRefusedNamingIt(String part) {
		byte[] latin1 = "{\"title\": \"caf\u00e9\"}".getBytes(StandardCharsets.ISO_8859_1);
		MultipartBody body = new MultipartBody().file("files", "guidellm-report.json", GUIDELLM);
		if (!part.equals("provenance")) {
			body.field("provenance", provenance("latin-1 " + UUID.randomUUID()));
		}
		body.file(part, part + ".json", latin1);

		assertRefused(body, part, "not UTF-8");
	}

	@Test
	void aFormFieldThatIsNotUtf8IsRefusedNamingIt() {
		byte[] latin1 = provenance("caf\u00e9").getBytes(StandardCharsets.ISO_8859_1);

		assertRefused(new MultipartBody().file("files", "guidellm-report.json", GUIDELLM)
			.part("provenance", null, null, latin1), "provenance", "not UTF-8");
	}

	@Test
	void noFilesPartIsRefusedNamingIt() {
		assertRefused(new MultipartBody().field("provenance", provenance("no files")), "files", "no file");
	}

	@Test
	void filesSentAsAFormFieldAreRefusedNamingThePart() {
		assertRefused(new MultipartBody().field("files", new String(GUIDELLM, StandardCharsets.UTF_8))
			.field("provenance", provenance("files as a field " + UUID.randomUUID())), "files", "as a file");
	}

	@Test
	void anEmptyProvenanceFileIsRefusedLikeNoProvenance() {
		assertRefused(new MultipartBody().file("files", "guidellm-report.json", GUIDELLM)
			.file("provenance", "provenance.json", new byte[0]), "$.title", "");
	}

	private void assertRefused(MultipartBody body, String part, String message) {
		TestUploads.RowCounts before = TestUploads.rows(jdbc);

		Answer answer = body.post(url());

		assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
		assertThat(answer.body()).as(answer.toString()).contains("\"path\":\"" + part + "\"").contains(message);
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
	}

	private static void text(MultipartBody body, String name, String value, boolean asFile) {
		if (asFile) {
			body.file(name, name + (name.equals("format") ? ".txt" : ".json"), value.getBytes(StandardCharsets.UTF_8));
		}
		else {
			body.field(name, value);
		}
	}

	private String url() {
		return "http://localhost:" + port + "/api/runs/import";
	}

	private static String provenance(String title) {
		return """
				{"title": "%s", "role": "measured", "system": {"name": "1x H100"},
				 "model": {"repo": "example-org/model", "revision": "main"}, "engine": {"name": "vllm"},
				 "harness": {"name": "harness"}, "workload": {}}""".formatted(title);
	}

}
