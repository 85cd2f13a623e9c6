package dev.parity.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.UUID;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.multipart;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * GuideLLM reports and vLLM results of other versions than the shared samples, found in
 * public repositories (see {@code harness/guidellm/SOURCES.md} and
 * {@code harness/vllm/SOURCES.md}), imported through {@code POST /api/runs/import}
 * without naming the format: none is refused, and the stored run has the counts and cells
 * the files state. Expected values are read from the files.
 */
@ParityTest
class HarnessVersionsImportApiTests {

	@Autowired
	MockMvc mvc;

	@ParameterizedTest
	@CsvSource({
			// file, cells, completed / failed / cancelled of the first cell
			"guidellm/guidellm-0.2-main-benchmarks_stripped.json, 1, 46, 0, 1",
			"guidellm/guidellm-0.3.0-benchmarks_stripped.json, 1, 46, 0, 1",
			"guidellm/guidellm-0.3.0-benchmarks_stripped.yaml, 1, 46, 0, 1",
			"guidellm/guidellm-0.2-benchmark-results.yaml, 1, 14, 0, 1",
			"guidellm/guidellm-0.8.0.dev18-v2-report.json, 2, 2, 0, 0",
			"vllm/benchmark_serving-240-of-250.json, 1, 240, 10, ",
			"vllm/benchmark_serving-append-result-two-sweeps.json, 12, 120, 0, ",
			"vllm/benchmark_serving-metadata-deployments.json, 9, 300, 0, ",
			"vllm/bench_serving-completed-0-of-640.json, 1, 0, 640, ",
			"vllm/bench_serving-goodput-colon-p99.9.json, 1, 160, 0, " })
	void everyVersionIsImportedWithTheCountsItsFileStates(String path, int cells, int completed, int failed,
			Integer cancelled) throws Exception {
		JsonNode run = run(importFile(path));

		assertThat(run.get("cells")).hasSize(cells);
		JsonNode requests = run.get("cells").get(0).get("requests");
		assertThat(requests.get("completed").asInt()).isEqualTo(completed);
		assertThat(requests.get("failed").asInt()).isEqualTo(failed);
		if (cancelled == null) {
			assertThat(requests.path("cancelled").isNumber()).isFalse();
		}
		else {
			assertThat(requests.get("cancelled").asInt()).isEqualTo(cancelled);
		}
	}

	@Test
	void theGuidellmCountsAreTheReportTotalsNotItsStoredSample() throws Exception {
		// request_totals 46 successful + 1 incomplete; the report stores one request.
		JsonNode cell = run(importFile("guidellm/guidellm-0.3.0-benchmarks_stripped.json")).get("cells").get(0);

		assertThat(cell.get("requests").get("completed").asInt()).isEqualTo(46);
		assertThat(cell.get("samples")).hasSize(1);
		assertThat(cell.get("params").get("concurrency").asInt()).isEqualTo(1);
	}

	@Test
	void theVllmRateInfCellsCountEveryUncompletedPromptAsFailed() throws Exception {
		// 2000 prompts sent at rate inf, 1015 completed, in each of the two appended
		// sweeps.
		JsonNode cells = run(importFile("vllm/benchmark_serving-append-result-two-sweeps.json")).get("cells");

		List<JsonNode> unlimited = cells.valueStream()
			.filter(cell -> cell.get("params").get("request_rate").asString().equals("inf"))
			.toList();
		assertThat(unlimited).hasSize(2);
		assertThat(unlimited).allMatch(cell -> cell.get("requests").get("completed").asInt() == 1015
				&& cell.get("requests").get("failed").asInt() == 985);
		assertThat(unlimited.stream().map(cell -> cell.get("params").get("framework").asString()))
			.containsExactlyInAnyOrder("vllm", "sgl");
	}

	private String importFile(String path) throws Exception {
		byte[] bytes;
		try (InputStream in = getClass().getResourceAsStream("/harness/" + path)) {
			if (in == null) {
				throw new IOException("no test resource " + path);
			}
			bytes = in.readAllBytes();
		}
		String name = path.substring(path.lastIndexOf('/') + 1);
		MvcResult result = mvc
			.perform(multipart("/api/runs/import")
				.file(new MockMultipartFile("files", name, "application/octet-stream", bytes))
				.param("provenance", provenance(name + " " + UUID.randomUUID()))
				.with(httpBasic(USER, PASSWORD)))
			.andReturn();
		assertThat(result.getResponse().getStatus()).as(result.getResponse().getContentAsString()).isEqualTo(201);
		return TestUploads.tree(result.getResponse().getContentAsByteArray()).get("id").asString();
	}

	private JsonNode run(String id) throws Exception {
		return TestUploads.tree(mvc.perform(get("/api/runs/{id}", id).with(httpBasic(USER, PASSWORD)))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
	}

	private static String provenance(String title) {
		return """
				{"title": "%s", "role": "measured", "system": {"name": "1x L40S"},
				 "model": {"repo": "example-org/model", "revision": "main"}, "engine": {"name": "vllm"},
				 "harness": {"name": "harness"}, "workload": {}}""".formatted(title);
	}

}
