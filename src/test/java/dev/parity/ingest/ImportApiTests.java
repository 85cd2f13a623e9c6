package dev.parity.ingest;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import dev.parity.Fixtures;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockMultipartHttpServletRequestBuilder;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.multipart;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Harness output imported through {@code POST /api/runs/import}: every sample, its flags,
 * and its refusals.
 */
@ParityTest
class ImportApiTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@ParameterizedTest
	@CsvSource({ "vllm-bench-serve-all-failed.json, vllm", "vllm-bench-sweep-run.json, vllm-sweep",
			"sglang-bench-serving.jsonl, sglang", "llmperf-summary.json, llmperf-summary",
			"aiperf-profile-export.json, aiperf", "llama-benchy-report.json, llama-benchy",
			"vllm-bench-serve-detailed.json, vllm", "sglang-bench-serving-details.jsonl, sglang",
			"aiperf-profile-export.jsonl, aiperf-records", "llmperf-individual-responses.json, llmperf-responses",
			"guidellm-report.json, guidellm" })
	void importsEverySampleAsDetectedKeepingTheFileVerbatim(String sample, String format) throws Exception {
		byte[] bytes = Fixtures.read(Fixtures.sample(sample));
		String id = importRun(List.of(new MockMultipartFile("files", sample, "application/octet-stream", bytes)), null,
				provenance("Sample " + sample + " " + UUID.randomUUID()), 201);
		JsonNode run = run(id);
		assertThat(run.get("cells").size()).isPositive();
		assertThat(run.get("files").get(0).get("name").asString()).isEqualTo(sample);
		byte[] back = mvc.perform(get("/api/runs/{id}/files/0", id))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray();
		assertThat(back).isEqualTo(bytes);
		assertThat(jdbc.sql("select detail from audit_event where action = 'import-run' and subject = ?")
			.param(id)
			.query(String.class)
			.single()).contains(format + ":");
		String page = mvc.perform(get("/runs/{id}", id))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(page).contains(sample);
	}

	@Test
	void theColdSweepRunIsSkewedWithValuesConvertedFromMilliseconds() throws Exception {
		String id = importSample("vllm-bench-sweep-run.json");
		JsonNode cell = run(id).get("cells").get(0);
		assertThat(cell.get("metrics").get("ttft_s").get("mean").asDouble()).isCloseTo(0.217, within(0.0005));
		assertThat(cell.get("metrics").get("ttft_s").get("median").asDouble()).isCloseTo(0.045, within(0.0005));
		assertThat(cell.get("params").get("max_num_seqs").asInt()).isEqualTo(4);
		assertThat(cell.get("flags").findValuesAsString("rule")).contains("skewed");
	}

	@Test
	void theAllFailedVllmFileIsAnAllFailedRunWithoutInventedLatencies() throws Exception {
		String id = importSample("vllm-bench-serve-all-failed.json");
		JsonNode run = run(id);
		assertThat(run.get("flags").findValuesAsString("rule")).contains("all-failed", "unpinned");
		JsonNode cell = run.get("cells").get(0);
		assertThat(cell.get("requests").get("completed").asInt()).isZero();
		assertThat(cell.get("requests").get("failed").asInt()).isEqualTo(8);
		assertThat(cell.get("metrics").has("ttft_s")).isFalse();
	}

	@Test
	void theFirstLlamaBenchyRepetitionIsAnOutlier() throws Exception {
		String id = importSample("llama-benchy-report.json");
		List<String> messages = run(id).get("cells")
			.get(0)
			.get("flags")
			.valueStream()
			.filter(f -> f.get("rule").asString().equals("outlier"))
			.map(f -> f.get("message").asString())
			.toList();
		assertThat(messages).anySatisfy(m -> assertThat(m).contains("run 1 of 15").contains("1,545"));
	}

	@Test
	void sameFilesAndProvenanceGiveTheSameRunAndCorrectedProvenanceANewOne() throws Exception {
		byte[] bytes = Fixtures.read(Fixtures.sample("guidellm-report.json"));
		String title = "guidellm " + UUID.randomUUID();
		MockMultipartFile file = new MockMultipartFile("files", "guidellm-report.json", "application/json", bytes);
		String first = importRun(List.of(file), null, provenance(title), 201);
		String again = importRun(List.of(file), null, provenance(title), 200);
		assertThat(again).isEqualTo(first);
		String pinned = provenance(title).replace("\"revision\": \"main\"",
				"\"revision\": \"main\", \"commit\": \"4f2a9c1e7b3d5a0f8c6e2d1b9a7f5e3c1d0b8a6f\"");
		String corrected = importRun(List.of(file), null, pinned, 201);
		assertThat(corrected).isNotEqualTo(first);
		assertThat(run(corrected).get("model").get("pinned").asBoolean()).isTrue();
	}

	@Test
	void anUnknownOrTruncatedFileIsRefusedAndNothingIsStored() throws Exception {
		TestUploads.RowCounts before = TestUploads.rows(jdbc);
		String unknown = mvc
			.perform(request(List.of(new MockMultipartFile("files", "notes.json", "application/json",
					"{\"hello\": \"world\"}".getBytes())), null, provenance("unknown")))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(unknown).contains("\"path\":\"format\"");
		byte[] whole = Fixtures.read(Fixtures.sample("aiperf-profile-export.json"));
		String truncated = mvc
			.perform(request(List.of(new MockMultipartFile("files", "profile_export_aiperf.json", "application/json",
					Arrays.copyOf(whole, whole.length / 3))), "aiperf", provenance("truncated")))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(truncated).contains("profile_export_aiperf.json");
		String noProvenance = mvc
			.perform(request(List.of(new MockMultipartFile("files", "guidellm-report.json", "application/json",
					Fixtures.read(Fixtures.sample("guidellm-report.json")))), null, "{}"))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(noProvenance).contains("$.title").contains("$.system").contains("$.engine");
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
	}

	@Test
	void aPublishedTableBecomesAReferenceRun() throws Exception {
		String csv = "Prompt,Users,TTFT (ms),Decode (tok/s)\n280,1,920,76.9\n8192,1,6190,75.2\n";
		String mapping = """
				{"prompt_column": "Prompt", "concurrency_column": "Users", "source_url": "https://example.org/table",
				 "metrics": {"TTFT (ms)": {"metric": "ttft_s", "unit": "ms"}, "Decode (tok/s)": {"metric": "decode_tps", "unit": "tokens/s"}}}""";
		MockMultipartHttpServletRequestBuilder request = request(
				List.of(new MockMultipartFile("files", "table.csv", "text/csv", csv.getBytes(StandardCharsets.UTF_8))),
				"table-csv",
				provenance("Published table " + UUID.randomUUID()).replace("\"role\": \"measured\", ", ""));
		request.param("mapping", mapping);
		MvcResult result = mvc.perform(request).andExpect(status().isCreated()).andReturn();
		JsonNode run = run(TestUploads.tree(result.getResponse().getContentAsByteArray()).get("id").asString());
		assertThat(run.get("role").asString()).isEqualTo("reference");
		assertThat(run.get("source").get("url").asString()).isEqualTo("https://example.org/table");
		assertThat(run.get("cells").get(0).get("metrics").get("ttft_s").asDouble()).isEqualTo(0.92);
	}

	private String importSample(String sample) throws Exception {
		byte[] bytes = Fixtures.read(Fixtures.sample(sample));
		return importRun(List.of(new MockMultipartFile("files", sample, "application/octet-stream", bytes)), null,
				provenance(sample + " " + UUID.randomUUID()), 201);
	}

	private String importRun(List<MockMultipartFile> files, String format, String provenance, int expected)
			throws Exception {
		MvcResult result = mvc.perform(request(files, format, provenance)).andReturn();
		assertThat(result.getResponse().getStatus()).as(result.getResponse().getContentAsString()).isEqualTo(expected);
		return TestUploads.tree(result.getResponse().getContentAsByteArray()).get("id").asString();
	}

	private static MockMultipartHttpServletRequestBuilder request(List<MockMultipartFile> files, String format,
			String provenance) {
		MockMultipartHttpServletRequestBuilder request = multipart("/api/runs/import");
		files.forEach(request::file);
		if (format != null) {
			request.param("format", format);
		}
		request.param("provenance", provenance);
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

	private static String provenance(String title) {
		return """
				{"title": "%s", "role": "measured", "system": {"name": "1x H100"},
				 "model": {"repo": "example-org/model", "revision": "main"}, "engine": {"name": "vllm"},
				 "harness": {"name": "harness"}, "workload": {}}""".formatted(title);
	}

}
