package dev.parity.history;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A nightly series of 40 runs uploaded through the HTTP API: the critical flag change
 * breaks the segment, the real regression alerts (once), and the failed cell, the lone
 * outlier and the longer outputs do not.
 */
@ParityTest
class HistoryApiTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	Verdicts verdicts;

	@Test
	void aNightlySeriesBreaksOnTheFlagAndAlertsOnlyOnTheRealRegression() throws Exception {
		List<String> ids = upload(NightlyRuns.series("nightly-box-a"));
		JsonNode list = get("/api/series?system=nightly-box-a");
		assertThat(list.get("total").intValue()).isEqualTo(1);
		JsonNode listed = list.get("series").get(0);
		assertThat(listed.get("runs").intValue()).isEqualTo(40);
		assertThat(listed.get("last_run").asString()).isEqualTo(ids.get(39));
		assertThat(listed.at("/key/engine").asString()).isEqualTo("vllm");
		assertThat(listed.at("/key/branch").asString()).isEqualTo("main");
		assertThat(listed.get("open_alerts").intValue()).isEqualTo(1);
		String seriesId = listed.get("id").asString();

		JsonNode series = get("/api/series/" + seriesId);
		assertThat(series.get("vary").asString()).isEqualTo("engine");
		assertThat(series.get("runs")).hasSize(40);
		assertThat(series.get("runs").get(3).at("/engine/commit").asString()).isEqualTo(NightlyRuns.commit(3));
		JsonNode segments = series.get("segments");
		assertThat(segments).hasSize(2);
		assertThat(segments.get(1).get("first_run").asString()).isEqualTo(ids.get(NightlyRuns.FLAG_CHANGE));
		assertThat(segments.get(1).at("/starts_because/0/rule").asString()).isEqualTo("critical-flags-differ");
		assertThat(segments.get(1).at("/starts_because/0/message").asString()).isEqualTo("kv-cache-dtype auto → fp8");
		assertThat(series.get("runs").get(NightlyRuns.FLAG_CHANGE).get("segment").intValue()).isEqualTo(1);
		assertThat(series.get("events").toString()).contains("flags-differ", "max-num-seqs 64 → 128", ids.get(5));

		List<String> changeRuns = new ArrayList<>();
		series.get("change_points").forEach(cp -> changeRuns.add(cp.get("run").asString()));
		assertThat(changeRuns).isNotEmpty().allMatch(run -> run.equals(ids.get(NightlyRuns.REGRESSION)));
		JsonNode decode = null;
		for (JsonNode cp : series.get("change_points")) {
			if (cp.get("metric").asString().equals("decode_tps")) {
				decode = cp;
			}
		}
		assertThat(decode).isNotNull();
		assertThat(decode.get("direction").asString()).isEqualTo("regression");
		assertThat(decode.get("magnitude").doubleValue()).isBetween(0.15, 0.25);
		assertThat(decode.get("spread").doubleValue()).as("its run-to-run noise, far smaller than the change")
			.isPositive()
			.isLessThan(0.1);
		assertThat(decode.get("scan_pvalue").doubleValue()).isLessThan(0.01 / 4);
		assertThat(decode.get("pvalue").doubleValue()).isLessThan(0.001);

		JsonNode failed = get(
				"/api/series/" + seriesId + "/points?metric=decode_tps&anchor=cell-concurrency-8--prompt_tokens-4096");
		JsonNode failedPoint = failed.get("points").get(NightlyRuns.FAILED_CELL);
		assertThat(failedPoint.get("run").asString()).isEqualTo(ids.get(NightlyRuns.FAILED_CELL));
		assertThat(failedPoint.get("greyed").booleanValue()).isTrue();
		assertThat(failedPoint.get("greyed_by").toString()).contains("failures");
		JsonNode longer = get(
				"/api/series/" + seriesId + "/points?metric=decode_tps&anchor=cell-concurrency-8--prompt_tokens-1024");
		assertThat(longer.get("points").get(NightlyRuns.LONGER_OUTPUTS).get("greyed_by").toString())
			.contains("output-length-differs");
		assertThat(longer.get("points").get(NightlyRuns.LONGER_OUTPUTS + 1).get("greyed").booleanValue()).isTrue();
		assertThat(longer.get("points").get(NightlyRuns.LONGER_OUTPUTS + 2).get("greyed").booleanValue()).isFalse();
		JsonNode ttftLonger = get(
				"/api/series/" + seriesId + "/points?metric=ttft_s&anchor=cell-concurrency-8--prompt_tokens-1024");
		assertThat(ttftLonger.get("points").get(NightlyRuns.LONGER_OUTPUTS).get("greyed").booleanValue()).isFalse();
		JsonNode outlier = get(
				"/api/series/" + seriesId + "/points?metric=ttft_s&anchor=cell-concurrency-1--prompt_tokens-1024");
		assertThat(outlier.get("points").get(NightlyRuns.OUTLIER).get("greyed").booleanValue()).isFalse();

		JsonNode alerts = get("/api/alerts?series=" + seriesId);
		assertThat(alerts.get("total").intValue()).isEqualTo(1);
		JsonNode alert = alerts.get("alerts").get(0);
		assertThat(alert.get("run").asString()).isEqualTo(ids.get(NightlyRuns.REGRESSION));
		assertThat(alert.get("series").asString()).isEqualTo(seriesId);
		assertThat(alert.get("status").asString()).isEqualTo("open");
		assertThat(alert.get("direction").asString()).isEqualTo("regression");
		assertThat(alert.get("changes").size()).isGreaterThanOrEqualTo(4);
		assertThat(alert.at("/history/0/status").asString()).isEqualTo("open");
		assertThat(alert.at("/history/0/by").asString()).isEqualTo("parity");

		String alertId = alert.get("id").asString();
		mvc.perform(post("/api/alerts/{id}/status", alertId).with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content("{\"status\": \"closed\", \"reason\": \"x\"}")).andExpect(status().isBadRequest());
		mvc.perform(post("/api/alerts/{id}/status", alertId).contentType(MediaType.APPLICATION_JSON)
			.content("{\"status\": \"acknowledged\"}")).andExpect(status().isUnauthorized());
		mvc.perform(post("/api/alerts/{id}/status", alertId).with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content("{\"status\": \"acknowledged\", \"reason\": \"looking\"}")).andExpect(status().isOk());
		JsonNode after = get("/api/alerts?series=" + seriesId).get("alerts").get(0);
		assertThat(after.get("status").asString()).isEqualTo("acknowledged");
		assertThat(after.get("history")).hasSize(2);
		assertThat(after.at("/history/1/by").asString()).isEqualTo(USER);
		assertThat(after.at("/history/1/reason").asString()).isEqualTo("looking");
		assertThat(get("/api/alerts?status=withdrawn&series=" + seriesId).get("total").intValue()).isZero();

		mvc.perform(post("/api/alerts/{id}/status", alertId).with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content("{\"status\": \"false-positive\", \"reason\": \"noise\"}")).andExpect(status().isOk());
		JsonNode quality = get("/api/series/" + seriesId).get("alert_quality");
		assertThat(quality.get("raised").intValue()).isEqualTo(1);
		assertThat(quality.get("confirmed").intValue()).isZero();
		assertThat(quality.get("false_positive").intValue()).isEqualTo(1);
		assertThat(quality.get("withdrawn").intValue()).isZero();
		assertThat(quality.get("share_confirmed").doubleValue()).isZero();
		mvc.perform(post("/api/alerts/{id}/status", alertId).with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content("{\"status\": \"acknowledged\", \"reason\": \"after all\"}")).andExpect(status().isOk());
		assertThat(get("/api/series/" + seriesId).at("/alert_quality/false_positive").intValue()).isZero();

		String seriesPage = page("/series/" + seriesId);
		assertThat(seriesPage).contains("kv-cache-dtype auto → fp8", "alert-" + alertId, "data-charts=")
			.containsPattern("/js/series-charts(-[0-9a-f]{32})?\\.js");
		assertThat(page("/series?system=nightly-box-a")).contains(seriesId, "1 series").doesNotContain("Older →");
		// The list comes 50 series a page: the second page of one series is empty.
		assertThat(page("/series?system=nightly-box-a&page=1")).contains("No series matches", "← Newer")
			.doesNotContain(seriesId);
		assertThat(mvc.perform(MockMvcRequestBuilders.get("/series?page=first"))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResolvedException()
			.getMessage()).contains("page must be a whole number");
		// So does the API: its first page says no other follows, its second is empty.
		assertThat(list.get("more").booleanValue()).isFalse();
		JsonNode second = get("/api/series?system=nightly-box-a&page=1");
		assertThat(second.get("page").intValue()).isEqualTo(1);
		assertThat(second.get("series")).isEmpty();
		assertThat(mvc.perform(MockMvcRequestBuilders.get("/api/series?page=-1"))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResolvedException()
			.getMessage()).contains("page must be a whole number");
		assertThat(page("/alerts")).contains(alertId, "Alerts raised");
		assertThat(seriesPage).contains("Alerts raised <strong>1</strong>", "marked false-positive <strong>0</strong>");
		assertThat(page("/runs/" + ids.get(7))).contains("this run in its history",
				"/series/" + seriesId + "#run-" + ids.get(7));
	}

	private String page(String url) throws Exception {
		return mvc.perform(MockMvcRequestBuilders.get(url))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
	}

	@Test
	void runsUploadedOutOfOrderGiveTheSameSeriesAndAlerts() throws Exception {
		List<ObjectNode> inOrder = NightlyRuns.series("nightly-box-b");
		List<ObjectNode> shuffledDocs = NightlyRuns.series("nightly-box-c");
		List<Integer> order = new ArrayList<>();
		for (int i = 0; i < shuffledDocs.size(); i++) {
			order.add(i);
		}
		Collections.shuffle(order, new Random(7));
		Map<String, Integer> nightOf = new HashMap<>();
		List<String> b = upload(inOrder);
		for (int i = 0; i < b.size(); i++) {
			nightOf.put(b.get(i), i);
		}
		for (int night : order) {
			nightOf.put(upload(List.of(shuffledDocs.get(night))).get(0), night);
		}
		assertThat(normalised("nightly-box-c", nightOf)).isEqualTo(normalised("nightly-box-b", nightOf));
	}

	@Test
	void pullRequestRunsGetAVerdictAgainstTheDefaultBranch() throws Exception {
		List<ObjectNode> nights = NightlyRuns.series("nightly-box-v").subList(0, NightlyRuns.FLAG_CHANGE);
		List<String> ids = upload(nights);
		ObjectNode last = nights.get(nights.size() - 1);

		ObjectNode equal = pullRequest(last, "equal", 1.0, "auto");
		String equalId = upload(List.of(equal)).get(0);
		JsonNode pass = get("/api/runs/" + equalId + "/verdict");
		assertThat(pass.get("status").asString()).isEqualTo("pass");
		assertThat(pass.get("baseline").asString()).isEqualTo(ids.get(ids.size() - 1));
		assertThat(pass.get("comparison_url").asString()).startsWith("/compare/" + ids.get(ids.size() - 1) + "...");
		assertThat(pass.get("regressions")).isEmpty();
		assertThat(pass.get("markdown").asString()).startsWith("**Parity verdict: pass**")
			.contains("## Headlines", "decode\\_tps");
		// Its comparison's part is the comparison's own export, byte for byte (made
		// while the series catches up).
		String exported = mvc
			.perform(MockMvcRequestBuilders
				.get("/compare/{pair}/export.md", pass.get("baseline").asString() + "..." + equalId)
				.param("vary", "engine"))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(exported).contains("## Headlines");
		assertThat(pass.get("markdown").asString()).endsWith("\n" + exported);

		String slowerId = upload(List.of(pullRequest(last, "slower", 0.7, "auto"))).get(0);
		JsonNode slower = get("/api/runs/" + slowerId + "/verdict");
		assertThat(slower.get("status").asString()).isEqualTo("regression");
		assertThat(slower.get("regressions").size()).isGreaterThanOrEqualTo(4);
		assertThat(slower.at("/regressions/0/ratio").doubleValue()).isBetween(0.65, 0.75);
		assertThat(slower.at("/regressions/0/params/prompt_tokens").intValue()).isEqualTo(1024);
		assertThat(slower.get("markdown").asString()).startsWith("**Parity verdict: regression**");
		assertThat(get("/api/runs/" + slowerId + "/verdict?baseline=" + ids.get(3)).get("baseline").asString())
			.isEqualTo(ids.get(3));

		// A verdict follows its series' settings at once: with a 50 % alert magnitude, 30
		// %
		// slower is a pass; back at 5 %, a regression again.
		String seriesId = verdicts.baseSeries(slowerId);
		for (String[] magnitude : new String[][] { { "0.5", "pass" }, { "0.05", "regression" } }) {
			mvc.perform(put("/api/series/{id}/settings", seriesId).with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"alert_magnitude\": " + magnitude[0] + "}")).andExpect(status().isOk());
			assertThat(get("/api/runs/" + slowerId + "/verdict").get("status").asString()).as(magnitude[0])
				.isEqualTo(magnitude[1]);
		}

		JsonNode flagged = get(
				"/api/runs/" + upload(List.of(pullRequest(last, "fp8", 1.0, "fp8"))).get(0) + "/verdict");
		assertThat(flagged.get("status").asString()).isEqualTo("not-comparable");
		assertThat(flagged.at("/reasons/0/rule").asString()).isEqualTo("critical-flags-differ");
		assertThat(flagged.get("regressions")).isEmpty();

		// A run none of whose cells matches the baseline's compared nothing: that is no
		// pass.
		ObjectNode elsewhere = pullRequest(last, "elsewhere", 1.0, "auto");
		elsewhere.get("cells")
			.forEach(cell -> ((ObjectNode) cell.get("params")).put("concurrency",
					cell.get("params").get("concurrency").intValue() + 1000));
		JsonNode nothing = get(
				"/api/runs/" + upload(List.of(elsewhere)).get(0) + "/verdict?baseline=" + ids.get(ids.size() - 1));
		assertThat(nothing.get("status").asString()).isEqualTo("not-comparable");
		assertThat(nothing.at("/reasons/0/rule").asString()).isEqualTo("no-comparable-cell");

		JsonNode first = get("/api/runs/" + ids.get(0) + "/verdict");
		assertThat(first.get("status").asString()).isEqualTo("no-baseline");
		assertThat(first.get("baseline").isNull()).isTrue();
		mvc.perform(MockMvcRequestBuilders.get("/api/runs/zzzzzzzzzz/verdict")).andExpect(status().isNotFound());
	}

	/**
	 * A pull-request run: the last night's document on a branch, its decode rates scaled,
	 * kv-cache-dtype as given.
	 */
	private static ObjectNode pullRequest(ObjectNode night, String name, double decodeFactor, String kvCacheDtype) {
		ObjectNode run = night.deepCopy();
		run.put("title", "pull request " + name);
		run.put("recorded_at", "2026-01-12T14:00:00Z");
		run.putObject("context").put("branch", "feature-" + name).put("pull_request", 17);
		((ObjectNode) run.get("engine").get("flags")).put("kv-cache-dtype", kvCacheDtype);
		for (JsonNode cell : run.get("cells")) {
			ObjectNode metrics = (ObjectNode) cell.get("metrics");
			metrics.put("decode_tps", metrics.get("decode_tps").doubleValue() * decodeFactor);
			metrics.put("throughput_tps", metrics.get("throughput_tps").doubleValue() * decodeFactor);
		}
		return run;
	}

	/** The series and its alerts with run ids replaced by night numbers. */
	private String normalised(String system, Map<String, Integer> nightOf) throws Exception {
		String id = get("/api/series?system=" + system).get("series").get(0).get("id").asString();
		JsonNode series = get("/api/series/" + id);
		StringBuilder out = new StringBuilder();
		series.get("segments")
			.forEach(s -> out.append("segment ")
				.append(nightOf.get(s.get("first_run").asString()))
				.append(' ')
				.append(s.get("starts_because"))
				.append('\n'));
		series.get("change_points")
			.forEach(cp -> out.append("change ")
				.append(nightOf.get(cp.get("run").asString()))
				.append(' ')
				.append(cp.get("anchor").asString())
				.append(' ')
				.append(cp.get("metric").asString())
				.append(' ')
				.append(String.format("%.9f", cp.get("pvalue").doubleValue()))
				.append('\n'));
		series.get("events")
			.forEach(e -> out.append("event ")
				.append(nightOf.get(e.get("run").asString()))
				.append(' ')
				.append(e.get("message").asString())
				.append('\n'));
		for (JsonNode alert : get("/api/alerts?series=" + id).get("alerts")) {
			out.append("alert ")
				.append(nightOf.get(alert.get("run").asString()))
				.append(' ')
				.append(alert.get("status").asString())
				.append(' ')
				.append(alert.get("changes").size())
				.append('\n');
		}
		return out.toString();
	}

	private List<String> upload(List<ObjectNode> documents) throws Exception {
		return TestUploads.uploadAll(mvc, documents);
	}

	private JsonNode get(String url) throws Exception {
		return TestUploads.getJson(mvc, url);
	}

}
