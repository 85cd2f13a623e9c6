package dev.parity.history;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The history pages as served (no JavaScript): names and words rather than ids, times
 * readable as they are, status buttons for those who may use them, a pull-request run's
 * history in its base branch's series.
 */
@ParityTest
class HistoryInWordsPagesTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Test
	void pagesSayHistoryInWordsAndAPullRequestRunLeadsToItsBaseSeries() throws Exception {
		List<ObjectNode> documents = NightlyRuns.series("words-pages-box");
		List<String> nights = new ArrayList<>();
		for (ObjectNode night : documents) {
			nights.add(TestUploads.upload(mvc, night.toString().getBytes(StandardCharsets.UTF_8)));
		}
		String seriesId = jdbc.sql("select series_id from series_run where run_id = ?")
			.param(nights.get(0))
			.query(String.class)
			.single();
		String alertId = jdbc.sql("select id from alert where series_id = ?")
			.param(seriesId)
			.query(String.class)
			.single();

		// The alerts list, as a reader without JavaScript reads it: no ids in its text,
		// the exact UTC time.
		String alerts = mvc.perform(get("/alerts"))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		String text = alerts.replaceAll("<[^>]+>", " ");
		assertThat(text).doesNotContain(seriesId)
			.doesNotContain(nights.get(30))
			.doesNotContain("decode_tps")
			.contains("words-pages-box / org/model-7b / vllm")
			.contains("“nightly words-pages-box #30”")
			.contains("c=1 × 1,024 tokens")
			.containsPattern("decode −\\d")
			.containsPattern("p &lt; 0\\.0001|p < 0\\.0001")
			.containsPattern("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC");
		assertThat(alerts).contains("<time class=\"when\" data-relative datetime=\"")
			.containsPattern("/js/local-time(-[0-9a-f]{32})?\\.js")
			.doesNotContain("form class=\"alert-actions\"")
			.doesNotContain("alert-actions");

		// Signed in as an uploader: a form with CSRF and a button per status it may take
		// next.
		String signedIn = mvc.perform(get("/alerts").with(user("uploader").roles("UPLOADER")))
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		int row = signedIn.indexOf("id=\"alert-" + alertId + "\"");
		String form = signedIn.substring(signedIn.indexOf("<form", row), signedIn.indexOf("</form>", row));
		assertThat(form).contains("name=\"_csrf\"")
			.contains("value=\"acknowledged\"")
			.contains("value=\"false-positive\"")
			.contains("value=\"explained\"")
			.doesNotContain("value=\"withdrawn\"")
			.doesNotContain("value=\"open\"");
		mvc.perform(post("/alerts/" + alertId + "/status").with(user("uploader").roles("UPLOADER"))
			.with(csrf())
			.param("status", "false-positive")
			.param("reason", "a driver update")
			.param("back", "alerts")).andExpect(status().is3xxRedirection());
		assertThat(jdbc.sql("select status from alert_status where alert_id = ? order by id desc limit 1")
			.param(alertId)
			.query(String.class)
			.single()).isEqualTo("false-positive");
		mvc.perform(post("/alerts/" + alertId + "/status").with(user("uploader").roles("UPLOADER"))
			.with(csrf())
			.param("status", "open")
			.param("back", "alerts")).andExpect(status().is3xxRedirection());

		// The series: the engine version along the nightlies is one line, not 39.
		String series = mvc.perform(get("/series/" + seriesId))
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(series).contains("engine version changed at 39 runs: 0.11.0 → 0.11.1 → … → 0.11.39")
			.doesNotContain("engine.version 0.11.0 → 0.11.1");
		assertThat(series.split("class=\"change worse\"", -1).length - 1).as("signed changes")
			.isGreaterThanOrEqualTo(11);

		// A pull-request run: its history is the nightly series with the run marked and
		// its verdict said.
		ObjectNode pr = documents.get(39).deepCopy();
		pr.put("title", "PR 7: a slower decode");
		pr.put("recorded_at", "2026-02-10T02:00:00Z");
		((ObjectNode) pr.get("engine")).put("commit", "feedface00000000000000000000000000000007");
		pr.putObject("context").put("branch", "slower").put("pull_request", "7");
		for (var cell : pr.get("cells")) {
			ObjectNode metrics = (ObjectNode) cell.get("metrics");
			metrics.put("decode_tps", metrics.get("decode_tps").asDouble() * 0.7);
		}
		String prId = TestUploads.upload(mvc, pr.toString().getBytes(StandardCharsets.UTF_8));
		String runPage = mvc.perform(get("/runs/" + prId))
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(runPage).contains("href=\"/series/" + seriesId + "?mark=" + prId + "#marked-run\"");
		String marked = mvc.perform(get("/series/" + seriesId).param("mark", prId))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8)
			.replaceAll("<[^>]+>", " ")
			.replaceAll("\\s+", " ");
		assertThat(marked).contains("Marked: “PR 7: a slower decode”")
			.contains("not one of this series' runs")
			.containsPattern(
					"Verdict against “nightly words-pages-box #39” : regression — decode −30\\.0 % in 4 cells");

		// The verdict's JSON keeps its fields and says the baseline by title and the
		// regression in words.
		String verdict = mvc.perform(get("/api/runs/" + prId + "/verdict"))
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(verdict).contains("\"status\":\"regression\"")
			.contains("\"baseline\":\"" + nights.get(39) + "\"")
			.contains("\"baseline_title\":\"nightly words-pages-box #39\"")
			.contains("\"in_words\":\"decode −30.0 % in 4 cells\"");

		// A night's own history is its series, at the run.
		assertThat(mvc.perform(get("/runs/" + nights.get(3)))
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8))
			.contains("href=\"/series/" + seriesId + "#run-" + nights.get(3) + "\"");
		mvc.perform(get("/series/" + seriesId).param("mark", "nosuchrun1")).andExpect(status().isNotFound());

		// What the start page costs with its 5 verdicts (said, never asserted: the
		// machine is shared).
		long started = System.nanoTime();
		for (int i = 0; i < 5; i++) {
			mvc.perform(get("/")).andExpect(status().isOk());
		}
		System.out.printf("history in words: the start page with 5 verdicts took %d ms on average%n",
				(System.nanoTime() - started) / 5_000_000);

		// The start page lists the open alert and the pull request's verdict.
		String home = mvc.perform(get("/"))
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8)
			.replaceAll("<[^>]+>", " ")
			.replaceAll("\\s+", " ");
		assertThat(home).contains("Open alerts")
			.containsPattern("regression ?: decode −\\d")
			.contains("“ PR 7: a slower decode ”: regression — decode −30.0 % in 4 cells");
	}

}
