package dev.parity.site;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Replicates: listed on the run page, compared as groups through the page, the API,
 * exports and publications.
 */
@ParityTest
class ReplicateComparisonTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String CELL = "cell-concurrency-1--prompt_tokens-32768";

	@Autowired
	MockMvc mvc;

	/**
	 * A replicate of a seed-story run: a new upload (its title made unique) with every
	 * decode_tps × factor.
	 */
	private String replicate(String fixture, double factor) throws Exception {
		ObjectNode document = (ObjectNode) TestUploads.tree(TestUploads.fresh(fixture));
		for (JsonNode cell : document.get("cells")) {
			JsonNode decode = cell.path("metrics").path("decode_tps");
			if (decode.isNumber()) {
				((ObjectNode) cell.get("metrics")).put("decode_tps", decode.doubleValue() * factor);
			}
		}
		return TestUploads.upload(mvc, JSON.writeValueAsBytes(document));
	}

	private List<String> group(String fixture, double... factors) throws Exception {
		List<String> ids = new ArrayList<>();
		for (double factor : factors) {
			ids.add(replicate(fixture, factor));
		}
		return ids;
	}

	private JsonNode compare(String path) throws Exception {
		return TestUploads.tree(mvc.perform(get("/api/compare/" + path))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
	}

	private static JsonNode decode(JsonNode comparison) {
		JsonNode cell = comparison.get("cells")
			.valueStream()
			.filter(c -> c.get("anchor").asString().equals(CELL))
			.findFirst()
			.orElseThrow();
		return cell.get("metrics")
			.valueStream()
			.filter(m -> m.get("metric").asString().equals("decode_tps"))
			.findFirst()
			.orElseThrow();
	}

	@Test
	void groupsOfReplicatesCompareTheMedianOfTheirRunsWithWelchsInterval() throws Exception {
		List<String> reference = group("reference.json", 1.0, 1.01, 0.99);
		List<String> control = group("run-e-control.json", 1.0, 1.02, 0.97);
		String path = String.join("+", reference) + "..." + String.join("+", control);

		JsonNode comparison = compare(path);

		assertThat(comparison.get("contender").get("runs").valueStream().map(JsonNode::asString).toList())
			.isEqualTo(control);
		JsonNode decode = decode(comparison);
		double single = decode(compare(reference.get(0) + "..." + control.get(0))).get("contender").asDouble();
		assertThat(decode.get("contender").asDouble()).isCloseTo(single, within(1e-9));
		assertThat(decode.get("interval").get("method").asString()).isEqualTo("welch-t-log");
		assertThat(decode.get("verdict").asString()).isNotEmpty();
		assertThat(decode.get("significant").isBoolean()).isTrue();

		String page = mvc.perform(get("/compare/" + path))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(page).contains("3 replicates (per cell, the median of their values)")
			.contains("95 % interval")
			.contains("class=\"interval-bar\"");
		assertThat(mvc.perform(get("/compare/" + path + "/export.md"))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8)).contains("# Comparison " + path);
		String csv = mvc.perform(get("/compare/" + path + "/export.csv"))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(csv).contains("\"verdict\",\"significant\",\"interval\"").contains("95 % interval");
	}

	@Test
	void aGroupOfRunsThatAreNotReplicatesIsRefusedNamingTheField() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String control = replicate("run-e-control.json", 1.0);
		String other = replicate("run-d-effort-off.json", 1.0);

		String body = mvc.perform(get("/api/compare/" + reference + "..." + control + "+" + other))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);

		assertThat(body).contains("not a group of replicates")
			.contains("run " + other + " differs from run " + control)
			.containsPattern(" in [a-z_.]+\\.");
		mvc.perform(get("/compare/" + reference + "..." + control + "+" + other)).andExpect(status().isBadRequest());
	}

	@Test
	void theRunPageListsARunsReplicates() throws Exception {
		// A system of its own: other tests store many replicates of the control run, more
		// than a page lists.
		String system = "replicates-" + UUID.randomUUID();
		List<String> control = new ArrayList<>();
		for (double factor : new double[] { 1.0, 1.02 }) {
			ObjectNode document = (ObjectNode) TestUploads.tree(TestUploads.fresh("run-e-control.json"));
			((ObjectNode) document.get("system")).put("name", system);
			for (JsonNode cell : document.get("cells")) {
				JsonNode decode = cell.path("metrics").path("decode_tps");
				if (decode.isNumber()) {
					((ObjectNode) cell.get("metrics")).put("decode_tps", decode.doubleValue() * factor);
				}
			}
			control.add(TestUploads.upload(mvc, JSON.writeValueAsBytes(document)));
		}

		String page = mvc.perform(get("/runs/" + control.get(0)))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);

		assertThat(page).contains("data-replicate=\"" + control.get(1) + "\"")
			.doesNotContain("data-replicate=\"" + control.get(0) + "\"");
	}

	@Test
	void aPublishedGroupComparisonKeepsItsGroups() throws Exception {
		List<String> reference = group("reference.json", 1.0, 1.01, 0.99);
		List<String> control = group("run-e-control.json", 1.0, 1.02, 0.97);
		String path = String.join("+", reference) + "..." + String.join("+", control);

		MvcResult result = mvc
			.perform(post("/compare/" + path + "/publish").param("title", "Groups")
				.param("caption", "")
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andReturn();
		String published = result.getResponse().getRedirectedUrl();

		String page = mvc.perform(get(published))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(page).contains("3 replicates").contains("/compare/" + path);
		JsonNode api = TestUploads.tree(mvc.perform(get("/api" + published))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
		assertThat(api.toString()).contains(String.join("\",\"", control));
	}

}
