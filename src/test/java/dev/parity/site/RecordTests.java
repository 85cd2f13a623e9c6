package dev.parity.site;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.system.SchemaOwner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The seed story's record (outcome 7): publications, supersession, hypotheses, exports;
 * all append-only.
 */
@ParityTest
class RecordTests {

	static final String SUPERSESSION_REASON = "checkpoint and workload matched: the +101 % came from longer outputs "
			+ "(801 vs 512 tokens per request) and other weights";

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	SchemaOwner owner;

	@Test
	void aSupersededPublicationStillResolvesUnderABannerAndTheReplacementLinksBack() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, "run-c-effort-high.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		String cPublished = publish(reference, c, "Spark vs reference: +101 % decode", "");
		String ePublished = publish(reference, e, "Spark vs reference, controlled",
				"decode within ±10 % on 18 of 18 cells");
		String before = page("/published/" + cPublished);

		mvc.perform(post("/published/{id}/retract", cPublished).param("reason", SUPERSESSION_REASON)
			.param("replacement", ePublished)
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())).andExpect(status().is3xxRedirection());

		String superseded = page("/published/" + cPublished);
		assertThat(superseded).contains("Superseded")
			.contains("href=\"/published/" + ePublished + "\"")
			.contains("checkpoint and workload matched: the +101 % came from longer outputs")
			.contains("Spark vs reference: +101 % decode");
		assertThat(headlines(superseded)).isEqualTo(headlines(before));
		String replacement = page("/published/" + ePublished);
		assertThat(replacement).contains("This publication supersedes")
			.contains("href=\"/published/" + cPublished + "\"")
			.contains("18 of 18 comparable cells within ±10 %, median ratio 1.011");

		JsonNode api = TestUploads.tree(
				mvc.perform(get("/api/published/{id}", cPublished)).andReturn().getResponse().getContentAsByteArray());
		assertThat(api.get("retraction").get("kind").asString()).isEqualTo("superseded");
		assertThat(api.get("retraction").get("replacement").asString()).isEqualTo("/published/" + ePublished);
		assertThat(api.get("comparison").get("headlines")).isNotEmpty();
	}

	@Test
	void aRetractedRunStaysReachableUnderABannerAndListsMarkOrHideIt() throws Exception {
		byte[] fresh = TestUploads.fresh("run-c-effort-high.json");
		String c = TestUploads.upload(mvc, fresh);
		String e = TestUploads.upload(mvc, "run-e-control.json");
		mvc.perform(post("/runs/{id}/retract", c).param("reason", SUPERSESSION_REASON)
			.param("replacement", e)
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())).andExpect(status().is3xxRedirection());
		String page = page("/runs/" + c);
		assertThat(page).contains("Superseded").contains("href=\"/runs/" + e + "\"").contains("Semi-matched: effort");
		assertThat(page("/runs/" + e)).contains("This run supersedes").contains("href=\"/runs/" + c + "\"");
		String title = TestUploads.tree(fresh).get("title").asString();
		String q = title.substring(title.length() - 8);
		assertThat(page("/runs?q=" + q)).contains("retracted");
		assertThat(page("/runs?q=" + q + "&hide_retracted=true")).doesNotContain("href=\"/runs/" + c + "\"");
		JsonNode api = TestUploads
			.tree(mvc.perform(get("/api/runs/{id}", c)).andReturn().getResponse().getContentAsByteArray());
		assertThat(api.get("retraction").get("kind").asString()).isEqualTo("superseded");
		assertThat(api.get("cells").size()).isEqualTo(20);
	}

	@Test
	void hypothesesKeepTheirWholeHistory() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		String pair = reference + "..." + e;
		String cold = addCaveat(pair, "The short-prompt TTFT spike is cold shapes loading from storage",
				"cell-concurrency-4--prompt_tokens-280", "ttft_s", "warm up fully and re-run the 280-token row");
		String graphs = addCaveat(pair, "The short-prompt TTFT spike is per-batch-size CUDA-graph capture",
				"cell-concurrency-4--prompt_tokens-280", "ttft_s",
				"capture graphs for every batch size at start-up and re-run the 280-token row");
		mvc.perform(post("/caveats/{id}/status", cold).param("status", "refuted")
			.param("reason", "the spike moved to another concurrency after a full warm-up")
			.param("decided_by", e)
			.param("back", "/compare/" + pair)
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())).andExpect(status().is3xxRedirection());

		JsonNode api = TestUploads
			.tree(mvc.perform(get("/api/compare/" + pair)).andReturn().getResponse().getContentAsByteArray());
		JsonNode refuted = byId(api.get("caveats"), cold);
		assertThat(refuted.get("status").asString()).isEqualTo("refuted");
		assertThat(refuted.get("history").findValuesAsString("status")).containsExactly("suspected", "refuted");
		assertThat(refuted.get("history").get(1).get("decided_by").asString()).isEqualTo(e);
		JsonNode suspected = byId(api.get("caveats"), graphs);
		assertThat(suspected.get("status").asString()).isEqualTo("suspected");
		assertThat(suspected.get("deciding_experiment").asString())
			.isEqualTo("capture graphs for every batch size at start-up and re-run the 280-token row");

		// A caveat never un-greys: the spiking cell stays out of the headline.
		JsonNode spike = api.get("cells")
			.valueStream()
			.filter(c -> c.get("anchor").asString().equals("cell-concurrency-4--prompt_tokens-280"))
			.findFirst()
			.orElseThrow()
			.get("metrics")
			.get(0);
		assertThat(spike.get("comparable").asBoolean()).isFalse();

		String page = page("/compare/" + pair);
		assertThat(page).contains("hypothesis: refuted")
			.contains("hypothesis: suspected")
			.contains("the spike moved to another concurrency after a full warm-up")
			.contains("capture graphs for every batch size at start-up and re-run the 280-token row");
	}

	@Test
	void statusChangesAreCheckedAndNothingIsStoredOnError() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		String plain = addCaveat(reference + "..." + e, "a plain caveat", "", "", "");
		long before = jdbc.sql("select count(*) from hypothesis_status").query(Long.class).single();
		mvc.perform(post("/caveats/{id}/status", plain).param("status", "refuted")
			.param("reason", "x")
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())).andExpect(status().isBadRequest());
		mvc.perform(
				post("/compare/" + reference + "..." + e + "/caveats").param("text", "on a cell that does not exist")
					.param("cell", "cell-concurrency-3--prompt_tokens-1")
					.with(httpBasic(USER, PASSWORD))
					.with(csrf()))
			.andExpect(status().isBadRequest());
		mvc.perform(post("/compare/" + reference + "..." + e + "/caveats").param("text", "anonymous")
			.with(csrf())
			.accept(MediaType.TEXT_HTML)).andExpect(status().is3xxRedirection());
		assertThat(jdbc.sql("select count(*) from hypothesis_status").query(Long.class).single()).isEqualTo(before);
		assertThat(jdbc.sql("select count(*) from caveat where text in ('anonymous', 'on a cell that does not exist')")
			.query(Long.class)
			.single()).isZero();
	}

	@Test
	void markdownExportOfTheControlComparisonHasTheHeadlineAndAFootnotePerFlag() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		String pair = reference + "..." + e;
		String markdown = page("/compare/" + pair + "/export.md");
		assertThat(markdown).contains(
				"decode\\_tps — 18 of 18 comparable cells within ±10 %, median ratio 1.011; 2 excluded (failures ×2)")
			.contains("Permalink: <http://localhost/compare/" + pair + ">")
			.contains("band=0.1");
		JsonNode api = TestUploads
			.tree(mvc.perform(get("/api/compare/" + pair)).andReturn().getResponse().getContentAsByteArray());
		Set<String> distinctFlags = new HashSet<>();
		List.of(api.get("flags"), api.get("baseline").get("flags"), api.get("contender").get("flags"))
			.forEach(flags -> flags
				.forEach(f -> distinctFlags.add(f.get("rule") + "|" + f.path("side") + "|" + f.get("message"))));
		api.get("cells").forEach(cell -> {
			cell.get("flags")
				.forEach(f -> distinctFlags.add(f.get("rule") + "|" + f.path("side") + "|" + f.get("message")));
			cell.get("metrics")
				.forEach(m -> m.get("flags")
					.forEach(f -> distinctFlags.add(f.get("rule") + "|" + f.path("side") + "|" + f.get("message"))));
		});
		long footnotes = markdown.lines().filter(line -> line.matches("\\[\\^\\d+\\]: .*")).count();
		assertThat(footnotes).isEqualTo(distinctFlags.size()).isPositive();
		assertThat(markdown).contains("~~").contains("*greyed: failures*");

		String csv = page("/compare/" + pair + "/export.csv");
		assertThat(csv.lines().findFirst().orElseThrow()).startsWith(
				"\"anchor\",\"prompt_tokens\",\"concurrency\",\"metric\",\"unit\",\"baseline\",\"contender\",\"ratio\",\"comparable\",\"flags\"");
		assertThat(csv).contains(
				"\"cell-concurrency-1--prompt_tokens-32768\",32768,1,\"ttft_s\",\"s\",22.96,16.73,0.729,\"true\"");
	}

	@Test
	void aPublicationShowsWhatWasPublishedAndSaysWhenTheLiveViewDiffers() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		String fresh = publish(reference, e, "Frozen claim", "as published");
		assertThat(page("/published/" + fresh)).doesNotContain("now says something else");

		// A publication computed by older rules: its stored result differs from what the
		// rules say today.
		JsonNode stored = TestUploads.tree(jdbc.sql("select result::text from publication where id = ?")
			.param(fresh)
			.query(String.class)
			.single()
			.getBytes(StandardCharsets.UTF_8));
		ObjectNode older = ((ObjectNode) stored).deepCopy();
		((ObjectNode) older.get("headlines").get(2)).put("sentence",
				"decode_tps — 17 of 18 comparable cells within ±10 %, median ratio 1.020");
		older.put("rules_version", "2026-01-01.0");
		jdbc.sql(
				"""
						insert into publication (id, baseline_id, contender_id, settings, title, caption, result, rules_version, created_by)
						select 'olderrules', baseline_id, contender_id, settings, 'Older rules', '', ?::jsonb, '2026-01-01.0', 'test'
						from publication where id = ?""")
			.params(older.toString(), fresh)
			.update();
		String page = page("/published/olderrules");
		assertThat(page).contains("decode_tps — 17 of 18 comparable cells within ±10 %, median ratio 1.020")
			.contains("now says something else")
			.contains("rules changed since: 2026-01-01.0");
	}

	@ParameterizedTest
	@ValueSource(strings = { "update caveat set text = 'rewritten'", "delete from caveat",
			"update hypothesis_status set status = 'confirmed'", "delete from hypothesis_status",
			"update publication set title = 'rewritten'", "delete from publication",
			"update retraction set reason = 'rewritten'", "delete from retraction", "truncate caveat cascade",
			"truncate publication cascade", "truncate retraction" })
	void theRecordIsAppendOnlyInTheDatabase(String statement) throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String d = TestUploads.upload(mvc, "run-d-effort-off.json");
		String id = addCaveat(reference + "..." + d, "a hypothesis to keep", "", "", "run it again");
		String published = publish(reference, d, "to keep", "");
		mvc.perform(post("/published/{id}/retract", published).param("reason", "kept anyway")
			.with(httpBasic(USER, PASSWORD))
			.with(csrf()));
		// As the schema's owner: the application's role may not even try
		// (DatabaseRolesTests).
		assertThatThrownBy(() -> JdbcClient.create(owner.dataSource()).sql(statement).update()).rootCause()
			.hasMessageContaining("append-only");
		assertThat(jdbc.sql("select text from caveat where id = ?").param(id).query(String.class).single())
			.isEqualTo("a hypothesis to keep");
	}

	private String publish(String baseline, String contender, String title, String caption) throws Exception {
		MvcResult result = mvc
			.perform(post("/compare/" + baseline + "..." + contender + "/publish").param("title", title)
				.param("caption", caption)
				.param("confirm_no_comparable", "true")
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andReturn();
		String location = result.getResponse().getRedirectedUrl();
		assertThat(location).matches("/published/[a-z0-9]{10}");
		return location.substring("/published/".length());
	}

	private String addCaveat(String pair, String text, String cell, String metric, String experiment) throws Exception {
		MvcResult result = mvc
			.perform(post("/compare/" + pair + "/caveats").param("text", text)
				.param("cell", cell)
				.param("metric", metric)
				.param("deciding_experiment", experiment)
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andReturn();
		String location = result.getResponse().getRedirectedUrl();
		return location.substring(location.indexOf("#caveat-") + "#caveat-".length());
	}

	private String page(String url) throws Exception {
		return mvc.perform(get(url))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
	}

	private static JsonNode byId(JsonNode caveats, String id) {
		return caveats.valueStream().filter(c -> c.get("id").asString().equals(id)).findFirst().orElseThrow();
	}

	private static String headlines(String page) {
		int start = page.indexOf("id=\"headlines-heading\"");
		return page.substring(start, page.indexOf("</section>", start));
	}

}
