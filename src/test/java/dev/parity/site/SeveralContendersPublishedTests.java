package dev.parity.site;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * Issue 17, items 1 and 5: a script publishes the seed story's reference against runs A,
 * C and E at once; the publication freezes each contender's comparison with the baseline,
 * exactly its pairwise comparison, and shows, lists and exports it with the guard rails
 * and banners of a pair.
 */
@ParityTest
class SeveralContendersPublishedTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Test
	void theReferenceAgainstACAndEIsPublishedAtOnceAndReadBackEachContenderAsItsPairwiseComparison() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		List<String> contenders = List.of(TestUploads.upload(mvc, "run-a-thinking-max.json"),
				TestUploads.upload(mvc, "run-c-effort-high.json"), TestUploads.upload(mvc, "run-e-control.json"));
		String title = "Three attempts against the reference " + System.nanoTime();
		MvcResult created = publish("""
				{"baseline": "%s", "contenders": ["%s", "%s", "%s"], "title": "%s", "caption": "A, C and E"}"""
			.formatted(reference, contenders.get(0), contenders.get(1), contenders.get(2), title));
		assertThat(created.getResponse().getStatus()).as(created.getResponse().getContentAsString()).isEqualTo(201);
		JsonNode body = TestUploads.tree(created.getResponse().getContentAsByteArray());
		String id = body.get("id").asString();
		assertThat(body.get("url").asString()).isEqualTo("/published/" + id);

		// The API: the frozen N-way body, each contender's result exactly its pairwise
		// comparison computed now.
		JsonNode published = json("/api/published/" + id);
		assertThat(published.get("title").asString()).isEqualTo(title);
		assertThat(published.get("contenders").valueStream().map(JsonNode::asString).toList()).isEqualTo(contenders);
		JsonNode comparison = published.get("comparison");
		assertThat(comparison.get("baseline").asString()).isEqualTo(reference);
		assertThat(comparison.get("path").asString()).isEqualTo(reference + "..." + String.join(",", contenders));
		assertThat(comparison.get("contenders").size()).isEqualTo(3);
		for (int i = 0; i < contenders.size(); i++) {
			ObjectNode pairwise = (ObjectNode) json("/api/compare/" + reference + "..." + contenders.get(i));
			pairwise.remove("caveats");
			assertThat(claim(comparison.get("contenders").get(i))).as("contender %s", contenders.get(i))
				.isEqualTo(claim(pairwise));
		}
		// A pair published on its own freezes the same cells as that contender in the
		// N-way publication.
		MvcResult pair = publish("""
				{"baseline": "%s", "contender": "%s", "title": "E alone %s"}""".formatted(reference, contenders.get(2),
				title));
		JsonNode alone = json(
				"/api/published/" + TestUploads.tree(pair.getResponse().getContentAsByteArray()).get("id").asString());
		assertThat(claim(comparison.get("contenders").get(2))).isEqualTo(claim(alone.get("comparison")));

		// The page: the N-way table of the frozen results, cell for cell what the live
		// N-way page shows now.
		Document page = Jsoup.parse(text("/published/" + id));
		Document live = Jsoup.parse(text("/compare/" + reference + "..." + String.join(",", contenders)));
		assertThat(page.selectFirst("h1").text()).isEqualTo(title);
		assertThat(page.text()).contains("Published comparison of 3 contenders against one baseline")
			.contains("Contenders are never compared with each other");
		for (String contender : contenders) {
			assertThat(outcomes(page, contender)).as("cells of %s", contender)
				.isNotEmpty()
				.isEqualTo(outcomes(live, contender));
			assertThat(page.select(".contender-side[data-contender=" + contender + "] .contender-headlines .sentence")
				.eachText()).isEqualTo(
						live.select(".contender-side[data-contender=" + contender + "] .contender-headlines .sentence")
							.eachText());
		}
		// A link pasted elsewhere previews every contender's headline, not only the
		// first.
		String preview = page.selectFirst("meta[property=og:description]").attr("content");
		for (String contender : contenders) {
			assertThat(preview).contains(contender + ": ");
		}
		Element spike = page.selectFirst("#cell-concurrency-4--prompt_tokens-280 td[data-metric=ttft_s][data-contender="
				+ contenders.get(2) + "]");
		assertThat(spike.hasClass("greyed")).isTrue();

		// Each contender's pairwise page lists it among the publications of its runs.
		for (String contender : contenders) {
			assertThat(Jsoup.parse(text("/compare/" + reference + "..." + contender))
				.select("a[href=/published/" + id + "]")
				.eachText()).as(contender).containsExactly(title);
		}

		// The list.
		JsonNode item = json("/api/published?size=100").get("published")
			.valueStream()
			.filter(p -> p.get("id").asString().equals(id))
			.findFirst()
			.orElseThrow();
		assertThat(item.get("baseline").asString()).isEqualTo(reference);
		assertThat(item.get("contenders").valueStream().map(JsonNode::asString).toList()).isEqualTo(contenders);

		// The exports: each contender's frozen comparison, never one contender against
		// another.
		JsonNode exported = TestUploads
			.tree(text("/published/" + id + "/export.json").getBytes(StandardCharsets.UTF_8));
		assertThat(exported.get("title").asString()).isEqualTo(title);
		assertThat(exported.get("contenders").size()).isEqualTo(3);
		for (int i = 0; i < contenders.size(); i++) {
			assertThat(exported.get("contenders").get(i).get("contender").get("id").asString())
				.isEqualTo(contenders.get(i));
			assertThat(exported.get("contenders").get(i).get("headlines"))
				.isEqualTo(comparison.get("contenders").get(i).get("headlines"));
		}
		String csv = text("/published/" + id + "/export.csv");
		for (String contender : contenders) {
			assertThat(csv.lines().filter(line -> line.startsWith("\"" + contender + "\",")).count()).as(contender)
				.isPositive();
		}
		String md = text("/published/" + id + "/export.md");
		assertThat(md).startsWith("# " + title).contains("contender 3 of 3").contains("never compared with each other");
	}

	@Test
	void theGuardRailsOfAPairHoldOverAllContendersAndARefusalStoresNothing() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String a = TestUploads.upload(mvc, "run-a-thinking-max.json");
		String c = TestUploads.upload(mvc, "run-c-effort-high.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		long before = count();

		MvcResult nothingComparable = publish(
				"""
						{"baseline": "%s", "contenders": ["%s", "%s"], "title": "A and C", "settings": {"output_tolerance": 0.05}}"""
					.formatted(reference, a, c));
		assertThat(error(nothingComparable, "$.reason")).contains("publishing it needs a reason")
			.contains("output_tolerance 0.05");
		assertThat(error(nothingComparable, "$.confirm_no_comparable"))
			.contains("no cell of any contender's comparison with the baseline is comparable");
		assertThat(count()).isEqualTo(before);

		// One contender with a comparable cell is enough: no confirmation is asked.
		MvcResult oneComparable = publish(
				"""
						{"baseline": "%s", "contenders": ["%s", "%s"], "title": "A and E", "settings": {"output_tolerance": 0.05}}"""
					.formatted(reference, a, e));
		assertThat(error(oneComparable, "$.reason")).isNotNull();
		assertThat(error(oneComparable, "$.confirm_no_comparable")).isNull();
		assertThat(count()).isEqualTo(before);

		assertThat(error(publish("""
				{"baseline": "%s", "contenders": ["%s", "zzzzzzzzzz"], "title": "t"}""".formatted(reference, a)),
				"$.contenders[1]"))
			.contains("zzzzzzzzzz");
		assertThat(error(publish("""
				{"baseline": "%s", "contenders": ["%s", "%s"], "title": "t"}""".formatted(reference, e, e)),
				"$.contenders"))
			.contains("listed twice");
		assertThat(error(publish("""
				{"baseline": "%s", "contenders": ["%s", ""], "title": "t"}""".formatted(reference, e)),
				"$.contenders[1]"))
			.contains("one run id");
		String nine = String.join(", ", Collections.nCopies(9, "\"" + e + "\""));
		assertThat(error(publish("""
				{"baseline": "%s", "contenders": [%s], "title": "t"}""".formatted(reference, nine)), "$.contenders"))
			.contains("at most 8");
		assertThat(error(publish("""
				{"baseline": "%s", "contenders": ["%s", "%s"]}""".formatted(reference, a, e)), "$.title"))
			.contains("needs a title");
		assertThat(count()).isEqualTo(before);

		MvcResult both = publish(
				"""
						{"baseline": "%s", "contenders": ["%s", "%s"], "title": "A and C, stricter", "settings": {"output_tolerance": 0.05},
						 "reason": "a stricter output tolerance for this post", "confirm_no_comparable": true}"""
					.formatted(reference, a, c));
		assertThat(both.getResponse().getStatus()).isEqualTo(201);
		String id = TestUploads.tree(both.getResponse().getContentAsByteArray()).get("id").asString();
		JsonNode published = json("/api/published/" + id);
		assertThat(published.get("settings_reason").asString()).isEqualTo("a stricter output tolerance for this post");
		assertThat(published.get("no_comparable_confirmed").asBoolean()).isTrue();
		String page = text("/published/" + id);
		assertThat(page).contains("id=\"settings-reason\"").contains("id=\"no-comparable-banner\"");
	}

	@Test
	void retractingItPutsTheBannerOnThePageTheApiTheExportsAndTheEmbedAndChangesTheETag() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, TestUploads.fresh("run-c-effort-high.json"));
		String e = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		MvcResult created = publish("""
				{"baseline": "%s", "contenders": ["%s", "%s"], "title": "C and E %s"}""".formatted(reference, c, e,
				System.nanoTime()));
		String id = TestUploads.tree(created.getResponse().getContentAsByteArray()).get("id").asString();
		MockHttpServletResponse first = mvc.perform(get("/published/" + id)).andReturn().getResponse();
		String tag = first.getHeader("ETag");
		assertThat(tag).isNotBlank();
		assertThat(
				mvc.perform(get("/published/" + id).header("If-None-Match", tag)).andReturn().getResponse().getStatus())
			.isEqualTo(304);
		String embedBefore = mvc.perform(get("/embed/published/" + id)).andReturn().getResponse().getHeader("ETag");

		// A caveat on the second contender's comparison changes what the page shows
		// beside it: a new tag.
		mvc.perform(post("/compare/" + reference + "..." + e + "/caveats").param("text", "E ran on a warmer day")
			.with(httpBasic(USER, PASSWORD))
			.with(csrf()));
		MockHttpServletResponse withCaveat = mvc.perform(get("/published/" + id).header("If-None-Match", tag))
			.andReturn()
			.getResponse();
		assertThat(withCaveat.getStatus()).isEqualTo(200);
		assertThat(withCaveat.getContentAsString()).contains("E ran on a warmer day");

		mvc.perform(post("/published/{id}/retract", id).param("reason", "outputs of C were longer than stated")
			.with(httpBasic(USER, PASSWORD))
			.with(csrf()));
		MockHttpServletResponse after = mvc.perform(get("/published/" + id).header("If-None-Match", tag))
			.andReturn()
			.getResponse();
		assertThat(after.getStatus()).isEqualTo(200);
		Document page = Jsoup.parse(after.getContentAsString());
		assertThat(page.getElementById("retraction-banner").text()).contains("Retracted")
			.contains("outputs of C were longer than stated");
		assertThat(json("/api/published/" + id).get("retraction").get("reason").asString())
			.isEqualTo("outputs of C were longer than stated");
		assertThat(json("/api/published/" + id).get("retracted").get("reason").asString())
			.isEqualTo("outputs of C were longer than stated");
		assertThat(text("/published/" + id + "/export.md")).contains("outputs of C were longer than stated");
		assertThat(text("/published/" + id + "/export.csv")).contains("outputs of C were longer than stated");

		MockHttpServletResponse embed = mvc.perform(get("/embed/published/" + id)).andReturn().getResponse();
		assertThat(embed.getHeader("ETag")).isNotEqualTo(embedBefore);
		assertThat(embed.getContentAsString()).contains("id=\"retraction-banner\"")
			.contains("outputs of C were longer than stated")
			.contains("shown contender by contender: here contender 1 of 2, " + c)
			.contains("?vs=2");
		String second = mvc.perform(get("/embed/published/" + id + "?vs=2"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(second).contains("id=\"retraction-banner\"")
			.contains("here contender 2 of 2, " + e)
			.contains("E ran on a warmer day");
		assertThat(mvc.perform(get("/embed/published/" + id + "?vs=3")).andReturn().getResponse().getStatus())
			.isEqualTo(400);
		assertThat(
				mvc.perform(get("/published/" + id + "/chart.svg?vs=2")).andReturn().getResponse().getContentAsString())
			.contains("outputs of C were longer than stated");
	}

	@Test
	void theFormOnThePageOfSeveralContendersPublishesThemOrShowsEachProblemNextToItsField() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String a = TestUploads.upload(mvc, "run-a-thinking-max.json");
		String c = TestUploads.upload(mvc, "run-c-effort-high.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		Document live = Jsoup
			.parse(mvc.perform(get("/compare/" + reference + "..." + c + "," + e).with(httpBasic(USER, PASSWORD)))
				.andReturn()
				.getResponse()
				.getContentAsString());
		assertThat(live.selectFirst("section.publish form").attr("action"))
			.isEqualTo("/compare/" + reference + "..." + c + "," + e + "/publish");
		long before = count();

		MvcResult refused = mvc
			.perform(post("/compare/" + reference + "..." + a + "," + c + "/publish").param("title", "")
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andReturn();
		assertThat(refused.getResponse().getStatus()).isEqualTo(400);
		Document page = Jsoup.parse(refused.getResponse().getContentAsString());
		assertThat(page.getElementById("publish-error-title").text()).contains("needs a title");
		assertThat(page.getElementById("publish-error-confirm_no_comparable").text())
			.contains("no cell of any contender's comparison with the baseline is comparable");
		assertThat(count()).isEqualTo(before);

		String title = "C and E from the page " + System.nanoTime();
		MvcResult published = mvc
			.perform(post("/compare/" + reference + "..." + c + "," + e + "/publish").param("title", title)
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andReturn();
		assertThat(published.getResponse().getStatus()).isEqualTo(302);
		String url = published.getResponse().getRedirectedUrl();
		assertThat(url).startsWith("/published/");
		JsonNode read = json("/api" + url);
		assertThat(read.get("title").asString()).isEqualTo(title);
		assertThat(read.get("contenders").valueStream().map(JsonNode::asString).toList()).isEqualTo(List.of(c, e));
	}

	/** What a comparison claims: its headlines and cells, flags and all. */
	private static JsonNode claim(JsonNode comparison) {
		ObjectNode claim = JsonMapper.builder().build().createObjectNode();
		claim.set("headlines", comparison.get("headlines"));
		claim.set("cells", comparison.get("cells"));
		claim.set("flags", comparison.get("flags"));
		return claim;
	}

	private static Map<String, String> outcomes(Document page, String contender) {
		Map<String, String> shown = new LinkedHashMap<>();
		for (Element td : page.select("table.compare tbody td.value[data-contender=" + contender + "]")) {
			String value = td.selectFirst(".pair") == null ? "" : td.selectFirst(".pair").text();
			Element ratio = td.selectFirst(".ratio");
			shown.put(td.parent().id() + " " + td.attr("data-metric"),
					(td.hasClass("greyed") ? "greyed " : td.hasClass("comparable") ? "comparable " : "missing ") + value
							+ " | " + (ratio == null ? "" : ratio.text()) + " | "
							+ td.select("a.reason").eachAttr("data-rule"));
		}
		return shown;
	}

	private MvcResult publish(String body) throws Exception {
		return mvc
			.perform(post("/api/published").with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content(body))
			.andReturn();
	}

	private JsonNode json(String url) throws Exception {
		return TestUploads.tree(mvc.perform(get(url)).andReturn().getResponse().getContentAsByteArray());
	}

	private String text(String url) throws Exception {
		MockHttpServletResponse response = mvc.perform(get(url)).andReturn().getResponse();
		assertThat(response.getStatus()).as(url).isEqualTo(200);
		return response.getContentAsString(StandardCharsets.UTF_8);
	}

	/** The message of the problem at this path, {@code null} when there is none. */
	private static String error(MvcResult result, String path) throws Exception {
		assertThat(result.getResponse().getStatus()).as(result.getResponse().getContentAsString()).isEqualTo(400);
		JsonNode errors = TestUploads.tree(result.getResponse().getContentAsByteArray()).get("errors");
		return errors.valueStream()
			.filter(p -> p.get("path").asString().equals(path))
			.map(p -> p.get("message").asString())
			.findFirst()
			.orElse(null);
	}

	private long count() {
		return jdbc.sql("select count(*) from publication").query(Long.class).single();
	}

}
