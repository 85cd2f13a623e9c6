package dev.parity.site;

import java.nio.charset.StandardCharsets;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Goodput without per-request samples is unknown: {@code meets: null}, said once, never
 * "no".
 */
@ParityTest
class UnknownGoodputTests {

	static final String SLO = "?slo_ttft_s=30&slo_tpot_ms=30";

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Test
	void withoutSamplesNoCellMeetsOrFailsTheObjectivesAndThePageSaysWhyOnce() throws Exception {
		String pair = TestUploads.upload(mvc, "reference.json") + "..." + TestUploads.upload(mvc, "run-e-control.json");

		JsonNode goodput = json("/api/compare/" + pair + SLO).get("goodput");
		for (String side : new String[] { "baseline", "contender" }) {
			assertThat(goodput.get(side).get("cells")).isNotEmpty()
				.allSatisfy(cell -> assertThat(cell.get("meets").isNull()).as(cell.get("anchor").asString()).isTrue());
			assertThat(goodput.get(side).get("highest_concurrency")).isNotEmpty().allSatisfy(best -> {
				assertThat(best.get("concurrency").isNull()).isTrue();
				assertThat(best.get("missing").asString()).isEqualTo("no per-request samples");
			});
		}

		String page = text("/compare/" + pair + SLO);
		assertThat(page.split("Goodput cannot be computed: neither run has per-request samples", -1)).hasSize(2);
		assertThat(page).doesNotContain("no concurrency meets them");
		assertThat(text("/compare/" + pair + "/export.md" + SLO))
			.contains("Goodput cannot be computed: neither run has per-request samples")
			.doesNotContain("| no |");
	}

	@Test
	void aPublicationThatSaidNoSaysTheRulesChangedAndWhat() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String control = TestUploads.upload(mvc, "run-e-control.json");
		String body = mvc.perform(post("/api/published").with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content("{\"baseline\": \"" + reference + "\", \"contender\": \"" + control
					+ "\", \"title\": \"Goodput\", \"settings\": {\"slo_ttft_s\": \"30\", \"slo_tpot_ms\": \"30\"}}"))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString();
		String fresh = TestUploads.tree(body.getBytes(StandardCharsets.UTF_8)).get("id").asString();
		assertThat(text("/published/" + fresh)).doesNotContain("now says something else");

		// As the rules before 2026-12-03.1 froze it: a cell without samples did not meet
		// the objectives.
		ObjectNode older = (ObjectNode) TestUploads.tree(jdbc.sql("select result::text from publication where id = ?")
			.param(fresh)
			.query(String.class)
			.single()
			.getBytes(StandardCharsets.UTF_8));
		older.get("goodput").get("baseline").get("cells").forEach(cell -> ((ObjectNode) cell).put("meets", false));
		older.put("rules_version", "2026-12-01.1");
		jdbc.sql(
				"""
						insert into publication (id, baseline_id, contender_id, settings, title, caption, result, rules_version, created_by)
						select 'goodputold', baseline_id, contender_id, settings, 'Older goodput', '', ?::jsonb, '2026-12-01.1', 'test'
						from publication where id = ?""")
			.params(older.toString(), fresh)
			.update();

		assertThat(text("/published/goodputold")).contains("now says something else")
			.contains("rules changed since: 2026-12-01.1 → 2026-12-04.2")
			.contains("goodput of a cell without per-request samples is unknown")
			.contains("computed exactly from the bootstrap law of each sample median")
			.contains("the exact quantiles of the ratio");
	}

	private JsonNode json(String url) throws Exception {
		return TestUploads
			.tree(mvc.perform(get(url)).andExpect(status().isOk()).andReturn().getResponse().getContentAsByteArray());
	}

	private String text(String url) throws Exception {
		return mvc.perform(get(url))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
	}

}
