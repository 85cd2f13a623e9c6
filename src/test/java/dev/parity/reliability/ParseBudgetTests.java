package dev.parity.reliability;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import dev.parity.MultipartBody;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.TestUploads.RowCounts;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.multipart;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * JSON that is small as bytes but huge as a tree (13 million empty objects are 39 MB of
 * text, 38 KB zipped, and about a gigabyte as a tree) is refused with a 413 naming the
 * limit before the tree is built, over real HTTP, in every importer path; nothing is
 * stored and the server keeps answering.
 */
@ParityTest
class ParseBudgetTests {

	/**
	 * The provenance a real import sends, complete and valid: what refuses the upload is
	 * the parse bound.
	 */
	private static final String PROVENANCE = """
			{"title": "Sweep on 1x L40S", "system": {"name": "1x L40S"},
			 "model": {"repo": "org/model", "revision": "main", "commit": "0123456789abcdef0123456789abcdef01234567"},
			 "engine": {"name": "vllm", "version": "0.11.2", "flags": {"max-num-seqs": "64"}},
			 "harness": {"name": "vllm bench sweep"}}""";

	private static final HttpClient CLIENT = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	MockMvc mvc;

	/** {@code [{},{},…]}: {@code count} empty objects. */
	static byte[] emptyObjects(int count) {
		byte[] bytes = new byte[count * 3 + 1];
		bytes[0] = '[';
		for (int i = 0; i < count; i++) {
			bytes[1 + 3 * i] = '{';
			bytes[2 + 3 * i] = '}';
			bytes[3 + 3 * i] = (byte) (i == count - 1 ? ']' : ',');
		}
		return bytes;
	}

	static byte[] zip(String name, byte[] content) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		try (ZipOutputStream zip = new ZipOutputStream(out)) {
			zip.setLevel(9);
			zip.putNextEntry(new ZipEntry(name));
			zip.write(content);
			zip.closeEntry();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return out.toByteArray();
	}

	@Test
	void aSmallZipOfThirteenMillionEmptyObjectsIsRefusedWith413AndTheServerKeepsAnswering() {
		RowCounts before = TestUploads.rows(jdbc);
		byte[] zip = zip("results/run=0.json", emptyObjects(13_000_000));
		assertThat(zip.length).isLessThan(64 << 10);

		MultipartBody.Answer answer = new MultipartBody().file("files", "objs.zip", zip)
			.field("provenance", PROVENANCE)
			.post(url("/api/runs/import"));

		assertThat(answer.status()).as(answer.toString()).isEqualTo(413);
		assertThat(answer.body()).contains("\"path\":\"files\"")
			.contains("results/run=0.json: an array of more than 2,000,000 values")
			.contains("parity.limits.max-json-array-length");
		assertHealthy();
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
	}

	@Test
	void theSameArrayUploadedPlainIsRefusedWith413() {
		RowCounts before = TestUploads.rows(jdbc);
		byte[] plain = emptyObjects(13_000_000);
		assertThat(plain.length).isGreaterThan(38_000_000);

		MultipartBody.Answer answer = new MultipartBody().file("files", "objs.json", plain)
			.field("provenance", PROVENANCE)
			.post(url("/api/runs/import"));

		assertThat(answer.status()).as(answer.toString()).isEqualTo(413);
		assertThat(answer.body()).contains("objs.json: an array of more than 2,000,000 values at line 1, column ")
			.contains("parity.limits.max-json-array-length");
		assertHealthy();
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
	}

	@Test
	void manyArraysEachWithinTheLengthLimitAreRefusedByTheLimitOnValues() {
		RowCounts before = TestUploads.rows(jdbc);
		// Nine arrays of 1.9 million empty objects: 17.1 million values, every array
		// shorter than the limit.
		ByteArrayOutputStream nested = new ByteArrayOutputStream();
		nested.write('[');
		byte[] million = emptyObjects(1_900_000);
		for (int i = 0; i < 9; i++) {
			if (i > 0) {
				nested.write(',');
			}
			nested.writeBytes(million);
		}
		nested.write(']');

		MultipartBody.Answer answer = new MultipartBody().file("files", "nested.json", nested.toByteArray())
			.field("provenance", PROVENANCE)
			.post(url("/api/runs/import"));

		assertThat(answer.status()).as(answer.toString()).isEqualTo(413);
		assertThat(answer.body()).contains("nested.json: more than 16,000,000 JSON values in the upload")
			.contains("parity.limits.max-json-nodes");
		assertHealthy();
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
	}

	@Test
	void aRunDocumentHidingTheArrayInACellIsRefusedWith413NamingTheCell() {
		RowCounts before = TestUploads.rows(jdbc);
		ByteArrayOutputStream document = new ByteArrayOutputStream();
		document.writeBytes(("{\"format\": \"benchmark-run/1\", \"title\": \"objects\", \"role\": \"measured\","
				+ " \"cells\": [{\"params\": {\"concurrency\": 1}, \"samples\": ")
			.getBytes(StandardCharsets.UTF_8));
		document.writeBytes(emptyObjects(13_000_000));
		document.writeBytes("}]}".getBytes(StandardCharsets.UTF_8));

		HttpResponse<String> answer = send(HttpRequest.newBuilder(URI.create(url("/api/runs")))
			.header("Authorization", basic())
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofByteArray(document.toByteArray())));

		assertThat(answer.statusCode()).as(answer.body()).isEqualTo(413);
		assertThat(answer.body()).contains("\"path\":\"$.cells[0]\"")
			.contains("an array of more than 2,000,000 values")
			.contains("parity.limits.max-json-array-length");
		assertHealthy();
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
	}

	@Test
	void theProvenanceIsBoundedToo() {
		MultipartBody.Answer answer = new MultipartBody()
			.file("files", "vllm-bench-serve.json", "{}".getBytes(StandardCharsets.UTF_8))
			// As a file part (curl -F provenance=@provenance.json): a form field is cut
			// at 2 MB before it is read.
			.file("provenance", "provenance.json",
					("{\"context\": " + new String(emptyObjects(3_000_000), StandardCharsets.US_ASCII) + "}")
						.getBytes(StandardCharsets.US_ASCII))
			.post(url("/api/runs/import"));

		assertThat(answer.status()).as(answer.toString()).isEqualTo(413);
		assertThat(answer.body()).contains("\"path\":\"provenance\"")
			.contains("an array of more than 2,000,000 values at line 1, column 6000014")
			.contains("parity.limits.max-json-array-length");
		assertHealthy();
	}

	@Test
	void theUploadFormAnswers413NamingTheLimit() throws Exception {
		RowCounts before = TestUploads.rows(jdbc);

		String page = mvc
			.perform(multipart("/upload")
				.file(new MockMultipartFile("file", "objs.zip", "application/zip",
						zip("objs.json", emptyObjects(3_000_000))))
				.with(httpBasic(TestUploads.USER, TestUploads.PASSWORD))
				.with(csrf()))
			.andExpect(status().isContentTooLarge())
			.andReturn()
			.getResponse()
			.getContentAsString();

		assertThat(page).contains("objs.json: an array of more than 2,000,000 values")
			.contains("parity.limits.max-json-array-length");
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
		assertHealthy();
	}

	@Test
	void aCollectEnvFileWithLinesOfAMillionCharactersImports() throws IOException {
		String collectEnv = "A" + " ".repeat(999_999) + "\n" + "OS: Ubuntu 20.04.6 LTS" + " ".repeat(999_000)
				+ "(x86_64\n"
				+ new String(resource("/harness/environment/collect-env-legacy.txt"), StandardCharsets.UTF_8);

		long start = System.nanoTime();
		MultipartBody.Answer answer = new MultipartBody()
			.file("files", "vllm.json", resource("/harness/vllm-bench-serve-partial-failure.json"))
			.file("files", "collect-env.txt", collectEnv.getBytes(StandardCharsets.UTF_8))
			.field("provenance",
					PROVENANCE.replace("Sweep on 1x L40S", "collect-env with long lines " + System.nanoTime()))
			.field("format", "vllm")
			.post(url("/api/runs/import"));
		System.out.printf("import with two collect-env lines of a million characters: %d ms%n",
				(System.nanoTime() - start) / 1_000_000);

		assertThat(answer.status()).as(answer.toString()).isEqualTo(201);
		String id = answer.body().replaceAll(".*\"id\":\"([a-z0-9]+)\".*", "$1");
		assertThat(jdbc.sql("select provenance::text from run where id = ?").param(id).query(String.class).single())
			.contains("\"driver\": \"550.90.07\"");
	}

	private static byte[] resource(String path) throws IOException {
		try (var in = ParseBudgetTests.class.getResourceAsStream(path)) {
			return in.readAllBytes();
		}
	}

	private void assertHealthy() {
		HttpResponse<String> health = send(HttpRequest.newBuilder(URI.create(url("/actuator/health"))).GET());
		assertThat(health.statusCode()).isEqualTo(200);
		assertThat(health.body()).contains("UP");
	}

	private String url(String path) {
		return "http://localhost:" + port + path;
	}

	private static String basic() {
		return "Basic " + Base64.getEncoder()
			.encodeToString((TestUploads.USER + ":" + TestUploads.PASSWORD).getBytes(StandardCharsets.UTF_8));
	}

	private static HttpResponse<String> send(HttpRequest.Builder request) {
		try {
			return CLIENT.send(request.timeout(Duration.ofSeconds(60)).build(),
					HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
