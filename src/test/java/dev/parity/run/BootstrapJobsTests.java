package dev.parity.run;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.snapshots.ComparisonService;
import io.micrometer.core.instrument.Metrics;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A run's bootstrap medians are computed after its upload's commit, once, by a worker:
 * until then a comparison computes the same medians from the samples and shows the same
 * thing.
 */
@ParityTest
class BootstrapJobsTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String DEFAULTS = CellStatistics.computedUnder(5);

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	BootstrapJobs jobs;

	@Autowired
	RunRepository runs;

	@Autowired
	CellBootstraps bootstraps;

	@Autowired
	CellBootstraps.Medians medians;

	@Autowired
	ComparisonService comparisons;

	@Test
	void anUploadStoresItsWindowsItselfAndLeavesNoJob() throws Exception {
		String id = upload(withSamples(12, 5));
		RunId run = new RunId(id);

		assertThat(jobs.pending(run)).isFalse();
		Map<CellBootstraps.Key, CellBootstraps.Window> stored = bootstraps.find(List.of(run));
		Map<CellBootstraps.Key, CellBootstraps.Window> expected = new HashMap<>();
		for (Cell cell : runs.find(run).orElseThrow().cells()) {
			CellBootstraps.of(run, cell, medians)
				.forEach(row -> expected.put(new CellBootstraps.Key(id, row.anchor(), row.metric()), row.window()));
		}
		assertThat(stored).containsOnlyKeys(expected.keySet()).isNotEmpty();
		expected.forEach((key, window) -> {
			assertThat(stored.get(key).values()).as("%s", key).containsExactly(window.values());
			assertThat(stored.get(key).first()).isEqualTo(window.first());
			assertThat(stored.get(key).samples()).isEqualTo(window.samples());
		});
	}

	@Test
	void aRefusedUploadLeavesNoJob() throws Exception {
		long before = jdbc.sql("select count(*) from bootstrap_job").query(Long.class).single();
		ObjectNode document = (ObjectNode) TestUploads.tree(withSamples(12, 5));
		((ObjectNode) document.get("cells").get(3)).putObject("requests").put("failed", -1);

		mvc.perform(post("/api/runs").with(httpBasic(TestUploads.USER, TestUploads.PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content(JSON.writeValueAsBytes(document))).andExpect(status().isBadRequest());

		assertThat(jdbc.sql("select count(*) from bootstrap_job").query(Long.class).single()).isEqualTo(before);
	}

	@Test
	void aComparisonRightAfterTheUploadShowsWhatItShowsLaterAndWhatTheSamplesGive() throws Exception {
		String baseline = upload(withSamples(30, 12));
		String contender = upload(withSamples(25, 40));
		ComparisonService.Pair pair = new ComparisonService.Pair(baseline, contender);

		// Its windows stored with it, a run is read without its samples at once.
		assertThat(runs.find(new RunId(baseline), DEFAULTS).orElseThrow().cells())
			.allSatisfy(cell -> assertThat(cell.samples()).isEmpty());
		String before = comparison(pair);
		jobs.drain();
		String after = comparison(pair);
		assertThat(before).contains("\"method\":\"bootstrap-samples\"");
		assertThat(after).isEqualTo(before);
	}

	@Test
	void twoWorkersOnOneDatabaseComputeEachRunOnce() throws Exception {
		List<RunId> uploaded = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			uploaded.add(new RunId(upload(withSamples(20 + i, 12))));
		}
		// Jobs as a restore or the migration to windows leaves them (the windows stored
		// again are the same: a job keeps those there are).
		for (RunId run : uploaded) {
			jdbc.sql("insert into bootstrap_job (run_id) values (?)").param(run.value()).update();
		}
		long waiting = jdbc.sql("select count(*) from bootstrap_job where not_before <= now()")
			.query(Long.class)
			.single();
		long doneBefore = jobsDone();

		// Two workers at once, as two instances' would be: jobs are claimed FOR UPDATE
		// SKIP LOCKED.
		CompletableFuture<Integer> first = CompletableFuture.supplyAsync(jobs::drain);
		CompletableFuture<Integer> second = CompletableFuture.supplyAsync(jobs::drain);
		int claimed = first.get() + second.get();

		assertThat(uploaded).allSatisfy(run -> assertThat(jobs.pending(run)).isFalse());
		for (RunId run : uploaded) {
			assertThat(bootstrapRows(run.value())).isEqualTo(2);
		}
		// Each job done once (this instance's own worker may have taken some too): none
		// claimed twice, none failed.
		assertThat(claimed).isLessThanOrEqualTo((int) waiting);
		assertThat(jobsDone() - doneBefore).isEqualTo(waiting);
	}

	private static long jobsDone() {
		return Metrics.globalRegistry.get("parity.bootstrap.job").timer().count();
	}

	/** The comparison's JSON computed now (not kept), but for when it was computed. */
	private String comparison(ComparisonService.Pair pair) {
		ObjectNode snapshot = (ObjectNode) JSON.valueToTree(comparisons.freshSnapshot(pair, comparisons.defaults()));
		assertThat(snapshot.remove("computed_at")).isNotNull();
		return JSON.writeValueAsString(snapshot);
	}

	private int bootstrapRows(String id) {
		return jdbc.sql("select count(*) from cell_median_window where run_id = ?")
			.param(id)
			.query(Integer.class)
			.single();
	}

	/** Uploads without waiting for the run's medians (TestUploads waits). */
	private String upload(byte[] document) throws Exception {
		var response = mvc
			.perform(post("/api/runs").with(httpBasic(TestUploads.USER, TestUploads.PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content(document))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse();
		return JSON.readTree(response.getContentAsString()).get("id").asString();
	}

	/** The control run with ttft samples in its first two cells. */
	private static byte[] withSamples(int first, int second) {
		ObjectNode document = (ObjectNode) TestUploads.tree(TestUploads.fresh("run-e-control.json"));
		ArrayNode cells = (ArrayNode) document.get("cells");
		int[] counts = { first, second };
		for (int c = 0; c < 2; c++) {
			ArrayNode samples = ((ObjectNode) cells.get(c)).putArray("samples");
			for (int i = 0; i < counts[c]; i++) {
				samples.addObject().put("ttft_s", 1 + ((i * 37 + c) % 23) / 100.0);
			}
		}
		return JSON.writeValueAsBytes(document);
	}

}
