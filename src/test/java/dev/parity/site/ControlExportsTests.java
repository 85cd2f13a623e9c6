package dev.parity.site;

import java.nio.charset.StandardCharsets;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * Issue 28: the exports (Markdown, CSV, JSON) and the embed of the seed story's claim
 * (reference…C) carry the line of its control (E) beside the claim — live and published —
 * and the control never makes the publication read "the numbers changed".
 */
@ParityTest
class ControlExportsTests {

	private static final String LINE = "18 of 18 comparable within ±10 %, median 1.011";

	@Autowired
	MockMvc mvc;

	@Test
	void theLiveExportsCarryTheControlLineBesideTheUnchangedClaim() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, TestUploads.fresh("run-c-effort-high.json"));
		String e = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		String path = "/compare/" + reference + "..." + c;
		String jsonBefore = body(path + "/export.json");
		assertThat(body(path + "/export.md")).doesNotContain("Tested by control run");
		assertThat(TestUploads.tree(jsonBefore.getBytes(StandardCharsets.UTF_8)).has("controls")).isTrue();

		declare(e, reference, c);

		String md = body(path + "/export.md");
		assertThat(md).contains("## Tested by control runs")
			.contains("- Tested by control run [“Control run: pinned checkpoint, thinking off, warmed")
			.contains("/runs/" + e + "): decode\\_tps median ratio ")
			.contains("(confounded) → " + LINE)
			.contains("[the comparison with the control](")
			.contains("/compare/" + reference + "..." + e + ")");
		// The claim itself is unchanged: its headline still counts no comparable cell.
		assertThat(md).contains("~~");

		String csv = body(path + "/export.csv");
		assertThat(csv).containsPattern(
				"(?m)^# Tested by control run “Control run: pinned checkpoint, thinking off, warmed[^”]*” \\(" + e
						+ "\\): decode_tps median ratio \\d\\.\\d{3} over 18 cells \\(confounded\\) → " + LINE + "$");
		// The rows are the claim's, as before.
		assertThat(csv.lines().filter(line -> !line.startsWith("#")).toList())
			.isEqualTo(body(path + "/export.csv").lines().filter(line -> !line.startsWith("#")).toList());

		JsonNode json = TestUploads.tree(body(path + "/export.json").getBytes(StandardCharsets.UTF_8));
		assertThat(json.get("controls")).singleElement().satisfies(control -> {
			assertThat(control.get("run").asString()).isEqualTo(e);
			assertThat(control.get("comparison").asString()).isEqualTo(reference + "..." + e);
			assertThat(control.get("url").asString()).endsWith("/runs/" + e);
			assertThat(control.get("tested").get(0).asString()).startsWith("Tested by control run “Control run: pinned")
				.contains("decode_tps median ratio")
				.endsWith(LINE);
			assertThat(control.get("missed")).isEmpty();
			assertThat(control.get("contradicts").asBoolean()).isTrue();
		});
		JsonNode before = TestUploads.tree(jsonBefore.getBytes(StandardCharsets.UTF_8));
		assertThat(json.get("headlines")).isEqualTo(before.get("headlines"));
		assertThat(json.get("cells")).isEqualTo(before.get("cells"));
	}

	@Test
	void thePublicationsExportsAndEmbedCarryTheControlLineAndItsNumbersNeverReadChanged() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, TestUploads.fresh("run-c-effort-high.json"));
		String e = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		MvcResult published = mvc.perform(post("/api/published").with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content(
					"{\"baseline\": \"%s\", \"contender\": \"%s\", \"title\": \"Spark decode +101 %%\", \"confirm_no_comparable\": true}"
						.formatted(reference, c)))
			.andReturn();
		String publication = published.getResponse().getHeader("Location");
		String id = publication.substring(publication.lastIndexOf('/') + 1);
		MvcResult embedBefore = mvc.perform(get("/embed/published/" + id)).andReturn();
		String embedTag = embedBefore.getResponse().getHeader("ETag");
		String mdTag = mvc.perform(get(publication + "/export.md")).andReturn().getResponse().getHeader("ETag");
		assertThat(embedBefore.getResponse().getContentAsString()).doesNotContain("Tested by control run");
		JsonNode frozenBefore = TestUploads.tree(body(publication + "/export.json").getBytes(StandardCharsets.UTF_8));

		declare(e, reference, c);

		MvcResult embedAfter = mvc.perform(get("/embed/published/" + id)).andReturn();
		assertThat(embedAfter.getResponse().getHeader("ETag")).isNotEqualTo(embedTag);
		String embed = embedAfter.getResponse().getContentAsString();
		assertThat(embed).contains("Tested by control runs")
			.contains("Tested by control run “")
			.contains("/runs/" + e + "\"")
			.contains("decode_tps median ratio")
			.contains(LINE)
			// A control never makes a publication read "the numbers changed".
			.doesNotContain("id=\"live-banner\"");
		MvcResult mdAfter = mvc.perform(get(publication + "/export.md")).andReturn();
		assertThat(mdAfter.getResponse().getHeader("ETag")).isNotEqualTo(mdTag);
		assertThat(mdAfter.getResponse().getContentAsString()).contains("## Tested by control runs").contains(LINE);
		assertThat(body(publication + "/export.csv")).contains("# Tested by control run “").contains(LINE);
		JsonNode frozen = TestUploads.tree(body(publication + "/export.json").getBytes(StandardCharsets.UTF_8));
		assertThat(frozen.get("controls").get(0).get("tested").get(0).asString()).endsWith(LINE);
		// The frozen claim is exactly as it was, and its notices say nothing of the
		// control.
		assertThat(frozen.get("headlines")).isEqualTo(frozenBefore.get("headlines"));
		assertThat(frozen.get("cells")).isEqualTo(frozenBefore.get("cells"));
		assertThat(frozen.get("notices")).isEqualTo(frozenBefore.get("notices"));
	}

	private String body(String path) throws Exception {
		MvcResult result = mvc.perform(get(path)).andReturn();
		assertThat(result.getResponse().getStatus()).as(path).isEqualTo(200);
		return result.getResponse().getContentAsString(StandardCharsets.UTF_8);
	}

	private void declare(String control, String baseline, String contender) throws Exception {
		MvcResult declared = mvc
			.perform(post("/api/controls").with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"control\": \"%s\", \"of\": \"%s...%s\"}".formatted(control, baseline, contender)))
			.andReturn();
		assertThat(declared.getResponse().getStatus()).isEqualTo(201);
	}

}
