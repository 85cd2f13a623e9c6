package dev.parity.site;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.run.Sha256;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockMultipartHttpServletRequestBuilder;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.multipart;

/**
 * The stored bytes of a run, downloaded over HTTP as a client sees them: exactly what was
 * uploaded, with their length, type, name and SHA-256 as the ETag; a 304 for a client
 * that holds them; a 206 with the bytes of a range; a 404 for a run or a file that is not
 * there.
 */
@ParityTest
class RunDownloadTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Autowired
	MockMvc mvc;

	@LocalServerPort
	int port;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

	@Test
	void aLargeDocumentComesBackByteForByteWithItsHeaders() throws Exception {
		byte[] document = largeDocument(40, 1500);
		assertThat(document.length).isGreaterThan(3_000_000);
		String id = TestUploads.upload(mvc, document);

		HttpResponse<byte[]> answer = send(request("/api/runs/" + id + "/document").build());
		assertThat(answer.statusCode()).isEqualTo(200);
		assertThat(Sha256.hex(answer.body())).isEqualTo(Sha256.hex(document));
		assertThat(answer.headers().firstValueAsLong("Content-Length")).hasValue(document.length);
		assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/json");
		assertThat(answer.headers().firstValue("Content-Disposition").orElseThrow()).startsWith("attachment;")
			.contains("filename=");
		assertThat(answer.headers().firstValue("ETag")).hasValue("\"" + Sha256.hex(document) + "\"");
		assertThat(answer.headers().firstValue("Accept-Ranges")).hasValue("bytes");
	}

	@Test
	void aClientHoldingTheBytesGetsA304AndOneHoldingOthersGetsThem() throws Exception {
		byte[] document = TestUploads.fresh("run-e-control.json");
		String id = TestUploads.upload(mvc, document);
		String tag = "\"" + Sha256.hex(document) + "\"";

		HttpResponse<byte[]> held = send(request("/api/runs/" + id + "/document").header("If-None-Match", tag).build());
		assertThat(held.statusCode()).isEqualTo(304);
		assertThat(held.body()).isEmpty();
		assertThat(held.headers().firstValue("ETag")).hasValue(tag);

		HttpResponse<byte[]> other = send(request("/api/runs/" + id + "/document")
			.header("If-None-Match", "\"" + Sha256.hex(new byte[] { 1 }) + "\"")
			.build());
		assertThat(other.statusCode()).isEqualTo(200);
		assertThat(other.body()).isEqualTo(document);
	}

	@Test
	void aRangeGetsOnlyItsBytes() throws Exception {
		byte[] document = TestUploads.fresh("run-e-control.json");
		String id = TestUploads.upload(mvc, document);

		HttpResponse<byte[]> part = send(
				request("/api/runs/" + id + "/document").header("Range", "bytes=100-1099").build());
		assertThat(part.statusCode()).isEqualTo(206);
		assertThat(part.body()).isEqualTo(Arrays.copyOfRange(document, 100, 1100));
		assertThat(part.headers().firstValue("Content-Range")).hasValue("bytes 100-1099/" + document.length);

		HttpResponse<byte[]> tail = send(request("/api/runs/" + id + "/document").header("Range", "bytes=-10").build());
		assertThat(tail.statusCode()).isEqualTo(206);
		assertThat(tail.body()).isEqualTo(Arrays.copyOfRange(document, document.length - 10, document.length));

		HttpResponse<byte[]> beyond = send(
				request("/api/runs/" + id + "/document").header("Range", "bytes=" + (document.length + 10) + "-")
					.build());
		assertThat(beyond.statusCode()).isEqualTo(416);
	}

	@Test
	void everyFileOfAMultiFileImportComesBackByteForByte() throws Exception {
		String directory = "/harness/vllm-sweep/SERVE--max_num_seqs=64-BENCH--max_concurrency=8/";
		List<String> names = List.of("run=0.json", "run=1.json", "summary.json");
		MockMultipartHttpServletRequestBuilder upload = multipart("/api/runs/import");
		for (String name : names) {
			upload.file(new MockMultipartFile("files", name, "application/json", resource(directory + name)));
		}
		upload.param("provenance", """
				{"title": "Download sweep %s", "role": "measured", "system": {"name": "1x H100"},
				 "model": {"repo": "example-org/model", "revision": "main"}, "engine": {"name": "vllm"},
				 "harness": {"name": "vllm bench sweep"}, "workload": {}}""".formatted(UUID.randomUUID()));
		String answer = mvc.perform(upload.with(httpBasic(USER, PASSWORD)))
			.andReturn()
			.getResponse()
			.getContentAsString();
		String id = JSON.readTree(answer).get("id").asString();

		JsonNode files = JSON
			.readTree(mvc.perform(get("/api/runs/{id}", id)).andReturn().getResponse().getContentAsByteArray())
			.get("files");
		assertThat(files.size()).isGreaterThanOrEqualTo(names.size());
		for (JsonNode file : files) {
			HttpResponse<byte[]> back = send(request(file.get("url").asString()).build());
			assertThat(back.statusCode()).isEqualTo(200);
			assertThat(Sha256.hex(back.body())).as(file.toString()).isEqualTo(file.get("sha256").asString());
			assertThat(back.headers().firstValueAsLong("Content-Length")).hasValue(file.get("size_bytes").asLong());
			assertThat(back.headers().firstValue("Content-Type").orElseThrow())
				.startsWith(file.get("media_type").asString());
			assertThat(back.headers().firstValue("ETag")).hasValue("\"" + file.get("sha256").asString() + "\"");
			assertThat(back.headers().firstValue("Content-Disposition").orElseThrow())
				.contains("filename=\"" + file.get("name").asString() + "\"");
			if (names.contains(file.get("name").asString())) {
				assertThat(back.body()).isEqualTo(resource(directory + file.get("name").asString()));
			}
		}
	}

	@Test
	void anUnknownRunOrFileIsA404() throws Exception {
		String id = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		for (String path : List.of("/api/runs/zzzzzzzzz9/document", "/api/runs/zzzzzzzzz9/files/0",
				"/api/runs/not-a-run/document", "/api/runs/" + id + "/files/7", "/api/runs/" + id + "/files/-1")) {
			HttpResponse<byte[]> answer = send(request(path).build());
			assertThat(answer.statusCode()).as(path).isEqualTo(404);
			assertThat(answer.headers().firstValue("ETag")).as(path).isEmpty();
		}
		assertThat(new String(
				send(request("/api/runs/" + id + "/files/7").header("Accept", "application/json").build()).body()))
			.contains(id + "/files/7");
	}

	/**
	 * A valid document of {@code cells} cells with {@code samples} per-request samples
	 * each.
	 */
	private static byte[] largeDocument(int cells, int samples) {
		ObjectNode document = (ObjectNode) JSON.readTree(TestUploads.fresh("run-e-control.json"));
		Random random = new Random(7);
		ArrayNode grid = document.putArray("cells");
		for (int c = 0; c < cells; c++) {
			ObjectNode cell = grid.addObject();
			cell.putObject("params").put("prompt_tokens", 256 * (1 + c / 8)).put("concurrency", 1 + c % 8);
			cell.put("order", c + 1);
			cell.putObject("requests").put("completed", samples).put("failed", 0).put("cancelled", 0);
			cell.putObject("metrics")
				.put("ttft_s", 0.5 + random.nextDouble())
				.put("decode_tps", 60 + random.nextDouble() * 20);
			ArrayNode list = cell.putArray("samples");
			for (int s = 0; s < samples; s++) {
				list.addObject()
					.put("status", "ok")
					.put("output_tokens", 500 + random.nextInt(30))
					.put("ttft_s", 0.5 + random.nextDouble())
					.put("decode_tps", 60 + random.nextDouble() * 20);
			}
		}
		return JSON.writeValueAsBytes(document);
	}

	private static byte[] resource(String path) throws Exception {
		try (var in = RunDownloadTests.class.getResourceAsStream(path)) {
			return in.readAllBytes();
		}
	}

	private HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
			.timeout(Duration.ofSeconds(60))
			.GET();
	}

	private HttpResponse<byte[]> send(HttpRequest request) throws Exception {
		return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
	}

}
