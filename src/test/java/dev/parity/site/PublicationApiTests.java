package dev.parity.site;

import java.util.Collections;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * Issue 17, item 5: a script publishes a comparison through the API with the form's guard
 * rails, and lists the publications.
 */
@ParityTest
class PublicationApiTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Test
	void aScriptPublishesAComparisonAndFindsItInTheList() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		MvcResult created = publish("""
				{"baseline": "%s", "contender": "%s", "title": "Spark matches the reference (API)",
				 "caption": "decode within ±10 %%"}""".formatted(reference, e));
		assertThat(created.getResponse().getStatus()).isEqualTo(201);
		JsonNode body = TestUploads.tree(created.getResponse().getContentAsByteArray());
		String id = body.get("id").asString();
		assertThat(body.get("url").asString()).isEqualTo("/published/" + id);
		assertThat(created.getResponse().getHeader("Location")).isEqualTo("/published/" + id);

		String page = mvc.perform(get("/published/" + id)).andReturn().getResponse().getContentAsString();
		assertThat(page).contains("Spark matches the reference (API)")
			.contains("18 of 18 comparable cells within ±10 %, median ratio 1.011");

		JsonNode list = TestUploads
			.tree(mvc.perform(get("/api/published?size=100")).andReturn().getResponse().getContentAsByteArray());
		assertThat(list.get("total").asLong()).isEqualTo(count());
		assertThat(list.get("published").findValuesAsString("id")).contains(id);
		JsonNode item = list.get("published")
			.valueStream()
			.filter(p -> p.get("id").asString().equals(id))
			.findFirst()
			.orElseThrow();
		assertThat(item.get("title").asString()).isEqualTo("Spark matches the reference (API)");
		assertThat(item.get("baseline").asString()).isEqualTo(reference);
		assertThat(item.get("contender").asString()).isEqualTo(e);
	}

	@Test
	void contendersWithOneRunPublishLikeContenderAndMoreThanEightAreRefused() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		String c = TestUploads.upload(mvc, "run-c-effort-high.json");
		MvcResult one = publish("""
				{"baseline": "%s", "contenders": ["%s"], "title": "One contender in a list"}""".formatted(reference,
				e));
		assertThat(one.getResponse().getStatus()).isEqualTo(201);

		long before = count();
		String nine = String.join(", ", Collections.nCopies(9, "\"" + c + "\""));
		MvcResult several = publish("""
				{"baseline": "%s", "contenders": [%s], "title": "Nine contenders"}""".formatted(reference, nine));
		assertThat(several.getResponse().getStatus()).isEqualTo(400);
		assertThat(error(several, "$.contenders")).contains("9 contenders").contains("at most 8");
		assertThat(count()).isEqualTo(before);
	}

	@Test
	void nonDefaultSettingsNeedAReasonAndNothingComparableNeedsTheConfirmationEachNamedAndNothingStored()
			throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String a = TestUploads.upload(mvc, "run-a-thinking-max.json");
		long before = count();
		MvcResult refused = publish(
				"""
						{"baseline": "%s", "contender": "%s", "title": "A is 5x slower", "settings": {"output_tolerance": 0.05}}"""
					.formatted(reference, a));
		assertThat(refused.getResponse().getStatus()).isEqualTo(400);
		assertThat(error(refused, "$.reason")).contains("publishing it needs a reason")
			.contains("output_tolerance 0.05");
		assertThat(error(refused, "$.confirm_no_comparable")).contains("no cell of this comparison is comparable");
		assertThat(count()).isEqualTo(before);

		MvcResult onlyReason = publish("""
				{"baseline": "%s", "contender": "%s", "title": "A is 5x slower", "settings": {"output_tolerance": 0.05},
				 "reason": "a stricter output tolerance for this post"}""".formatted(reference, a));
		assertThat(onlyReason.getResponse().getStatus()).isEqualTo(400);
		assertThat(error(onlyReason, "$.reason")).isNull();
		assertThat(error(onlyReason, "$.confirm_no_comparable")).isNotNull();
		assertThat(count()).isEqualTo(before);

		MvcResult both = publish("""
				{"baseline": "%s", "contender": "%s", "title": "A is 5x slower", "settings": {"output_tolerance": 0.05},
				 "reason": "a stricter output tolerance for this post", "confirm_no_comparable": true}"""
			.formatted(reference, a));
		assertThat(both.getResponse().getStatus()).isEqualTo(201);
		String id = TestUploads.tree(both.getResponse().getContentAsByteArray()).get("id").asString();
		JsonNode published = TestUploads
			.tree(mvc.perform(get("/api/published/" + id)).andReturn().getResponse().getContentAsByteArray());
		assertThat(published.get("settings_reason").asString()).isEqualTo("a stricter output tolerance for this post");
		assertThat(published.get("no_comparable_confirmed").asBoolean()).isTrue();
	}

	@Test
	void badRequestsNameTheFieldAndStoreNothing() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		long before = count();
		assertThat(error(publish("""
				{"baseline": "%s", "contender": "%s"}""".formatted(reference, e)), "$.title"))
			.contains("needs a title");
		assertThat(error(publish("""
				{"baseline": "%s", "contender": "zzzzzzzzzz", "title": "t"}""".formatted(reference)), "$.contender"))
			.contains("zzzzzzzzzz");
		assertThat(error(publish("""
				{"baseline": "%s", "contender": "%s", "title": "t", "titel": "typo"}""".formatted(reference, e)),
				"$.titel"))
			.contains("unknown field");
		assertThat(error(publish("""
				{"baseline": "%s", "contender": "%s", "title": "t", "settings": {"band": "wide"}}"""
			.formatted(reference, e)), "$.settings")).contains("band");
		assertThat(error(publish("""
				{"baseline": "%s", "contender": "%s", "title": "t", "confirm_no_comparable": "yes"}"""
			.formatted(reference, e)), "$.confirm_no_comparable")).contains("true or false");
		assertThat(error(publish("[1, 2]"), "$")).contains("JSON object");
		assertThat(count()).isEqualTo(before);
	}

	@Test
	void publishingNeedsAnUploader() throws Exception {
		int status = mvc
			.perform(post("/api/published").contentType(MediaType.APPLICATION_JSON)
				.content("{\"baseline\": \"a\", \"contender\": \"b\", \"title\": \"t\"}"))
			.andReturn()
			.getResponse()
			.getStatus();
		assertThat(status).isEqualTo(401);
	}

	@Test
	void thePublisherChoosesTheMetricWhoseChartThePublicationDraws() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		MvcResult chosen = publish("""
				{"baseline": "%s", "contender": "%s", "title": "Spark matches the reference, end to end",
				 "chart_metric": "e2e_latency_s"}""".formatted(reference, e));
		assertThat(chosen.getResponse().getStatus()).isEqualTo(201);
		String id = TestUploads.tree(chosen.getResponse().getContentAsByteArray()).get("id").asString();
		MvcResult byDefault = publish("""
				{"baseline": "%s", "contender": "%s", "title": "Spark matches the reference, by default"}"""
			.formatted(reference, e));
		String other = TestUploads.tree(byDefault.getResponse().getContentAsByteArray()).get("id").asString();

		JsonNode published = TestUploads
			.tree(mvc.perform(get("/api/published/" + id)).andReturn().getResponse().getContentAsByteArray());
		assertThat(published.get("chart_metric").asString()).isEqualTo("e2e_latency_s");
		assertThat(TestUploads
			.tree(mvc.perform(get("/api/published/" + other)).andReturn().getResponse().getContentAsByteArray())
			.get("chart_metric")
			.isNull()).isTrue();
		// Its images and its embeds draw that metric; the other the one chosen by
		// default.
		assertThat(headlineOfEmbed(id)).startsWith("e2e_latency_s");
		assertThat(headlineOfEmbed(other)).doesNotStartWith("e2e_latency_s");
		assertThat(mvc.perform(get("/published/" + id + "/chart.svg")).andReturn().getResponse().getContentAsString())
			.contains("e2e_latency_s");
		assertThat(
				mvc.perform(get("/published/" + other + "/chart.svg")).andReturn().getResponse().getContentAsString())
			.doesNotContain("e2e_latency_s");
		// What it chose is not a difference from its live comparison.
		assertThat(mvc.perform(get("/published/" + id)).andReturn().getResponse().getContentAsString())
			.doesNotContain("id=\"live-banner\"")
			.contains("(of e2e_latency_s, as published)");
	}

	@Test
	void anUnknownChartMetricIsRefusedByNameAndNothingStored() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		long before = count();
		MvcResult refused = publish("""
				{"baseline": "%s", "contender": "%s", "title": "Spark matches the reference",
				 "chart_metric": "tokens_per_joule"}""".formatted(reference, e));
		assertThat(error(refused, "$.chart_metric")).contains("tokens_per_joule")
			.contains("must be one of the comparison's metrics")
			.contains("decode_tps");
		assertThat(error(publish("""
				{"baseline": "%s", "contender": "%s", "title": "Spark", "chart_metric": 3}""".formatted(reference, e)),
				"$.chart_metric"))
			.contains("must be a string");
		String c = TestUploads.upload(mvc, "run-c-effort-high.json");
		MvcResult several = publish("""
				{"baseline": "%s", "contenders": ["%s", "%s"], "title": "Two", "chart_metric": "tokens_per_joule"}"""
			.formatted(reference, e, c));
		assertThat(error(several, "$.chart_metric")).contains("tokens_per_joule");
		assertThat(count()).isEqualTo(before);
	}

	/** The sentence over the chart of a publication's chart-only embed. */
	private String headlineOfEmbed(String id) throws Exception {
		String embed = mvc.perform(get("/embed/published/" + id + "/chart"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		return Jsoup.parse(embed).selectFirst(".headline-sentence").text();
	}

	private MvcResult publish(String body) throws Exception {
		return mvc
			.perform(post("/api/published").with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content(body))
			.andReturn();
	}

	/** The message of the problem at this path, {@code null} when there is none. */
	private static String error(MvcResult result, String path) throws Exception {
		assertThat(result.getResponse().getStatus()).isEqualTo(400);
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
