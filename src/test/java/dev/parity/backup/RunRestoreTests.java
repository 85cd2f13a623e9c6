package dev.parity.backup;

import java.util.List;
import java.util.Map;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.run.BootstrapJobs;
import dev.parity.run.CellStatistics;
import dev.parity.run.Run;
import dev.parity.run.RunId;
import dev.parity.run.RunRepository;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run restored from a backup gets what ingest derives from its samples, as an uploaded
 * run has it.
 */
@ParityTest
class RunRestoreTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String DEFAULTS = CellStatistics.computedUnder(5);

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	RunRestore restore;

	@Autowired
	RunRepository runs;

	@Autowired
	PlatformTransactionManager transactions;

	@Autowired
	BootstrapJobs jobs;

	@Test
	void aRestoredRunHasTheSampleStatisticsAndBootstrapMediansOfAnUploadedOne() throws Exception {
		String uploaded = TestUploads.upload(mvc, withSamples());
		// The run's rows as a backup holds them, under another id (this instance is not
		// empty).
		String restored = RunId.random().value();
		ObjectNode run = (ObjectNode) JSON.readTree(jdbc.sql("select to_jsonb(r)::text from run r where id = ?")
			.param(uploaded)
			.query(String.class)
			.single());
		run.put("id", restored).put("upload_sha256", "0".repeat(48) + restored);
		ArrayNode cells = (ArrayNode) JSON.readTree(jdbc.sql("""
				select jsonb_agg(to_jsonb(c) order by c.position)::text from cell c where c.run_id = ?""")
			.param(uploaded)
			.query(String.class)
			.single());
		for (JsonNode cell : cells) {
			((ObjectNode) cell).put("run_id", restored)
				.put("id", jdbc.sql("select nextval(pg_get_serial_sequence('cell', 'id'))").query(Long.class).single());
		}

		new TransactionTemplate(transactions).executeWithoutResult(status -> {
			restore.restore(new RunRestore.RestoredRun(run, List.of(), List.of(), cells));
			// Its median windows are left to a job done after the commit (an upload
			// stores its own).
			assertThat(jobs.pending(new RunId(restored))).isTrue();
		});
		jobs.complete(new RunId(restored));

		assertThat(statistics(restored)).isEqualTo(statistics(uploaded)).isNotEmpty();
		assertThat(jdbc.sql("select count(*) from cell_median_window where run_id = ?")
			.param(restored)
			.query(Integer.class)
			.single())
			.isEqualTo(jdbc.sql("select count(*) from cell_median_window where run_id = ?")
				.param(uploaded)
				.query(Integer.class)
				.single())
			.isPositive();
		Run light = runs.find(new RunId(restored), DEFAULTS).orElseThrow();
		assertThat(light.cells()).allSatisfy(cell -> assertThat(cell.samples()).isEmpty());
	}

	private List<Map<String, Object>> statistics(String run) {
		return jdbc
			.sql("""
					select anchor, metric, computed_under, position, ok_position, sample_count, count, median, mean, sd, mad,
					       min, max, worst_index, worst_value, worst_z, beyond
					from cell_statistics where run_id = ? order by anchor, metric""")
			.param(run)
			.query()
			.listOfRows();
	}

	/** The control run with 12 ttft samples in each of its first three cells. */
	private static byte[] withSamples() {
		ObjectNode document = (ObjectNode) TestUploads.tree(TestUploads.fresh("run-e-control.json"));
		for (int c = 0; c < 3; c++) {
			ArrayNode samples = ((ObjectNode) document.get("cells").get(c)).putArray("samples");
			for (int i = 0; i < 12; i++) {
				samples.addObject().put("output_tokens", 500 + i).put("ttft_s", 1 + (i * c) / 100.0);
			}
		}
		return JSON.writeValueAsBytes(document);
	}

}
