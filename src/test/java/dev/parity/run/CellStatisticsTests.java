package dev.parity.run;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.system.SchemaOwner;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Sample statistics are computed at ingest and stored with the run, in its transaction,
 * append-only; a run without them (stored before they existed) is read whole and compared
 * as before.
 */
@ParityTest
class CellStatisticsTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/** The server's defaults in the tests: src/docs/design/PRODUCT.md's outlier z. */
	private static final String DEFAULTS = CellStatistics.computedUnder(5);

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	RunRepository runs;

	/**
	 * The triggers hold even for the schema's owner (the application's role may not even
	 * try).
	 */
	@Autowired
	SchemaOwner owner;

	/**
	 * The control run with samples in its first two cells: 12 (one failed, with a ttft of
	 * its own) and 5, output tokens in the first only.
	 */
	private static byte[] withSamples() {
		ObjectNode document = (ObjectNode) TestUploads.tree(TestUploads.fresh("run-e-control.json"));
		ArrayNode cells = (ArrayNode) document.get("cells");
		for (int c = 0; c < 2; c++) {
			ArrayNode samples = ((ObjectNode) cells.get(c)).putArray("samples");
			for (int i = 0; i < (c == 0 ? 12 : 5); i++) {
				ObjectNode sample = samples.addObject();
				if (c == 0) {
					sample.put("status", i == 11 ? "failed" : "ok").put("output_tokens", 500 + i);
				}
				sample.put("ttft_s", 1 + i / 100.0);
			}
		}
		return JSON.writeValueAsBytes(document);
	}

	@Autowired
	PlatformTransactionManager transactions;

	@Test
	void aRunReadWithoutItsSamplesIsKeptOnceCommittedAndIsWhatTheDatabaseHolds() throws Exception {
		// A reference run: it joins no series, so nothing reads it in the background.
		ObjectNode reference = (ObjectNode) TestUploads.tree(withSamples());
		reference.put("role", "reference");
		reference.putObject("source").put("url", "https://example.invalid/published-figures");
		RunId id = new RunId(TestUploads.upload(mvc, JSON.writeValueAsBytes(reference)));
		// Read in a transaction that writes and then rolls back (as a run's own upload
		// might): not kept.
		Run inRolledBack = new TransactionTemplate(transactions).execute(status -> {
			status.setRollbackOnly();
			return runs.find(id, DEFAULTS).orElseThrow();
		});
		Run first = runs.find(id, DEFAULTS).orElseThrow();
		assertThat(first).isNotSameAs(inRolledBack).isEqualTo(inRolledBack);
		// Kept from then on.
		assertThat(runs.findAll(List.of(id), DEFAULTS).get(id)).isSameAs(first);
		assertThat(first.cells().get(0).statistics().samples()).isEqualTo(12);
		// Read whole (with its samples), or under other statistics, it is read from the
		// database each time.
		assertThat(runs.find(id).orElseThrow()).isNotSameAs(runs.find(id).orElseThrow());
		assertThat(runs.find(id, null).orElseThrow().cells().get(0).samples()).hasSize(12);
		// Its header likewise.
		Run headerInRolledBack = new TransactionTemplate(transactions).execute(status -> {
			status.setRollbackOnly();
			return runs.header(id).orElseThrow();
		});
		Run header = runs.header(id).orElseThrow();
		assertThat(header).isNotSameAs(headerInRolledBack).isEqualTo(headerInRolledBack);
		assertThat(runs.header(id).orElseThrow()).isSameAs(header);
		assertThat(header.title()).isEqualTo(first.title());
		assertThat(header.cells()).isEmpty();
	}

	@Test
	void areStoredWithTheUploadOneRowPerCellAndMetricOverItsCompletedSamples() throws Exception {
		String id = TestUploads.upload(mvc, withSamples());
		Run run = runs.find(new RunId(id)).orElseThrow();

		List<Map<String, Object>> rows = jdbc.sql("""
				select anchor, metric, sample_count, count, median from cell_statistics where run_id = ?
				order by anchor, metric""").param(id).query().listOfRows();
		String first = run.cells().get(0).anchor();
		String second = run.cells().get(1).anchor();
		assertThat(rows).filteredOn(row -> List.of(first, second).contains(row.get("anchor")))
			.extracting(row -> row.get("anchor") + " " + row.get("metric") + " " + row.get("sample_count") + " "
					+ row.get("count") + " " + row.get("median"))
			.containsExactlyInAnyOrder(first + " output_tokens 12 11 505.0", first + " ttft_s 12 11 1.05",
					second + " ttft_s 5 5 1.02");
		assertThat(jdbc.sql("select computed_under from run_statistics where run_id = ?")
			.param(id)
			.query(String.class)
			.list()).containsExactly(DEFAULTS);
		Run light = runs.find(new RunId(id), DEFAULTS).orElseThrow();
		assertThat(light.cells()).allSatisfy(cell -> assertThat(cell.samples()).isEmpty());
		assertThat(light.cells().get(0).statistics().samples()).isEqualTo(12);
		int without = run.cells()
			.indexOf(run.cells().stream().filter(cell -> cell.samples().isEmpty()).findFirst().orElseThrow());
		assertThat(light.cells().get(without).statistics().samples()).isZero();
		assertThat(light.cells().get(without).statistics().metrics()).isEmpty();
	}

	@Test
	void areAppendOnly() throws Exception {
		String id = TestUploads.upload(mvc, withSamples());

		JdbcClient asOwner = JdbcClient.create(owner.dataSource());
		for (String table : List.of("cell_statistics", "run_statistics")) {
			assertThatThrownBy(() -> asOwner.sql("update " + table + " set computed_under = 'x' where run_id = ?")
				.param(id)
				.update()).rootCause().hasMessageContaining("append-only");
			assertThatThrownBy(() -> asOwner.sql("delete from " + table + " where run_id = ?").param(id).update())
				.rootCause()
				.hasMessageContaining("append-only");
			assertThatThrownBy(() -> asOwner.sql("truncate " + table).update()).rootCause()
				.hasMessageContaining("append-only");
		}
	}

	@Test
	void aRefusedUploadLeavesNone() throws Exception {
		long cells = jdbc.sql("select count(*) from cell_statistics").query(Long.class).single();
		long runsWith = jdbc.sql("select count(*) from run_statistics").query(Long.class).single();
		ObjectNode document = (ObjectNode) TestUploads.tree(withSamples());
		((ObjectNode) document.get("cells").get(3)).putObject("requests").put("failed", -1);

		mvc.perform(post("/api/runs").with(httpBasic(TestUploads.USER, TestUploads.PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content(JSON.writeValueAsBytes(document))).andExpect(status().isBadRequest());

		assertThat(jdbc.sql("select count(*) from cell_statistics").query(Long.class).single()).isEqualTo(cells);
		assertThat(jdbc.sql("select count(*) from run_statistics").query(Long.class).single()).isEqualTo(runsWith);
	}

	@Test
	void aRunStoredBeforeThemIsReadWholeAndComparedAsBefore() throws Exception {
		String id = TestUploads.upload(mvc, withSamples());
		// The same rows under another id, as a run stored before V33 has them: no
		// statistics, no bootstrap medians.
		String old = RunId.random().value();
		TestUploads.copyRunRow(jdbc, id, old);
		TestUploads.copyFiles(jdbc, "?::text", "", old, old, old, old);
		jdbc.sql("""
				insert into cell select (jsonb_populate_record(null::cell, to_jsonb(c)
				    || jsonb_build_object('run_id', ?::text, 'id', nextval(pg_get_serial_sequence('cell', 'id'))))).*
				from cell c where c.run_id = ? order by c.position""").params(old, id).update();

		Run whole = runs.find(new RunId(old), DEFAULTS).orElseThrow();
		assertThat(whole.cells().get(0).samples()).hasSize(12);
		assertThat(whole.cells()).allSatisfy(cell -> assertThat(cell.statistics()).isNull());
		String comparison = mvc.perform(get("/api/compare/" + old + "..." + id))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		String same = mvc.perform(get("/api/compare/" + id + "..." + id))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(claims(comparison)).isEqualTo(claims(same)).isNotEmpty();
	}

	/**
	 * What a comparison says of each cell, without its intervals (seeded by the runs'
	 * ids).
	 */
	private static List<String> claims(String comparison) {
		List<String> claims = new ArrayList<>();
		TestUploads.tree(comparison.getBytes(StandardCharsets.UTF_8)).get("cells").forEach(cell -> {
			claims.add(cell.get("anchor") + " " + cell.get("flags"));
			cell.get("metrics")
				.forEach(metric -> claims.add(cell.get("anchor") + " " + metric.get("metric") + " "
						+ metric.get("ratio") + " " + metric.get("comparable") + " " + metric.get("flags")));
		});
		return claims;
	}

}
