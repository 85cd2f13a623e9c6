package dev.parity.history;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.system.SchemaOwner;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Confirmation reruns of an alert on a nightly series with a real regression at night 30
 * (decode −20 %, TTFT +20 %): the plan (the alert's build and night 29's, enough reruns
 * from the noise, the commands, the commit range), reruns linked in their documents and
 * through the API that never become points of the series, the confirmation reproduced (an
 * {@code alert.confirmed} delivery, counted by alert quality) and not reproduced (a
 * suggestion of false-positive, never set), and every bad input refused with nothing
 * stored.
 */
@ParityTest
class AlertConfirmationTests {

	private static final String REPOSITORY = "https://github.com/example-org/engine";

	private static final int GOOD = NightlyRuns.REGRESSION - 1;

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	SchemaOwner owner;

	@Test
	void thePlanRerunsTheAlertsBuildAndTheLastGoodOneWithTheCommitRange() throws Exception {
		Series series = series("confirm-box-plan");
		JsonNode plan = json("/api/alerts/" + series.alert + "/control");
		assertThat(plan.get("alert").asString()).isEqualTo(series.alert);
		JsonNode reruns = plan.get("reruns");
		assertThat(reruns).hasSize(2);
		assertThat(reruns.at("/0/run").asString()).isEqualTo(series.ids.get(NightlyRuns.REGRESSION));
		assertThat(reruns.at("/0/engine_commit").asString()).isEqualTo(NightlyRuns.commit(NightlyRuns.REGRESSION));
		assertThat(reruns.at("/1/run").asString()).as("the last clean run before the alert's")
			.isEqualTo(series.ids.get(GOOD));
		assertThat(reruns.at("/1/engine_commit").asString()).isEqualTo(NightlyRuns.commit(GOOD));
		int times = reruns.at("/0/times").intValue();
		assertThat(times).isGreaterThanOrEqualTo(3);
		assertThat(reruns.at("/1/times").intValue()).isEqualTo(times);
		assertThat(reruns.at("/0/commands/serve").asString()).contains("vllm serve", "org/model-7b");
		assertThat(reruns.at("/0/commands/serve").asString()).contains(NightlyRuns.commit(NightlyRuns.REGRESSION));
		assertThat(reruns.at("/1/commands/serve").asString()).contains(NightlyRuns.commit(GOOD));

		// times: enough for the interval to be narrower than half the alert's magnitude,
		// and no more
		JsonNode sizing = plan.get("sizing");
		double spread = sizing.get("spread").doubleValue();
		double magnitude = sizing.get("magnitude").doubleValue();
		assertThat(spread).isPositive().isLessThan(0.05);
		assertThat(magnitude).isBetween(0.15, 0.25);
		assertThat(times).isEqualTo(AlertControls.times(spread, magnitude));
		assertThat(AlertControls.width(spread, times)).isLessThan(magnitude / 2);
		if (times > 3) {
			assertThat(AlertControls.width(spread, times - 1)).isGreaterThanOrEqualTo(magnitude / 2);
		}
		assertThat(AlertControls.times(0.05, 0.12)).as("5 % noise, a 12 % shift")
			.isGreaterThan(AlertControls.times(0.015, 0.12));

		JsonNode range = plan.get("range");
		assertThat(range.at("/good/run").asString()).isEqualTo(series.ids.get(GOOD));
		assertThat(range.at("/good/engine_commit").asString()).isEqualTo(NightlyRuns.commit(GOOD));
		assertThat(range.at("/bad/run").asString()).isEqualTo(series.ids.get(NightlyRuns.REGRESSION));
		assertThat(range.at("/bad/engine_commit").asString()).isEqualTo(NightlyRuns.commit(NightlyRuns.REGRESSION));
		assertThat(range.get("runs_between")).isEmpty();
		assertThat(range.get("compare_url").asString()).isEqualTo(REPOSITORY + "/compare/" + NightlyRuns.commit(GOOD)
				+ "..." + NightlyRuns.commit(NightlyRuns.REGRESSION));
		assertThat(AlertControls.compareUrl(null, "a", "b")).isNull();
		assertThat(AlertControls.compareUrl("https://gitlab.com/x/y.git/", "a", "b"))
			.isEqualTo("https://gitlab.com/x/y/compare/a...b");
		assertThat(plan.get("confirmations")).isEmpty();
		assertThat(plan.has("confirmation")).isFalse();

		mvc.perform(get("/api/alerts/nosuchalert/control")).andExpect(status().isNotFound());
		assertThat(page("/series/" + series.id)).contains("alert-confirmation", "Not confirmed by reruns yet",
				"/api/alerts/" + series.alert + "/control");
	}

	@Test
	void rerunsThatReproduceTheRegressionConfirmItAndAreNoPointsOfTheSeries() throws Exception {
		String hook = register();
		Series series = series("confirm-box-yes");
		String raised = jdbc.sql(
				"select payload from webhook_delivery where alert_id = ? and webhook_id = ? and event = 'alert.raised'")
			.params(series.alert, Long.parseLong(hook))
			.query(String.class)
			.single();
		JsonNode raisedBody = TestUploads.tree(raised.getBytes(StandardCharsets.UTF_8));
		assertThat(raisedBody.at("/plan/alert").asString()).as("the payload carries the confirmation plan")
			.isEqualTo(series.alert);
		assertThat(raisedBody.at("/plan/reruns/1/engine_commit").asString()).isEqualTo(NightlyRuns.commit(GOOD));
		assertThat(raisedBody.at("/plan/range/compare_url").asString()).startsWith(REPOSITORY + "/compare/");
		assertThat(raisedBody.at("/plan/reruns/0/commands/serve").asString()).contains("vllm serve");
		JsonNode before = json("/api/series/" + series.id);
		JsonNode pointsBefore = json(points(series.id));

		// two reruns of the alert's build and three of the good one, linked in their
		// documents
		List<String> reruns = new ArrayList<>();
		for (int k = 1; k <= 2; k++) {
			reruns.add(upload(rerun(series.nights, NightlyRuns.REGRESSION, NightlyRuns.REGRESSION, k, series.alert)));
		}
		for (int k = 1; k <= 3; k++) {
			reruns.add(upload(rerun(series.nights, GOOD, GOOD, k, series.alert)));
		}
		JsonNode alert = alert(series);
		assertThat(alert.has("confirmation")).as("fewer than 3 reruns of the alert's build: nothing yet").isFalse();
		JsonNode plan = json("/api/alerts/" + series.alert + "/control");
		assertThat(plan.get("confirmations")).hasSize(5);
		assertThat(plan.at("/confirmations/0/build").asString()).isEqualTo("alert");
		assertThat(plan.at("/confirmations/0/linked_in").asString()).isEqualTo("document");
		assertThat(plan.at("/confirmations/4/build").asString()).isEqualTo("good");

		// the third rerun of the alert's build: uploaded first, linked afterwards through
		// the API
		String third = upload(rerun(series.nights, NightlyRuns.REGRESSION, NightlyRuns.REGRESSION, 3, null));
		JsonNode linked = TestUploads.tree(mvc
			.perform(post("/api/alerts/{id}/confirmations", series.alert).with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"run\": \"" + third + "\"}"))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
		assertThat(linked.get("build").asString()).isEqualTo("alert");
		assertThat(linked.get("engine_commit").asString()).isEqualTo(NightlyRuns.commit(NightlyRuns.REGRESSION));
		assertThat(linked.get("linked_in").asString()).isEqualTo("api");
		assertThat(linked.get("control").asString()).isEqualTo("/api/alerts/" + series.alert + "/control");
		mvc.perform(post("/api/alerts/{id}/confirmations", series.alert).with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content("{\"run\": \"" + third + "\"}")).andExpect(status().isCreated());
		assertThat(count("select count(*) from alert_confirmation where alert_id = ?", series.alert))
			.as("linking again changes nothing")
			.isEqualTo(6);

		alert = alert(series);
		JsonNode confirmation = alert.get("confirmation");
		assertThat(confirmation.get("reruns").intValue()).isEqualTo(6);
		assertThat(confirmation.get("reproduced").booleanValue()).isTrue();
		double ratio = confirmation.get("ratio").doubleValue();
		double low = confirmation.at("/interval/low").doubleValue();
		double high = confirmation.at("/interval/high").doubleValue();
		assertThat(low).isLessThanOrEqualTo(ratio);
		assertThat(high).isGreaterThanOrEqualTo(ratio);
		assertThat(high < 1 || low > 1).as("the interval lies on one side of 1").isTrue();
		assertThat(Math.abs(ratio - 1)).isBetween(0.15, 0.3);
		assertThat(confirmation.has("suggested_status") && !confirmation.get("suggested_status").isNull()).isFalse();
		assertThat(alert.get("status").asString()).isEqualTo("open");
		assertThat(json("/api/series/" + series.id).at("/alert_quality/confirmed").intValue()).isEqualTo(1);
		assertThat(json("/api/series/" + series.id).at("/alert_quality/share_confirmed").doubleValue()).isEqualTo(1.0);

		String confirmed = jdbc.sql(
				"select payload from webhook_delivery where alert_id = ? and webhook_id = ? and event = 'alert.confirmed'")
			.params(series.alert, Long.parseLong(hook))
			.query(String.class)
			.single();
		JsonNode body = TestUploads.tree(confirmed.getBytes(StandardCharsets.UTF_8));
		assertThat(body.get("event").asString()).isEqualTo("alert.confirmed");
		assertThat(body.at("/alert/confirmation/reproduced").booleanValue()).isTrue();
		assertThat(body.at("/plan/confirmations")).hasSize(6);
		assertThat(body.get("text").asString()).contains("confirmed by 6 reruns");

		// the reruns are no points of the series: its runs, points, change points and
		// segments are as before
		JsonNode after = json("/api/series/" + series.id);
		assertThat(after.get("runs")).isEqualTo(before.get("runs"));
		assertThat(after.get("change_points")).isEqualTo(before.get("change_points"));
		assertThat(after.get("segments")).isEqualTo(before.get("segments"));
		assertThat(json(points(series.id))).isEqualTo(pointsBefore);
		assertThat(after.get("runs").toString()).doesNotContain(reruns.get(0), reruns.get(4), third);

		assertThat(page("/series/" + series.id)).contains("Confirmed by reruns", "reproduced by", "6</span> reruns");
		assertThat(page("/alerts")).contains("Confirmed by reruns");
	}

	@Test
	void rerunsThatDoNotReproduceItSuggestFalsePositiveAndSetNothing() throws Exception {
		String hook = register();
		Series series = series("confirm-box-no");
		for (int k = 1; k <= 3; k++) {
			// the alert's build, measured again at the level before the regression
			upload(rerun(series.nights, GOOD, NightlyRuns.REGRESSION, k, series.alert));
			upload(rerun(series.nights, GOOD, GOOD, k, series.alert));
		}
		JsonNode alert = alert(series);
		JsonNode confirmation = alert.get("confirmation");
		assertThat(confirmation.get("reruns").intValue()).isEqualTo(6);
		assertThat(confirmation.get("reproduced").booleanValue()).isFalse();
		assertThat(confirmation.get("suggested_status").asString()).isEqualTo("false-positive");
		assertThat(confirmation.get("cells_reproduced").intValue()).isZero();
		assertThat(alert.get("status").asString()).as("suggested, never set").isEqualTo("open");
		assertThat(alert.get("history")).hasSize(1);
		assertThat(count("select count(*) from webhook_delivery where alert_id = ? and event = 'alert.confirmed'",
				series.alert))
			.isZero();
		assertThat(count(
				"select count(*) from webhook_delivery where alert_id = ? and webhook_id = " + Long.parseLong(hook),
				series.alert))
			.isEqualTo(1);
		assertThat(json("/api/series/" + series.id).at("/alert_quality/confirmed").intValue()).isZero();
		assertThat(page("/series/" + series.id)).contains("Not reproduced", "false-positive");
	}

	@Test
	void badLinksAreRefusedNamingTheProblemAndStoreNothing() throws Exception {
		Series series = series("confirm-box-bad");
		String url = "/api/alerts/" + series.alert + "/confirmations";
		String inSeries = series.ids.get(10);
		long links = count("select count(*) from alert_confirmation");

		mvc.perform(post(url).contentType(MediaType.APPLICATION_JSON).content("{\"run\": \"" + inSeries + "\"}"))
			.andExpect(status().isUnauthorized());
		assertThat(problem(post("/api/alerts/nosuchalert/confirmations"), "{\"run\": \"" + inSeries + "\"}", 404))
			.contains("nosuchalert");
		assertThat(problem(post(url), "{\"run\": \"nosuchrun0\"}", 400)).contains("$.run", "nosuchrun0");
		assertThat(problem(post(url), "{}", 400)).contains("$.run");
		assertThat(problem(post(url), "{\"run\": \"" + inSeries + "\"}", 400)).as("night 10's build is neither")
			.contains("$.run", NightlyRuns.commit(10), "neither");
		String elsewhere = TestUploads.upload(mvc, TestUploads.fresh("run-c-effort-high.json"));
		assertThat(problem(post(url), "{\"run\": \"" + elsewhere + "\"}", 400)).contains("$.run",
				"not of the alert's series");
		mvc.perform(
				post(url).with(httpBasic(USER, PASSWORD)).contentType(MediaType.APPLICATION_JSON).content("{\"run\": "))
			.andExpect(status().isBadRequest());

		long runs = count("select count(*) from run");
		MvcResult unknown = send(
				rerun(series.nights, NightlyRuns.REGRESSION, NightlyRuns.REGRESSION, 1, "nosuchalert"));
		assertThat(unknown.getResponse().getStatus()).isEqualTo(400);
		assertThat(unknown.getResponse().getContentAsString()).contains("$.context.confirms", "nosuchalert");
		MvcResult neither = send(rerun(series.nights, 10, 10, 1, series.alert));
		assertThat(neither.getResponse().getStatus()).isEqualTo(400);
		assertThat(neither.getResponse().getContentAsString()).contains("$.context.confirms", "neither");
		ObjectNode withoutCommit = rerun(series.nights, NightlyRuns.REGRESSION, NightlyRuns.REGRESSION, 2,
				series.alert);
		((ObjectNode) withoutCommit.get("engine")).remove("commit");
		MvcResult noCommit = send(withoutCommit);
		assertThat(noCommit.getResponse().getStatus()).isEqualTo(400);
		assertThat(noCommit.getResponse().getContentAsString()).contains("$.context.confirms", "engine.commit");
		ObjectNode badRepository = rerun(series.nights, NightlyRuns.REGRESSION, NightlyRuns.REGRESSION, 3, null);
		((ObjectNode) badRepository.get("engine")).put("repository", "javascript:alert(1)");
		MvcResult repository = send(badRepository);
		assertThat(repository.getResponse().getStatus()).isEqualTo(400);
		assertThat(repository.getResponse().getContentAsString()).contains("$.engine.repository");
		assertThat(count("select count(*) from run")).as("nothing stored").isEqualTo(runs);
		assertThat(count("select count(*) from alert_confirmation")).as("nothing linked").isEqualTo(links);
		assertThat(json("/api/series/" + series.id).get("runs")).hasSize(NightlyRuns.NIGHTS);

		// links are append-only, in the database
		String rerun = upload(rerun(series.nights, GOOD, GOOD, 1, series.alert));
		assertThat(count("select count(*) from alert_confirmation where run_id = ?", rerun)).isEqualTo(1);
		JdbcClient asOwner = JdbcClient.create(owner.dataSource());
		assertThatThrownBy(() -> jdbc.sql("delete from alert_confirmation where run_id = ?").param(rerun).update())
			.as("the application's role may not")
			.rootCause()
			.hasMessageContaining("permission denied");
		assertThatThrownBy(() -> asOwner.sql("update alert_confirmation set build = 'alert' where run_id = ?")
			.param(rerun)
			.update()).rootCause().hasMessageContaining("append-only");
		assertThatThrownBy(() -> asOwner.sql("delete from alert_confirmation where run_id = ?").param(rerun).update())
			.rootCause()
			.hasMessageContaining("append-only");
		assertThat(problem(post(url), "{\"run\": \"" + rerun + "\"}", 201)).contains("\"build\":\"good\"");
		String otherAlert = series("confirm-box-bad2").alert;
		assertThat(problem(post("/api/alerts/" + otherAlert + "/confirmations"), "{\"run\": \"" + rerun + "\"}", 400))
			.contains("already confirms alert " + series.alert);
	}

	private record Series(String id, String alert, List<String> ids, List<ObjectNode> nights) {
	}

	/**
	 * The nightly series on this system, with the engine repository recorded, and its one
	 * alert.
	 */
	private Series series(String system) throws Exception {
		List<ObjectNode> nights = NightlyRuns.series(system);
		List<String> ids = new ArrayList<>();
		for (ObjectNode night : nights) {
			((ObjectNode) night.get("engine")).put("repository", REPOSITORY);
			ids.add(upload(night));
		}
		String id = json("/api/series?system=" + system).at("/series/0/id").asString();
		JsonNode alerts = json("/api/alerts?series=" + id);
		assertThat(alerts.get("total").intValue()).isEqualTo(1);
		assertThat(alerts.at("/alerts/0/run").asString()).isEqualTo(ids.get(NightlyRuns.REGRESSION));
		return new Series(id, alerts.at("/alerts/0/id").asString(), ids, nights);
	}

	/**
	 * A rerun of night {@code build}'s build (its engine version and commit) measuring
	 * night {@code values}'s numbers, shifted by a few tenths of a percent, recorded
	 * after the series.
	 */
	private static ObjectNode rerun(List<ObjectNode> nights, int values, int build, int k, @Nullable String confirms) {
		ObjectNode doc = nights.get(values).deepCopy();
		doc.put("title", "rerun " + k + " of night " + build + " (" + values + "'s numbers) " + confirms);
		doc.put("recorded_at", LocalDate.of(2026, 3, 1).atTime(k, values % 60).toInstant(ZoneOffset.UTC).toString());
		ObjectNode engine = (ObjectNode) doc.get("engine");
		engine.put("version", "0.11." + build).put("commit", NightlyRuns.commit(build));
		double factor = 1 + 0.003 * (k - 2);
		for (JsonNode cell : doc.get("cells")) {
			ObjectNode metrics = (ObjectNode) cell.get("metrics");
			for (String name : List.of("decode_tps", "ttft_s", "throughput_tps")) {
				metrics.put(name, Math.round(metrics.get(name).doubleValue() * factor * 10000) / 10000.0);
			}
		}
		if (confirms != null) {
			doc.putObject("context").put("confirms", confirms);
		}
		return doc;
	}

	private String register() throws Exception {
		JsonNode registered = TestUploads.tree(mvc
			.perform(post("/api/admin/webhooks").with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"url\": \"http://127.0.0.1:9/confirmations\", \"kind\": \"generic\"}"))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
		return registered.get("id").asString();
	}

	private JsonNode alert(Series series) throws Exception {
		for (JsonNode alert : json("/api/alerts?series=" + series.id).get("alerts")) {
			if (alert.get("id").asString().equals(series.alert)) {
				return alert;
			}
		}
		throw new AssertionError("no alert " + series.alert);
	}

	private static String points(String seriesId) {
		return "/api/series/" + seriesId + "/points?metric=decode_tps&anchor=cell-concurrency-8--prompt_tokens-4096";
	}

	private String problem(MockHttpServletRequestBuilder request, String body, int expected) throws Exception {
		MvcResult result = mvc
			.perform(request.with(httpBasic(USER, PASSWORD)).contentType(MediaType.APPLICATION_JSON).content(body))
			.andReturn();
		assertThat(result.getResponse().getStatus()).as(result.getResponse().getContentAsString()).isEqualTo(expected);
		return result.getResponse().getContentAsString();
	}

	private MvcResult send(ObjectNode document) throws Exception {
		return mvc
			.perform(post("/api/runs").with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content(document.toString().getBytes(StandardCharsets.UTF_8)))
			.andReturn();
	}

	private String upload(ObjectNode document) throws Exception {
		return TestUploads.upload(mvc, document.toString().getBytes(StandardCharsets.UTF_8));
	}

	private long count(String sql, Object... params) {
		return jdbc.sql(sql).params(params).query(Long.class).single();
	}

	private JsonNode json(String url) throws Exception {
		return TestUploads
			.tree(mvc.perform(get(url)).andExpect(status().isOk()).andReturn().getResponse().getContentAsByteArray());
	}

	private String page(String url) throws Exception {
		return mvc.perform(get(url)).andExpect(status().isOk()).andReturn().getResponse().getContentAsString();
	}

}
