package dev.parity.run;

import java.util.ArrayList;
import java.util.List;

import dev.parity.Fixtures;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Samples are read from the database without a tree; they must be exactly what
 * {@link RunDocumentReader} makes of the same stored JSON.
 */
@ParityTest
class RunLoadingTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Autowired
	MockMvc mvc;

	@Autowired
	RunRepository runs;

	@Autowired
	JdbcClient jdbc;

	@Test
	void readsSamplesAsTheDocumentReaderDoes() throws Exception {
		List<String> ids = new ArrayList<>();
		for (String fixture : Fixtures.seedStoryNames()) {
			ids.add(TestUploads.upload(mvc, fixture));
		}
		ObjectNode odd = (ObjectNode) JSON.readTree(TestUploads.fresh("run-e-control.json"));
		ObjectNode cell = (ObjectNode) odd.get("cells").get(0);
		cell.putArray("samples")
			.add(JSON.readTree(
					"{\"status\":\"ok\",\"output_tokens\":512,\"reasoning_tokens\":12.5,\"ttft_s\":1.25,\"decode_tps\":70}"))
			.add(JSON.readTree("{\"output_tokens\":null,\"ttft_s\":null,\"decode_tps\":1e3}"))
			.add(JSON.readTree("{\"status\":\"failed\"}"))
			.add(JSON.readTree("{\"status\":\"cancelled\",\"output_tokens\":0,\"e2e_latency_s\":123456789012345678}"))
			.add(JSON.readTree("{}"));
		ids.add(TestUploads.upload(mvc, JSON.writeValueAsBytes(odd)));
		int compared = 0;
		for (String id : ids) {
			Run run = runs.find(new RunId(id)).orElseThrow();
			List<String> stored = jdbc.sql("select samples::text from cell where run_id = ? order by position")
				.param(id)
				.query(String.class)
				.list();
			assertThat(run.cells()).hasSameSizeAs(stored);
			for (int i = 0; i < stored.size(); i++) {
				ObjectNode node = JSON.createObjectNode();
				node.putObject("params");
				node.putObject("requests");
				if (stored.get(i) != null) {
					node.set("samples", JSON.readTree(stored.get(i)));
				}
				List<Sample> expected = RunDocumentReader.cell(node).samples();
				List<Sample> actual = run.cells().get(i).samples();
				assertThat(actual).isEqualTo(expected);
				for (int s = 0; s < expected.size(); s++) {
					assertThat(List.copyOf(actual.get(s).metrics().keySet()))
						.isEqualTo(List.copyOf(expected.get(s).metrics().keySet()));
					compared++;
				}
			}
		}
		assertThat(compared).isGreaterThan(5);
	}

}
