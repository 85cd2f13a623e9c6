package dev.parity.site;

import java.util.UUID;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * The run lists keep the totals of their searches while no run is added; the moment one
 * is, every list counts again: a total is never older than the runs stored.
 */
@ParityTest
class RunListTotalsTests {

	@Autowired
	MockMvc mvc;

	@Test
	void aSearchCountsTheRunAddedSinceItsLastView() throws Exception {
		String word = "totals" + UUID.randomUUID().toString().substring(0, 8);
		for (int i = 0; i < 3; i++) {
			upload(word + " run " + i);
		}
		// Page 1 of size 1 is full: its total has to be counted (and is then kept).
		assertThat(total("/api/runs?q=" + word + "&size=1&page=1")).isEqualTo(3);
		assertThat(total("/api/runs?q=" + word + "&size=1&page=1")).isEqualTo(3);
		assertThat(page("/runs?q=" + word + "&page=0")).contains("3 runs");

		upload(word + " run 3");
		assertThat(total("/api/runs?q=" + word + "&size=1&page=1")).isEqualTo(4);
		assertThat(total("/api/runs?q=" + word + "&size=2&page=0")).isEqualTo(4);
		assertThat(page("/runs?q=" + word + "&page=0")).contains("4 runs");

		// A run that does not match changes no total, but the list still sees every run
		// that does.
		upload("Unrelated " + UUID.randomUUID());
		assertThat(total("/api/runs?q=" + word + "&size=1&page=2")).isEqualTo(4);
	}

	private void upload(String title) throws Exception {
		ObjectNode document = (ObjectNode) TestUploads.tree(TestUploads.fresh("run-e-control.json"));
		document.put("title", title);
		TestUploads.upload(mvc, JsonMapper.builder().build().writeValueAsBytes(document));
	}

	private long total(String path) throws Exception {
		JsonNode body = TestUploads.tree(mvc.perform(get(path)).andReturn().getResponse().getContentAsByteArray());
		return body.get("total").asLong();
	}

	private String page(String path) throws Exception {
		return mvc.perform(get(path)).andReturn().getResponse().getContentAsString();
	}

}
