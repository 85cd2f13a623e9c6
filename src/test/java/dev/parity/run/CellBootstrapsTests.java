package dev.parity.run;

import java.util.List;
import java.util.Map;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.compare.SampleMedians;
import dev.parity.stats.Noise;
import dev.parity.system.SchemaOwner;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;
import org.springframework.test.web.servlet.result.MockMvcResultMatchers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Bootstrap medians are computed after the upload (TestUploads waits for them), stored
 * with the run, append-only, and equal to a fresh computation.
 */
@ParityTest
class CellBootstrapsTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	CellBootstraps bootstraps;

	@Autowired
	RunRepository runs;

	/**
	 * The triggers hold even for the schema's owner (the application's role may not even
	 * try).
	 */
	@Autowired
	SchemaOwner owner;

	/** The control run with 12 ttft samples in its first cell and 5 in its second. */
	private byte[] withSamples() {
		ObjectNode document = (ObjectNode) TestUploads.tree(TestUploads.fresh("run-e-control.json"));
		ArrayNode cells = (ArrayNode) document.get("cells");
		for (int c = 0; c < 2; c++) {
			ArrayNode samples = ((ObjectNode) cells.get(c)).putArray("samples");
			for (int i = 0; i < (c == 0 ? 12 : 5); i++) {
				samples.addObject().put("ttft_s", 1 + i / 100.0);
			}
		}
		return JSON.writeValueAsBytes(document);
	}

	@Test
	void storesEachCellsWindowWithTheUploadAndItEqualsAFreshComputation() throws Exception {
		String id = TestUploads.upload(mvc, withSamples());

		Map<CellBootstraps.Key, CellBootstraps.Window> stored = bootstraps.find(List.of(new RunId(id)));

		Run run = runs.find(new RunId(id)).orElseThrow();
		Cell first = run.cells().get(0);
		assertThat(stored).containsOnlyKeys(new CellBootstraps.Key(id, first.anchor(), "ttft_s"));
		CellBootstraps.Window window = stored.values().iterator().next();
		CellBootstraps.Window fresh = SampleMedians.window(first.sampleValues("ttft_s"));
		assertThat(window.samples()).isEqualTo(12);
		assertThat(window.first()).isEqualTo(fresh.first());
		assertThat(window.values()).containsExactly(fresh.values());
	}

	@Test
	void areStoredPacked() throws Exception {
		String id = TestUploads.upload(mvc, withSamples());
		assertThat(jdbc.sql("select octet_length(packed) < 200 from cell_median_window where run_id = ?")
			.param(id)
			.query(Boolean.class)
			.list()).containsExactly(true);
	}

	@Test
	void aComparisonOfTwoStoredRunsGivesTheSameWithinRunIntervalOnEveryLoadAndUnderOtherParameters() throws Exception {
		String baseline = TestUploads.upload(mvc, withSamples());
		String contender = TestUploads.upload(mvc, withSamples());
		String path = "/api/compare/" + baseline + "..." + contender;

		String first = interval(path);
		assertThat(first).contains("\"method\":\"bootstrap-samples\"")
			.contains("\"caution\":\"within-run noise only: run-to-run drift not measured\"");
		assertThat(interval(path)).isEqualTo(first);
		assertThat(interval(path + "?band=0.05&implausible=4")).isEqualTo(first);
	}

	private String interval(String path) throws Exception {
		var json = TestUploads
			.tree(mvc.perform(MockMvcRequestBuilders.get(path)).andReturn().getResponse().getContentAsByteArray());
		return json.get("cells")
			.get(0)
			.get("metrics")
			.valueStream()
			.filter(metric -> metric.get("metric").asString().equals("ttft_s"))
			.findFirst()
			.orElseThrow()
			.get("interval")
			.toString();
	}

	@Test
	void aLargeRunHasEveryWindowStoredWithItsUploadAndIsComparedWithoutItsSamples() throws Exception {
		ObjectNode document = (ObjectNode) TestUploads.tree(TestUploads.fresh("run-e-control.json"));
		ArrayNode cells = (ArrayNode) document.get("cells");
		// 20 cells of 12,000 ttft samples: 240,000 values.
		for (int c = 0; c < 20; c++) {
			ObjectNode cell = (ObjectNode) cells.get(c);
			ArrayNode samples = cell.putArray("samples");
			for (int i = 0; i < 12_000; i++) {
				samples.addObject().put("ttft_s", 1 + (i % 97) / 100.0);
			}
		}
		String id = TestUploads.upload(mvc, JSON.writeValueAsBytes(document));

		assertThat(bootstraps.find(List.of(new RunId(id)))).hasSize(20);
		assertThat(runs.find(new RunId(id), CellStatistics.computedUnder(5)).orElseThrow().cells().get(0).samples())
			.isEmpty();
	}

	@Test
	void areAppendOnly() throws Exception {
		String id = TestUploads.upload(mvc, withSamples());

		JdbcClient asOwner = JdbcClient.create(owner.dataSource());
		assertThatThrownBy(
				() -> asOwner.sql("update cell_median_window set first_rank = 0 where run_id = ?").param(id).update())
			.rootCause()
			.hasMessageContaining("append-only");
		assertThatThrownBy(() -> asOwner.sql("delete from cell_median_window where run_id = ?").param(id).update())
			.rootCause()
			.hasMessageContaining("append-only");
		assertThatThrownBy(() -> asOwner.sql("truncate cell_median_window").update()).rootCause()
			.hasMessageContaining("append-only");
	}

	@Test
	void aRefusedUploadLeavesNone() throws Exception {
		long before = jdbc.sql("select count(*) from cell_median_window").query(Long.class).single();
		ObjectNode document = (ObjectNode) TestUploads.tree(withSamples());
		((ObjectNode) document.get("cells").get(3)).putObject("requests").put("failed", -1);

		mvc.perform(MockMvcRequestBuilders.post("/api/runs")
			.with(SecurityMockMvcRequestPostProcessors.httpBasic(TestUploads.USER, TestUploads.PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content(JSON.writeValueAsBytes(document))).andExpect(MockMvcResultMatchers.status().isBadRequest());

		assertThat(jdbc.sql("select count(*) from cell_median_window").query(Long.class).single()).isEqualTo(before);
	}

}
