package dev.parity.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
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
 * AIPerf and GenAI-Perf CSV exports, llama-benchy's table and progress stream and
 * inference-perf's lifecycle reports, real files all (see
 * {@code harness/<harness>/SOURCES.md}), imported through {@code POST /api/runs/import}
 * without naming their format: each is detected, and its cells, counts and metrics (in
 * catalogue units) are the files' own.
 */
@ParityTest
class HarnessExportsImportApiTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Test
	void anAiperfCsvExportCountsItsErroredRequestsAsFailed() throws Exception {
		JsonNode run = importFiles("aiperf-csv", "aiperf/profile_export_aiperf.csv");
		JsonNode cell = run.get("cells").get(0);

		// Request Count 89, Error Request Count 11; Time to First Token (ms) p50 2369.32
		assertThat(cell.at("/requests/completed").asInt()).isEqualTo(89);
		assertThat(cell.at("/requests/failed").asInt()).isEqualTo(11);
		assertThat(cell.at("/metrics/ttft_s/median").asDouble()).isCloseTo(2.36932, within(1e-9));
		assertThat(cell.at("/metrics/throughput_tps").asDouble()).isCloseTo(2320.72, within(1e-9));
		assertThat(cell.get("flags").findValuesAsString("rule")).contains("failures");
	}

	@Test
	void genaiPerfsNanosecondExportIsConvertedToSeconds() throws Exception {
		JsonNode cell = importFiles("genai-perf-csv", "genai-perf/profile_export_genai_perf-ns.csv").get("cells")
			.get(0);

		// Time To First Token (ns) p50 5806016; Request Latency (ns) avg 91214131
		assertThat(cell.at("/metrics/ttft_s/median").asDouble()).isCloseTo(0.005806016, within(1e-12));
		assertThat(cell.at("/metrics/e2e_latency_s/mean").asDouble()).isCloseTo(0.091214131, within(1e-12));
		assertThat(cell.at("/requests/completed").isNull()).isTrue();
	}

	@Test
	void genaiPerfsCurrentExportKeepsItsRequestCount() throws Exception {
		JsonNode cell = importFiles("genai-perf-csv", "genai-perf/simple_medium_response_c10_genai_perf.csv")
			.get("cells")
			.get(0);

		// Request Count (count) 26.00; Request Latency (ms) p50 "8,457.45"
		assertThat(cell.at("/requests/completed").asInt()).isEqualTo(26);
		assertThat(cell.at("/metrics/e2e_latency_s/median").asDouble()).isCloseTo(8.45745, within(1e-9));
	}

	@Test
	void genaiPerfsAnalyzeExportIsOneCellPerConfiguration() throws Exception {
		JsonNode cells = importFiles("genai-perf-csv", "genai-perf/analyze_export_genai_perf.csv").get("cells");

		assertThat(cells.size()).isEqualTo(5);
		List<Integer> prompts = new ArrayList<>();
		cells.forEach(cell -> prompts.add(cell.at("/params/num_prompts").asInt()));
		assertThat(prompts).containsExactlyInAnyOrder(100, 125, 150, 175, 200);
		JsonNode config0 = cells.valueStream()
			.filter(cell -> cell.at("/params/num_prompts").asInt() == 100)
			.findFirst()
			.orElseThrow();
		// gpt2_run_config_0,32,200,100,230.99,30.38,3346.72,125.49,1135.38,10.09
		assertThat(config0.at("/params/concurrency").asInt()).isEqualTo(32);
		assertThat(config0.at("/metrics/ttft_s/p99").asDouble()).isCloseTo(0.23099, within(1e-9));
		assertThat(config0.at("/metrics/request_throughput").asDouble()).isCloseTo(10.09, within(1e-9));
	}

	@Test
	void llamaBenchysTableNeedsNoColumnMapping() throws Exception {
		JsonNode cells = importFiles("llama-benchy-md", "llama-benchy/rdtand-prismaaura.md").get("cells");

		assertThat(cells.size()).isEqualTo(8);
		// pp2048 @ d1000: e2e_ttft 730.08 ± 72.32 ms; tg480 @ d1000: 69.03 ± 2.54 t/s
		JsonNode d1000 = cells.valueStream()
			.filter(cell -> cell.at("/params/context_tokens").asInt() == 1000)
			.findFirst()
			.orElseThrow();
		assertThat(d1000.at("/metrics/ttft_s/mean").asDouble()).isCloseTo(0.73008, within(1e-9));
		assertThat(d1000.at("/metrics/decode_tps/mean").asDouble()).isCloseTo(69.03, within(1e-9));
	}

	@Test
	void llamaBenchysProgressStreamGivesSamplesAndCounts() throws Exception {
		JsonNode cells = importFiles("llama-benchy-progress", "llama-benchy/rdtand-prismaaura.progress.jsonl")
			.get("cells");

		assertThat(cells.size()).isEqualTo(8);
		int requests = 0;
		for (JsonNode cell : cells) {
			requests += cell.at("/requests/completed").asInt();
			assertThat(cell.at("/requests/failed").asInt()).isZero();
		}
		// 24 request_start events, 24 request_end events without an error.
		assertThat(requests).isEqualTo(24);
	}

	@Test
	void inferencePerfsStagesAreCellsCountedBySuccessesAndFailures() throws Exception {
		List<String> files = new ArrayList<>();
		for (int stage = 0; stage <= 6; stage++) {
			files.add("inference-perf/stages/stage_" + stage + "_lifecycle_metrics.json");
		}
		files.add("inference-perf/stages/stage_0_prometheus_metrics.json");
		files.add("inference-perf/summary_lifecycle_metrics.json");
		JsonNode cells = importFiles("inference-perf", files.toArray(String[]::new)).get("cells");

		assertThat(cells.size()).isEqualTo(7);
		JsonNode rate38 = cells.valueStream()
			.filter(cell -> cell.at("/params/request_rate").asDouble() == 37.97)
			.findFirst()
			.orElseThrow();
		// stage 1: successes 2278, failures 0; time_to_first_token median
		// 0.030646827479358763 s
		assertThat(rate38.at("/requests/completed").asInt()).isEqualTo(2278);
		assertThat(rate38.at("/requests/failed").asInt()).isZero();
		assertThat(rate38.at("/requests/cancelled").asInt()).isZero();
		assertThat(rate38.at("/metrics/ttft_s/median").asDouble()).isCloseTo(0.030646827479358763, within(1e-15));
	}

	private JsonNode importFiles(String format, String... paths) throws Exception {
		MockMultipartHttpServletRequestBuilder request = multipart("/api/runs/import");
		for (String path : paths) {
			request.file(new MockMultipartFile("files", path.substring(path.lastIndexOf('/') + 1),
					"application/octet-stream", resource(path)));
		}
		request.param("provenance", """
				{"title": "%s", "role": "measured", "system": {"name": "1x H100"},
				 "model": {"repo": "example-org/model", "revision": "main"}, "engine": {"name": "vllm"},
				 "harness": {"name": "harness"}, "workload": {}}""".formatted(format + " " + UUID.randomUUID()));
		request.with(httpBasic(USER, PASSWORD));
		MvcResult result = mvc.perform(request).andReturn();
		assertThat(result.getResponse().getStatus()).as(result.getResponse().getContentAsString(StandardCharsets.UTF_8))
			.isEqualTo(201);
		String id = TestUploads.tree(result.getResponse().getContentAsByteArray()).get("id").asString();
		assertThat(jdbc.sql("select detail from audit_event where action = 'import-run' and subject = ?")
			.param(id)
			.query(String.class)
			.single()).contains(format + ":");
		return TestUploads.tree(mvc.perform(get("/api/runs/{id}", id))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
	}

	private static byte[] resource(String path) throws IOException {
		try (InputStream in = HarnessExportsImportApiTests.class.getResourceAsStream("/harness/" + path)) {
			assertThat(in).as(path).isNotNull();
			return in.readAllBytes();
		}
	}

}
