package dev.parity.site;

import java.nio.charset.StandardCharsets;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** The server-rendered pages, readable without JavaScript. */
@ParityTest
class RunPagesTests {

	@Autowired
	MockMvc mvc;

	@Test
	void runPageShowsProvenanceCountsAndValuesOfTheFile() throws Exception {
		String id = TestUploads.upload(mvc, "reference.json");
		String page = page("/runs/" + id);
		assertThat(page).contains("Published reference: 2x DGX Spark, pinned checkpoint, thinking off")
			.contains("https://example.org/reference/2x-spark-moe-284b/results.json")
			.contains("4f2a9c1e7b3d5a0f8c6e2d1b9a7f5e3c1d0b8a6f")
			.contains("pinned")
			.contains("id=\"cell-concurrency-4--prompt_tokens-131072\"")
			.contains("22.96");
	}

	@Test
	void runPageMarksAnUnpinnedRunAndUnknownWarmup() throws Exception {
		String id = TestUploads.upload(mvc, "run-b-effort-low.json");
		String page = page("/runs/" + id);
		assertThat(page).contains("unpinned").contains("&quot;main&quot; moves; this run cannot claim a checkpoint");
	}

	@Test
	void runPageShowsTheUploadersDisclosedCaveat() throws Exception {
		String id = TestUploads.upload(mvc, "run-c-effort-high.json");
		assertThat(page("/runs/" + id)).contains("Caveats disclosed by the uploader")
			.contains("not a clean hardware-vs-hardware comparison");
	}

	@Test
	void runListFiltersByRoleAndSearchesTitles() throws Exception {
		TestUploads.upload(mvc, "reference.json");
		TestUploads.upload(mvc, "probe-reasoning-levers.json");
		String references = page("/runs?role=reference");
		assertThat(references).contains("Published reference").doesNotContain("Reasoning lever probe");
		assertThat(page("/runs?q=lever")).contains("Reasoning lever probe").doesNotContain("Published reference");
	}

	@Test
	void startPageListsRecentRunsAndHowToUpload() throws Exception {
		byte[] fresh = TestUploads.fresh("run-d-effort-off.json");
		String id = TestUploads.upload(mvc, fresh);
		assertThat(page("/")).contains("Recent runs")
			.contains("/api/runs")
			.contains("href=\"/runs/" + id + "\"")
			.contains(TestUploads.tree(fresh).get("title").asString().replace("'", "&#39;"));
	}

	@Test
	void servesTheRunDocumentSchema() throws Exception {
		assertThat(page("/schema/benchmark-run-1.json")).contains("\"benchmark-run/1\"");
	}

	private String page(String url) throws Exception {
		return mvc.perform(get(url))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
	}

}
