package dev.parity.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockMultipartHttpServletRequestBuilder;
import org.springframework.web.util.HtmlUtils;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.multipart;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The llm-d benchmark report, MLPerf results and a results page with several tables,
 * imported through {@code POST /api/runs/import} and the import form.
 */
@ParityTest
class StandardFormatsImportTests {

	private static final String UNDER_RESULTS = "128K × c=4 did not finish within the 30-minute limit, so it is not in"
			+ " the table; 32K × c=4 had one request four times slower than the others.";

	@Autowired
	MockMvc mvc;

	@Test
	void anLlmdReportIsDetectedAndStoredWithItsMetricsInCatalogueUnits() throws Exception {
		String id = importRun(file("llm-d/wide-ep/benchmark_report_v0.2,_stage_0_lifecycle_metrics.json.yaml"), null,
				null, 201);
		JsonNode run = run(id);
		JsonNode cell = run.get("cells").get(0);
		assertThat(cell.get("params").get("concurrency").asInt()).isEqualTo(2048);
		assertThat(cell.get("requests").get("completed").asInt()).isEqualTo(8192);
		assertThat(cell.get("requests").get("cancelled").isNull()).isTrue();
		assertThat(cell.get("metrics").get("ttft_s").get("median").asDouble()).isEqualTo(11.075260647572577);
		assertThat(cell.get("metrics").get("tpot_ms").get("median").asDouble()).isCloseTo(79.90098050042406,
				within(1e-9));
		assertThat(run.get("metric_definitions").get("ntpot_ms").get("unit").asString()).isEqualTo("ms");
		assertThat(run.get("harness").get("name").asString()).isEqualTo("harness");
	}

	@Test
	void anMlperfServerLogIsOneCellAtItsRateWithUnknownFailures() throws Exception {
		String id = importRun(file("mlperf/loadgen-llama2-70b-server/mlperf_log_detail.txt"), "mlperf", null, 201);
		JsonNode cell = run(id).get("cells").get(0);
		assertThat(cell.get("params").get("request_rate").asDouble()).isEqualTo(83.5);
		assertThat(cell.get("requests").get("completed").asInt()).isEqualTo(73728);
		assertThat(cell.get("requests").get("failed").isNull()).isTrue();
		assertThat(cell.get("metrics").get("ttft_s").get("median").asDouble()).isCloseTo(0.875073063, within(1e-12));
		assertThat(cell.get("metrics").get("throughput_tps").asDouble()).isEqualTo(24593.8);
	}

	@Test
	void aResultsPageWithSeveralTablesImportsTheMappedOneWithoutUnitsOrSaysWhichTablesThereAre() throws Exception {
		String mapping = """
				{"prompt_column": "Prompt", "concurrency_column": "Concurrency", "source_url": "https://example.org/moe",
				 "metrics": {"TTFT (ms)": {"metric": "ttft_s"}, "Decode (tok/s)": {"metric": "decode_tps"}}}""";
		String id = importRun(file("published-table/results-page.md"), "table-markdown", mapping, 201);
		JsonNode cells = run(id).get("cells");
		assertThat(cells).hasSize(5);
		assertThat(cells.get(0).get("metrics").get("ttft_s").asDouble()).isEqualTo(2.14);

		String title = "no table " + UUID.randomUUID();
		MvcResult refused = mvc.perform(request(file("published-table/results-page.md"), "table-markdown", """
				{"prompt_column": "Prompt", "concurrency_column": "Users", "source_url": "https://example.org/moe",
				 "metrics": {"TTFT (s)": {"metric": "ttft_s"}}}""", title)).andReturn();
		assertThat(refused.getResponse().getStatus()).isEqualTo(400);
		assertThat(refused.getResponse().getContentAsString(StandardCharsets.UTF_8))
			.contains("no table has every mapped column")
			.contains("table 3 (Prompt, Concurrency, TTFT (s))");
		JsonNode found = TestUploads
			.tree(mvc.perform(get("/api/runs").param("q", title)).andReturn().getResponse().getContentAsByteArray());
		assertThat(found.get("total").asInt()).as("nothing stored").isZero();
	}

	@Test
	void theFormListsTheTablesAndTheirColumnsAndKeepsTheTextUnderTheTableAsACaveat() throws Exception {
		byte[] page = read("published-table/results-page.md");
		String first = mvc
			.perform(multipart("/upload").file(new MockMultipartFile("file", "results-page.md", "text/markdown", page))
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(first).contains("id=\"tables-found\"")
			.contains("3 tables in the text")
			.containsPattern(
					"id=\"table-2\"><strong>Table 2:</strong>\\s*<code>Prompt</code>, <code>Concurrency</code>,"
							+ " <code>TTFT \\(ms\\)</code>")
			.contains("<select name=\"tableNumber\" id=\"table-number\">");
		assertThat(first).contains("<option value=\"Decode (tok/s)\">");

		String token = token(first);
		String preview = form(token, "preview", null);
		assertThat(preview).contains("id=\"offered-caveat\"");
		Matcher caveats = Pattern.compile("<textarea[^>]*name=\"caveats\"[^>]*>([^<]*)</textarea>").matcher(preview);
		assertThat(caveats.find()).isTrue();
		assertThat(HtmlUtils.htmlUnescape(caveats.group(1)).strip()).isEqualTo(UNDER_RESULTS);
		assertThat(HtmlUtils.htmlUnescape(preview)).contains("name=\"offeredCaveat\" value=\"" + UNDER_RESULTS + "\"");

		MockHttpServletResponse stored = mvc
			.perform(post("/upload/import").with(httpBasic(USER, PASSWORD))
				.with(csrf())
				.param("token", token)
				.param("action", "store")
				.param("format", "table-markdown")
				.param("title", "Results page " + UUID.randomUUID())
				.param("role", "reference")
				.param("sourceUrl", "https://example.org/moe")
				.param("systemName", "2x GB10")
				.param("modelRepo", "example-org/moe-284b")
				.param("engineName", "vllm")
				.param("harnessName", "blog")
				.param("promptColumn", "Prompt")
				.param("concurrencyColumn", "Concurrency")
				.param("metricColumns", "TTFT (ms) = ttft_s\nDecode (tok/s) = decode_tps")
				.param("caveats", UNDER_RESULTS)
				.param("offeredCaveat", UNDER_RESULTS))
			.andReturn()
			.getResponse();
		assertThat(stored.getRedirectedUrl()).as(stored.getContentAsString(StandardCharsets.UTF_8))
			.startsWith("/runs/");
		String id = stored.getRedirectedUrl().substring("/runs/".length()).replaceFirst("\\?.*", "");
		// Disclosed with the run: in its document and on its page (the API's "caveats"
		// are the ones written later).
		JsonNode document = TestUploads
			.tree(mvc.perform(get("/api/runs/{id}/files/1", id)).andReturn().getResponse().getContentAsByteArray());
		assertThat(document.get("caveats").get(0).asString()).isEqualTo(UNDER_RESULTS);
		String runPage = mvc.perform(get("/runs/{id}", id))
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(HtmlUtils.htmlUnescape(runPage)).contains(UNDER_RESULTS);
		JsonNode run = run(id);
		assertThat(run.get("cells")).hasSize(5);
	}

	@Test
	void anOfferedCaveatTheUploaderDeletedIsNotOfferedAgain() throws Exception {
		byte[] page = read("published-table/results-page.md");
		String first = mvc
			.perform(multipart("/upload").file(new MockMultipartFile("file", "results-page.md", "text/markdown", page))
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		String again = form(token(first), "preview", UNDER_RESULTS);
		Matcher caveats = Pattern.compile("<textarea[^>]*name=\"caveats\"[^>]*>([^<]*)</textarea>").matcher(again);
		assertThat(caveats.find()).isTrue();
		assertThat(caveats.group(1).strip()).isEmpty();
	}

	private String form(String token, String action, String offeredBefore) throws Exception {
		var request = post("/upload/import").with(httpBasic(USER, PASSWORD))
			.with(csrf())
			.param("token", token)
			.param("action", action)
			.param("format", "table-markdown")
			.param("promptColumn", "Prompt")
			.param("concurrencyColumn", "Concurrency")
			.param("metricColumns", "TTFT (ms) = ttft_s\nDecode (tok/s) = decode_tps")
			.param("caveats", "");
		if (offeredBefore != null) {
			request.param("offeredCaveat", offeredBefore);
		}
		return mvc.perform(request).andReturn().getResponse().getContentAsString(StandardCharsets.UTF_8);
	}

	private static String token(String page) {
		Matcher token = Pattern.compile("name=\"token\" value=\"([^\"]+)\"").matcher(page);
		assertThat(token.find()).as("the held upload's token").isTrue();
		return token.group(1);
	}

	private static byte[] read(String path) throws IOException {
		try (InputStream in = StandardFormatsImportTests.class.getResourceAsStream("/harness/" + path)) {
			return in.readAllBytes();
		}
	}

	private static MockMultipartFile file(String path) throws IOException {
		return new MockMultipartFile("files", path.substring(path.lastIndexOf('/') + 1), "application/octet-stream",
				read(path));
	}

	private String importRun(MockMultipartFile file, String format, String mapping, int expected) throws Exception {
		MvcResult result = mvc.perform(request(file, format, mapping, "Standard format " + UUID.randomUUID()))
			.andReturn();
		assertThat(result.getResponse().getStatus()).as(result.getResponse().getContentAsString()).isEqualTo(expected);
		return TestUploads.tree(result.getResponse().getContentAsByteArray()).get("id").asString();
	}

	private static MockMultipartHttpServletRequestBuilder request(MockMultipartFile file, String format, String mapping,
			String title) {
		MockMultipartHttpServletRequestBuilder request = multipart("/api/runs/import");
		request.file(file);
		if (format != null) {
			request.param("format", format);
		}
		if (mapping != null) {
			request.param("mapping", mapping);
		}
		request.param("provenance", """
				{"title": "%s", "role": "reference", "source": {"url": "https://example.org/moe"},
				 "system": {"name": "1x H100"}, "model": {"repo": "example-org/model", "revision": "main"},
				 "engine": {"name": "vllm"}, "harness": {"name": "harness"}, "workload": {}}""".formatted(title));
		request.with(httpBasic(USER, PASSWORD));
		return request;
	}

	private JsonNode run(String id) throws Exception {
		return TestUploads.tree(mvc.perform(get("/api/runs/{id}", id))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
	}

}
