package dev.parity.site;

import java.nio.charset.StandardCharsets;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** A comparison in which no cell matches says so first, naming both grids' parameters. */
@ParityTest
class NothingMatchesTests {

	@Autowired
	MockMvc mvc;

	@Test
	void gridsThatNameAParameterDifferentlyAreSaidToFirst() throws Exception {
		String baseline = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		ObjectNode renamed = (ObjectNode) TestUploads.tree(TestUploads.fresh("run-e-control.json"));
		for (JsonNode cell : renamed.get("cells")) {
			ObjectNode params = (ObjectNode) cell.get("params");
			params.set("target_prompt_tokens", params.remove("prompt_tokens"));
		}
		String contender = TestUploads.upload(mvc, renamed.toString().getBytes(StandardCharsets.UTF_8));
		Document page = Jsoup.parse(mvc.perform(get("/compare/" + baseline + "..." + contender))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8));
		// Before the headlines, the table and the unmatched cells' list.
		assertThat(page.select("main p.nothing-matches, main section").first().hasClass("nothing-matches")).isTrue();
		assertThat(page.selectFirst("p.nothing-matches").text()).startsWith("Nothing matches")
			.contains("baseline grid: concurrency, prompt_tokens — contender grid: concurrency, target_prompt_tokens");
		// A comparison whose cells match says nothing of the kind.
		String same = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		assertThat(
				mvc.perform(get("/compare/" + baseline + "..." + same)).andReturn().getResponse().getContentAsString())
			.doesNotContain("Nothing matches");
	}

}
