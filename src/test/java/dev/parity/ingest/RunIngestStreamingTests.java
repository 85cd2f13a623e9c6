package dev.parity.ingest;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.web.Problem;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

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
 * A document is read one cell at a time; it must still be judged as a whole: the same
 * problems in the same order as the validator finds in the whole tree, metric definitions
 * wherever they stand, and nothing stored on a problem found after cells were written.
 */
@ParityTest
class RunIngestStreamingTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Test
	void readsMetricDefinitionsThatComeAfterTheCells() throws Exception {
		ObjectNode document = withCustomMetric();
		MvcResult stored = upload(reorder(document, "metric_definitions"));
		assertThat(stored.getResponse().getStatus()).isEqualTo(201);
		String id = JSON.readTree(stored.getResponse().getContentAsByteArray()).get("id").asString();
		String run = mvc.perform(get("/api/runs/" + id)).andReturn().getResponse().getContentAsString();
		assertThat(run).contains("gpu_power_w");
	}

	@Test
	void refusesAnUndefinedMetricWhereverTheDefinitionsStand() throws Exception {
		ObjectNode document = withCustomMetric();
		((ObjectNode) document.get("metric_definitions")).remove("gpu_power_w");
		((ObjectNode) document.get("metric_definitions")).putObject("other_w").put("unit", "W");
		TestUploads.RowCounts before = TestUploads.rows(jdbc);
		MvcResult rejected = upload(reorder(document, "metric_definitions"));
		assertThat(rejected.getResponse().getStatus()).isEqualTo(400);
		assertThat(rejected.getResponse().getContentAsString()).contains("unknown metric \\\"gpu_power_w\\\"");
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
	}

	@Test
	void reportsEveryProblemInTheOrderOfTheWholeDocument() throws Exception {
		ObjectNode document = (ObjectNode) JSON.readTree(TestUploads.fresh("run-e-control.json"));
		document.put("colour", "blue");
		document.putArray("caveats").add(3);
		ArrayNode cells = (ArrayNode) document.get("cells");
		((ObjectNode) cells.get(cells.size() - 1).get("requests")).put("failed", -1);
		((ObjectNode) cells.get(0)).put("typo", true);
		List<Problem> expected = RunDocumentValidator.validate(document);
		assertThat(expected).hasSizeGreaterThanOrEqualTo(4);
		TestUploads.RowCounts before = TestUploads.rows(jdbc);
		MvcResult rejected = upload(JSON.writeValueAsBytes(document));
		assertThat(rejected.getResponse().getStatus()).isEqualTo(400);
		List<String> paths = new ArrayList<>();
		JSON.readTree(rejected.getResponse().getContentAsByteArray())
			.get("errors")
			.forEach(error -> paths.add(error.get("path").asString() + ": " + error.get("message").asString()));
		assertThat(paths).containsExactlyElementsOf(expected.stream().map(p -> p.path() + ": " + p.message()).toList());
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
	}

	@Test
	void storesNothingWhenTheLastCellIsBad() throws Exception {
		ObjectNode document = (ObjectNode) JSON.readTree(TestUploads.fresh("run-e-control.json"));
		ArrayNode cells = (ArrayNode) document.get("cells");
		cells.add(cells.get(0).deepCopy());
		TestUploads.RowCounts before = TestUploads.rows(jdbc);
		MvcResult rejected = upload(JSON.writeValueAsBytes(document));
		assertThat(rejected.getResponse().getStatus()).isEqualTo(400);
		assertThat(rejected.getResponse().getContentAsString()).contains("duplicate params");
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
	}

	@Test
	void refusesTrailingGarbageAndBrokenJsonAfterTheCells() throws Exception {
		byte[] document = TestUploads.fresh("run-e-control.json");
		TestUploads.RowCounts before = TestUploads.rows(jdbc);
		for (String tail : List.of(" {}", " x", ",")) {
			byte[] broken = (new String(document, StandardCharsets.UTF_8) + tail).getBytes(StandardCharsets.UTF_8);
			MvcResult rejected = upload(broken);
			assertThat(rejected.getResponse().getStatus()).as(tail).isEqualTo(400);
			assertThat(JSON.readTree(rejected.getResponse().getContentAsByteArray()).at("/errors/0/message").asString())
				.as(tail)
				.startsWith("not valid JSON");
		}
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
	}

	/** A control run whose first cell reports a metric defined by the document. */
	private static ObjectNode withCustomMetric() {
		ObjectNode document = (ObjectNode) JSON.readTree(TestUploads.fresh("run-e-control.json"));
		document.putObject("metric_definitions").putObject("gpu_power_w").put("unit", "W").put("better", "lower");
		((ObjectNode) document.get("cells").get(0).get("metrics")).put("gpu_power_w", 312.5);
		return document;
	}

	/** The document with one field moved to the end (after the cells). */
	private static byte[] reorder(ObjectNode document, String last) {
		Map<String, JsonNode> fields = new LinkedHashMap<>();
		document.forEachEntry(fields::put);
		ObjectNode reordered = JSON.createObjectNode();
		fields.forEach((name, value) -> {
			if (!name.equals(last)) {
				reordered.set(name, value);
			}
		});
		reordered.set(last, fields.get(last));
		return JSON.writeValueAsBytes(reordered);
	}

	private MvcResult upload(byte[] document) throws Exception {
		return mvc
			.perform(post("/api/runs").with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content(document))
			.andReturn();
	}

}
