package dev.parity.history;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.caveat.Caveat;
import dev.parity.caveat.Caveats;
import dev.parity.run.Run;
import dev.parity.run.RunId;
import dev.parity.run.RunRepository;
import io.micrometer.core.instrument.Metrics;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * How series are kept: updated after the upload by a worker (the upload does not wait for
 * it), incrementally (a new run costs its own facts and one or two pairs, and ends in the
 * analysis a full recomputation gives), their settings changed through the API, an alert
 * explained by a linked caveat, and the charts of the series page.
 */
@ParityTest
class SeriesMaintenanceTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	SeriesUpdates updates;

	@Autowired
	SeriesAnalyses analyses;

	@Autowired
	SeriesRepository repository;

	@Autowired
	RunRepository runs;

	@Autowired
	Caveats caveats;

	@Autowired
	HistorySettings settings;

	@Test
	void theWorkerUpdatesTheSeriesAfterTheUploadWithoutAnyRead() throws Exception {
		List<ObjectNode> nights = NightlyRuns.series("maintenance-worker");
		List<String> ids = upload(nights.subList(0, 4));
		String seriesId = repository.seriesOf(ids.get(0)).orElseThrow();
		// The run is in its series the moment its upload answers (joined in the upload's
		// transaction)...
		assertThat(repository.runIds(seriesId)).containsExactlyInAnyOrderElementsOf(ids);
		// ...and the worker analyses it after the commit, with nobody reading the series.
		Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
		while (analysedRuns(seriesId) != 4 && Instant.now().isBefore(deadline)) {
			Thread.sleep(100);
		}
		assertThat(analysedRuns(seriesId)).isEqualTo(4);
		assertThat(jdbc.sql("select count(*) from series_job where series_id = ?")
			.param(seriesId)
			.query(Integer.class)
			.single()).isZero();
	}

	@Test
	void aRunInsertedOutOfOrderCostsItsFactsAndTwoPairsAndEndsWhereAFullAnalysisEnds() throws Exception {
		List<ObjectNode> nights = NightlyRuns.series("maintenance-incremental");
		ObjectNode late = nights.remove(17);
		List<String> ids = upload(nights);
		String seriesId = repository.seriesOf(ids.get(0)).orElseThrow();
		get("/api/series/" + seriesId);
		assertThat(pairs(seriesId)).isEqualTo(38);
		assertThat(facts(seriesId)).isEqualTo(39);

		String lateId = upload(List.of(late)).get(0);
		JsonNode series = get("/api/series/" + seriesId);
		assertThat(series.get("runs")).hasSize(40);
		assertThat(series.at("/runs/17/id").asString()).isEqualTo(lateId);
		// Its own pair with night 16, and night 18's new pair with it; nothing else was
		// compared again.
		assertThat(pairs(seriesId)).isEqualTo(40);
		assertThat(facts(seriesId)).isEqualTo(40);

		// The incremental analysis equals the analysis of the same runs computed from
		// their documents.
		assertThat(endsWhereAFullAnalysisEnds(seriesId).changePoints()).isNotEmpty();
	}

	@Test
	void runsAppendedOneByOneGoOnFromTheKeptAnalysisAndEndWhereAFullAnalysisEnds() throws Exception {
		List<ObjectNode> nights = NightlyRuns.series("maintenance-appended");
		List<String> ids = upload(nights.subList(0, 10));
		String seriesId = repository.seriesOf(ids.get(0)).orElseThrow();
		get("/api/series/" + seriesId);
		double continuedBefore = continued();
		for (ObjectNode night : nights.subList(10, nights.size())) {
			ids.addAll(upload(List.of(night)));
			assertThat(get("/api/series/" + seriesId).get("runs")).hasSize(ids.size());
		}
		// Each of those updates went on from the one before it (other series' updates may
		// count too).
		assertThat(continued() - continuedBefore).isGreaterThanOrEqualTo(nights.size() - 10);

		assertThat(endsWhereAFullAnalysisEnds(seriesId).changePoints()).isNotEmpty();
		assertThat(get("/api/alerts?series=" + seriesId).get("total").intValue()).isEqualTo(1);
	}

	@Test
	void aRunStoredAfterTheOneAfterItGoesOnFromTheAnalysisBeforeItAndEndsWhereAFullAnalysisEnds() throws Exception {
		List<ObjectNode> nights = NightlyRuns.series("maintenance-late-by-one");
		List<String> ids = upload(nights.subList(0, 8));
		String seriesId = repository.seriesOf(ids.get(0)).orElseThrow();
		get("/api/series/" + seriesId);
		for (ObjectNode night : nights.subList(8, 12)) {
			upload(List.of(night));
			get("/api/series/" + seriesId);
		}
		// Night 13 arrives, and then night 12 (as CI jobs that end in another order):
		// each update goes on from an analysis kept before, not from the start.
		upload(List.of(nights.get(13)));
		get("/api/series/" + seriesId);
		double continuedBefore = continued();
		upload(List.of(nights.get(12)));
		assertThat(get("/api/series/" + seriesId).get("runs")).hasSize(14);
		assertThat(continued() - continuedBefore).isGreaterThanOrEqualTo(1);

		endsWhereAFullAnalysisEnds(seriesId);
	}

	/**
	 * The series' analysis kept (incremental) and as stored, read back with its points
	 * rebuilt (another instance, after a restart), each equal to the analysis of the same
	 * runs computed from their documents; that analysis.
	 */
	private SeriesAnalysis endsWhereAFullAnalysisEnds(String seriesId) {
		List<String> order = repository.runIds(seriesId);
		Map<RunId, Run> loaded = runs.findAll(order.stream().map(RunId::new).toList());
		SeriesAnalysis full = new SeriesAnalyser().analyse(order.stream().map(id -> loaded.get(new RunId(id))).toList(),
				Set.of(), repository.settings(seriesId, settings.seriesDefaults()));
		var mapper = SeriesRepository.mapper();
		assertThat(mapper.writeValueAsString(updates.analysis(seriesId).orElseThrow()))
			.isEqualTo(mapper.writeValueAsString(full));
		assertThat(mapper.writeValueAsString(analyses.stored(seriesId).orElseThrow()))
			.isEqualTo(mapper.writeValueAsString(full));
		return full;
	}

	private static double continued() {
		var counter = Metrics.globalRegistry.find("parity.series.update.continued").counter();
		return counter == null ? 0 : counter.count();
	}

	@Test
	void settingsChangeThroughTheApiAndTheAlertsFollow() throws Exception {
		List<String> ids = upload(NightlyRuns.series("maintenance-settings"));
		String seriesId = repository.seriesOf(ids.get(0)).orElseThrow();
		JsonNode shown = get("/api/series/" + seriesId + "/settings");
		assertThat(shown.at("/effective/confirm_after").intValue()).isEqualTo(3);
		assertThat(shown.at("/own/confirm_after").isNull()).isTrue();
		assertThat(get("/api/alerts?series=" + seriesId).get("total").intValue()).isEqualTo(1);

		// Bad settings: 400 naming each problem, nothing stored.
		for (String[] bad : new String[][] { { "{\"window\": 1}", "window" }, { "{\"colour\": \"red\"}", "colour" },
				{ "{\"vary\": \"moon\"}", "vary" }, { "{\"max_pvalue\": 2}", "max_pvalue" },
				{ "{\"confirm_after\": \"many\"}", "confirm_after" }, { "[1]", "JSON object" } }) {
			String body = mvc
				.perform(put("/api/series/{id}/settings", seriesId).with(httpBasic(USER, PASSWORD))
					.contentType(MediaType.APPLICATION_JSON)
					.content(bad[0]))
				.andExpect(status().isBadRequest())
				.andReturn()
				.getResponse()
				.getContentAsString();
			assertThat(body).as(bad[0]).contains(bad[1]);
		}
		assertThat(jdbc.sql("select count(*) from series_settings where series_id = ?")
			.param(seriesId)
			.query(Integer.class)
			.single()).isZero();

		// An uploader may not change them; an admin may.
		mvc.perform(post("/admin/users").param("username", "maintenance-uploader")
			.param("password", "uploader-password-77")
			.param("role", "uploader")
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())).andExpect(status().is3xxRedirection());
		mvc.perform(put("/api/series/{id}/settings", seriesId)
			.with(httpBasic("maintenance-uploader", "uploader-password-77"))
			.contentType(MediaType.APPLICATION_JSON)
			.content("{\"confirm_after\": 20}")).andExpect(status().isForbidden());

		// Confirmation after 20 points: the regression 10 runs from the end no longer
		// alerts; the alert is withdrawn.
		JsonNode changed = TestUploads.tree(mvc
			.perform(put("/api/series/{id}/settings", seriesId).with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"confirm_after\": 20}"))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
		assertThat(changed.at("/effective/confirm_after").intValue()).isEqualTo(20);
		assertThat(changed.at("/own/confirm_after").intValue()).isEqualTo(20);
		assertThat(changed.get("updated_by").asString()).isEqualTo(USER);
		assertThat(get("/api/alerts?series=" + seriesId).get("total").intValue()).isZero();
		assertThat(get("/api/alerts?status=withdrawn&series=" + seriesId).get("total").intValue()).isEqualTo(1);
		assertThat(get("/api/series/" + seriesId).at("/settings/confirm_after").intValue()).isEqualTo(20);

		// Back to the server's default: the regression alerts again.
		mvc.perform(put("/api/series/{id}/settings", seriesId).with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content("{\"confirm_after\": null}")).andExpect(status().isOk());
		assertThat(get("/api/alerts?series=" + seriesId).get("total").intValue()).isEqualTo(1);
		assertThat(jdbc.sql("select count(*) from audit_event where action = 'series.settings' and subject = ?")
			.param(seriesId)
			.query(Integer.class)
			.single()).isEqualTo(2);
	}

	@Test
	void anAlertIsExplainedByALinkedCaveatAndTheChartsComeOneMetricAtATime() throws Exception {
		List<String> ids = upload(NightlyRuns.series("maintenance-explained"));
		String seriesId = repository.seriesOf(ids.get(0)).orElseThrow();
		JsonNode alert = get("/api/alerts?series=" + seriesId).get("alerts").get(0);
		String alertId = alert.get("id").asString();
		String run = alert.get("run").asString();
		Caveat caveat = caveats.add(new Caveat.Target(run, null, null, null, null),
				"fp8 decode kernels changed in this build", null, USER);

		// Refused, nothing stored: an unknown caveat; a caveat with another status than
		// explained.
		for (String bad : new String[] { "{\"status\": \"explained\", \"caveat\": \"nosuchcav\"}",
				"{\"status\": \"acknowledged\", \"caveat\": \"" + caveat.id() + "\"}" }) {
			String body = mvc
				.perform(post("/api/alerts/{id}/status", alertId).with(httpBasic(USER, PASSWORD))
					.contentType(MediaType.APPLICATION_JSON)
					.content(bad))
				.andExpect(status().isBadRequest())
				.andReturn()
				.getResponse()
				.getContentAsString();
			assertThat(body).contains("caveat");
		}
		assertThat(get("/api/alerts?series=" + seriesId).at("/alerts/0/history")).hasSize(1);

		mvc.perform(post("/api/alerts/{id}/status", alertId).with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content("{\"status\": \"explained\", \"reason\": \"known kernel change\", \"caveat\": \"" + caveat.id()
					+ "\"}"))
			.andExpect(status().isOk());
		JsonNode explained = get("/api/alerts?series=" + seriesId).get("alerts").get(0);
		assertThat(explained.get("status").asString()).isEqualTo("explained");
		assertThat(explained.at("/history/1/caveat/id").asString()).isEqualTo(caveat.id());
		assertThat(explained.at("/history/1/caveat/url").asString())
			.isEqualTo("/runs/" + run + "#caveat-" + caveat.id());
		String page = mvc.perform(MockMvcRequestBuilders.get("/series/" + seriesId))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(page).contains("explained by", "fp8 decode kernels changed in this build");

		// The charts: the page brings the first metric; each other comes from the chart
		// endpoint.
		JsonNode chart = get("/api/series/" + seriesId + "/chart?metric=decode_tps");
		JsonNode line = null;
		for (JsonNode candidate : chart.get("lines")) {
			if (candidate.get("anchor").asString().equals("cell-concurrency-8--prompt_tokens-4096")) {
				line = candidate;
			}
		}
		assertThat(line).isNotNull();
		assertThat(line.get("values")).hasSize(40);
		assertThat(line.at("/greyed/" + NightlyRuns.FAILED_CELL).toString()).contains("failures");
		assertThat(line.get("greyed").has("0")).isFalse();
		assertThat(chart.get("changes").toString()).contains("regression");
		String missing = mvc.perform(MockMvcRequestBuilders.get("/api/series/" + seriesId + "/chart?metric=joules"))
			.andExpect(status().isNotFound())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(missing).contains("joules", "decode_tps");
	}

	@Test
	void theSeriesPageListsTheLatestRunsSaysSoAndLinksToAllOfThem() throws Exception {
		List<String> ids = upload(NightlyRuns.series("maintenance-many-runs").subList(0, 3));
		String seriesId = repository.seriesOf(ids.get(0)).orElseThrow();
		// 100 more runs of the series: copies of its last run made in SQL, recorded a day
		// apart after it.
		String prefix = RunId.random().value().substring(0, 7);
		String id = "'" + prefix + "' || lpad(g::text, 3, '0')";
		jdbc.sql(copy("run",
				Map.of("id", id, "upload_sha256", TestUploads.copiedSha256(id), "recorded_at",
						"recorded_at + g * interval '1 day'", "title", "'copy ' || g"),
				"from run, generate_series(1, 100) g where id = ?"))
			.param(ids.get(2))
			.update();
		jdbc.sql(copy("cell", Map.of("run_id", id), "from cell, generate_series(1, 100) g where run_id = ?"))
			.param(ids.get(2))
			.update();
		TestUploads.copyFiles(jdbc, id, "from generate_series(1, 100) g");
		jdbc.sql("insert into series_run (series_id, run_id) select ?, " + id + " from generate_series(1, 100) g")
			.param(seriesId)
			.update();
		updates.update(new RunId(ids.get(2)));
		assertThat(get("/api/series/" + seriesId).get("runs")).hasSize(103);

		String page = mvc.perform(MockMvcRequestBuilders.get("/series/" + seriesId))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(page)
			.contains("The latest <span>100</span> of", "/series/" + seriesId + "?runs=all#runs",
					"<ol class=\"series-runs\" start=\"4\">", "id=\"run-" + prefix + "100\"")
			.containsPattern("/js/series-runs(-[0-9a-f]{32})?\\.js");
		assertThat(page.split("<li id=\"run-", -1)).hasSize(101);
		assertThat(page).doesNotContain("id=\"run-" + ids.get(0) + "\"");

		String all = mvc.perform(MockMvcRequestBuilders.get("/series/" + seriesId).param("runs", "all"))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(all.split("<li id=\"run-", -1)).hasSize(104);
		assertThat(all).contains("id=\"run-" + ids.get(0) + "\"", "only the latest")
			.doesNotContain("The latest <span>");

		String refused = mvc.perform(MockMvcRequestBuilders.get("/series/" + seriesId).param("runs", "some"))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getErrorMessage();
		assertThat(refused).contains("runs", "some");
		String refusedChanges = mvc.perform(MockMvcRequestBuilders.get("/series/" + seriesId).param("changes", "most"))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getErrorMessage();
		assertThat(refusedChanges).contains("changes", "most");
	}

	/**
	 * insert into {@code table} (its columns but generated ones) select (each column, or
	 * its override) {@code from}.
	 */
	private String copy(String table, Map<String, String> overrides, String from) {
		List<String> columns = jdbc.sql("""
				select column_name from information_schema.columns
				where table_schema = current_schema() and table_name = ? and is_generated = 'NEVER'
				  and coalesce(column_default, '') not like 'nextval%' and is_identity = 'NO'
				order by ordinal_position""").param(table).query(String.class).list();
		return "insert into " + table + " (" + String.join(", ", columns) + ") select "
				+ String.join(", ", columns.stream().map(c -> overrides.getOrDefault(c, c)).toList()) + " " + from;
	}

	private int analysedRuns(String seriesId) {
		return jdbc.sql("select coalesce(max(run_count), 0) from series_analysis where series_id = ?")
			.param(seriesId)
			.query(Integer.class)
			.single();
	}

	private int pairs(String seriesId) {
		return jdbc
			.sql("select count(*) from series_pair p join series_run s on s.run_id = p.run_id where s.series_id = ?")
			.param(seriesId)
			.query(Integer.class)
			.single();
	}

	private int facts(String seriesId) {
		return jdbc.sql(
				"select count(*) from series_run_facts f join series_run s on s.run_id = f.run_id where s.series_id = ?")
			.param(seriesId)
			.query(Integer.class)
			.single();
	}

	private List<String> upload(List<ObjectNode> documents) throws Exception {
		return TestUploads.uploadAll(mvc, documents);
	}

	private JsonNode get(String url) throws Exception {
		return TestUploads.getJson(mvc, url);
	}

}
