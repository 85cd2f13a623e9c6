package dev.parity.site;

import java.nio.charset.StandardCharsets;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.system.SchemaOwner;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.web.util.HtmlUtils;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * Issue 28, item 4: a hypothesis's deciding experiment as a structured plan (the changes
 * of a control plan), checked field by field, stored append-only and shown where
 * hypotheses show; a run declared as its experiment, linked from its status history; the
 * comparison's plan offered to the hypothesis form.
 */
@ParityTest
class HypothesisPlanTests {

	private static final String COMMIT = "4f2a9c1e7b3d5a0f8c6e2d1b9a7f5e3c1d0b8a6f";

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	SchemaOwner owner;

	@Test
	void aHypothesisTakesThePlanOfWhatWouldSettleItAndARunDeclaredAsItsExperimentIsLinked() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, TestUploads.fresh("run-c-effort-high.json"));
		String e = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		String pair = reference + "..." + c;
		JsonNode settle = TestUploads.tree(mvc.perform(get("/api/compare/" + pair + "/control"))
			.andReturn()
			.getResponse()
			.getContentAsByteArray());

		// The comparison page offers its plan to the hypothesis form.
		String page = mvc.perform(get("/compare/" + pair).with(httpBasic(USER, PASSWORD)))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(page).contains("Take the plan of what would settle it")
			.contains("name=\"deciding_plan\"")
			.containsPattern("/js/take-plan(-[0-9a-f]{32})?\\.js");
		String offered = page.substring(page.indexOf("data-plan=\"") + "data-plan=\"".length());
		offered = HtmlUtils.htmlUnescape(offered.substring(0, offered.indexOf('"')));
		assertThat(TestUploads.tree(offered.getBytes(StandardCharsets.UTF_8)).get("changes"))
			.isEqualTo(settle.get("changes"));

		// Taken as it is, through the API.
		MvcResult added = send("/api/caveats",
				"""
						{"target": {"baseline": "%s", "contender": "%s"}, "text": "The +101 %% is the thinking tokens, not the engine",
						 "deciding_plan": %s}"""
					.formatted(reference, c, offered));
		assertThat(added.getResponse().getStatus()).isEqualTo(201);
		JsonNode hypothesis = TestUploads.tree(added.getResponse().getContentAsByteArray());
		String id = hypothesis.get("id").asString();
		assertThat(hypothesis.get("kind").asString()).isEqualTo("hypothesis");
		assertThat(hypothesis.get("status").asString()).isEqualTo("suspected");
		assertThat(hypothesis.get("deciding_plan").get("changes")).isEqualTo(settle.get("changes"));
		assertThat(hypothesis.get("deciding_experiment").asString())
			.startsWith("Make the run again with model.commit → " + COMMIT);
		assertThat(hypothesis.get("experiments")).isEmpty();

		// Listed with the comparison, and shown on its page.
		JsonNode listed = TestUploads
			.tree(mvc.perform(get("/api/compare/" + pair)).andReturn().getResponse().getContentAsByteArray())
			.get("caveats");
		assertThat(listed.get(0).get("deciding_plan")).isEqualTo(hypothesis.get("deciding_plan"));
		String shown = mvc.perform(get("/compare/" + pair)).andReturn().getResponse().getContentAsString();
		assertThat(shown).contains("hypothesis-plan")
			.contains("The plan of the experiment")
			.contains("workload.request_params")
			.contains("check before measuring: output tokens per request 512.0 ±10 %");

		// E declared as its experiment: a status change naming E, the status unchanged.
		MvcResult declared = send("/api/caveats/" + id + "/experiments", "{\"run\": \"" + e + "\"}");
		assertThat(declared.getResponse().getStatus()).isEqualTo(201);
		JsonNode withExperiment = TestUploads.tree(declared.getResponse().getContentAsByteArray());
		assertThat(withExperiment.get("status").asString()).isEqualTo("suspected");
		assertThat(withExperiment.get("experiments").toString()).isEqualTo("[\"" + e + "\"]");
		JsonNode last = withExperiment.get("history").get(1);
		assertThat(last.get("experiment").asString()).isEqualTo(e);
		assertThat(last.get("status").asString()).isEqualTo("suspected");
		assertThat(mvc.perform(get("/compare/" + pair)).andReturn().getResponse().getContentAsString())
			.contains("(experiment: run <a class=\"experiment-run\" href=\"/runs/" + e + "\">" + e + "</a>)");
		// Again: nothing more.
		assertThat(send("/api/caveats/" + id + "/experiments", "{\"run\": \"" + e + "\"}").getResponse().getStatus())
			.isEqualTo(201);
		assertThat(statuses(id)).isEqualTo(2);
		// Unknown run, unknown caveat.
		assertRefused(send("/api/caveats/" + id + "/experiments", "{\"run\": \"zzzzzzzzzz\"}"), 400, "$.run",
				"zzzzzzzzzz");
		assertThat(mvc
			.perform(post("/api/caveats/zzzzzzzzzz/experiments").with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"run\": \"" + e + "\"}"))
			.andReturn()
			.getResponse()
			.getStatus()).isEqualTo(404);
		assertThat(statuses(id)).isEqualTo(2);

		// The form on a run page declares too, and the plan stays append-only in the
		// database.
		mvc.perform(post("/caveats/" + id + "/experiments").with(httpBasic(USER, PASSWORD))
			.with(csrf())
			.param("run", c)
			.param("back", "/compare/" + pair));
		assertThat(statuses(id)).isEqualTo(3);
		JdbcClient asOwner = JdbcClient.create(owner.dataSource());
		assertThatThrownBy(() -> asOwner.sql("update caveat set deciding_plan = null where id = ?").param(id).update())
			.rootCause()
			.hasMessageContaining("append-only");
		assertThatThrownBy(() -> asOwner.sql("update hypothesis_status set experiment = null where caveat_id = ?")
			.param(id)
			.update()).rootCause().hasMessageContaining("append-only");
	}

	@Test
	void aPlanWrittenWrongIsRefusedNamingTheFieldAndNothingIsStored() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, TestUploads.fresh("run-c-effort-high.json"));
		String target = "{\"baseline\": \"%s\", \"contender\": \"%s\"}".formatted(reference, c);
		String good = "{\"rule\": \"checkpoint-differs\", \"field\": \"model.commit\", \"from\": null, \"to\": \""
				+ COMMIT + "\", \"how\": \"pin it\"}";
		long caveats = caveats();

		assertRefused(add(target, "[]"), 400, "$.deciding_plan", "must be an object");
		assertRefused(add(target, "{\"changes\": []}"), 400, "$.deciding_plan.changes", "at least one change");
		assertRefused(add(target, "{\"changes\": [" + good + "], \"rerun\": {}}"), 400, "$.deciding_plan.rerun",
				"not a field of a plan");
		assertRefused(
				add(target,
						"{\"changes\": [" + good + ", {\"rule\": \"checkpoint-differs\", \"to\": 1, \"how\": \"x\"}]}"),
				400, "$.deciding_plan.changes[1].field", "non-empty string");
		assertRefused(add(target, "{\"changes\": [" + good.replace("model.commit", "Model Commit!") + "]}"), 400,
				"$.deciding_plan.changes[0].field", "not a path of the run document");
		assertRefused(add(target, "{\"changes\": [" + good.replace("\"to\"", "\"too\"") + "]}"), 400,
				"$.deciding_plan.changes[0].too", "not a field of a change");
		assertRefused(add(target, "{\"changes\": [" + good.replace(", \"to\": \"" + COMMIT + "\"", "") + "]}"), 400,
				"$.deciding_plan.changes[0].to", "is missing");
		assertRefused(
				add(target,
						"{\"changes\": [" + good.replace("\"checkpoint-differs\"", "\"Checkpoint Differs\"") + "]}"),
				400, "$.deciding_plan.changes[0].rule", "not a rule's id");
		assertRefused(add(target, "{\"changes\": [" + good.replace("\"pin it\"", "\"  \"") + "]}"), 400,
				"$.deciding_plan.changes[0].how", "non-empty string");
		assertRefused(add(target, "{\"changes\": [" + good.replace("}",
				", \"check\": {\"measure\": \"output tokens per request\", \"target\": -1, \"tolerance\": 0.1}}")
				+ "]}"), 400, "$.deciding_plan.changes[0].check.target", "above 0");
		assertRefused(add(target,
				"{\"changes\": [" + good.replace("}",
						", \"check\": {\"measure\": \"output tokens per request\", \"target\": 512, \"tolerance\": 5}}")
						+ "]}"),
				400, "$.deciding_plan.changes[0].check.tolerance", "at most 1");
		assertRefused(add(target, "{\"changes\": [" + good + ", " + good + "]}"), 400,
				"$.deciding_plan.changes[1].field", "changed twice");
		assertRefused(
				add("{\"baseline\": \"zzzzzzzzzz\", \"contender\": \"" + c + "\"}", "{\"changes\": [" + good + "]}"),
				400, "$", "zzzzzzzzzz");
		assertThat(mvc
			.perform(post("/api/caveats").contentType(MediaType.APPLICATION_JSON)
				.content("{\"target\": " + target + ", \"text\": \"x\"}"))
			.andReturn()
			.getResponse()
			.getStatus()).isEqualTo(401);
		// The form: 400, the problem named, what was typed kept.
		MvcResult form = mvc
			.perform(post("/compare/" + reference + "..." + c + "/caveats").with(httpBasic(USER, PASSWORD))
				.with(csrf())
				.param("text", "thinking tokens")
				.param("deciding_plan", "{\"changes\": [{\"rule\": \"x\"}]}"))
			.andReturn();
		assertThat(form.getResponse().getStatus()).isEqualTo(400);
		assertThat(form.getResponse().getContentAsString())
			.contains("deciding_plan.changes[0].field: must be a non-empty string")
			.contains("{&quot;changes&quot;: [{&quot;rule&quot;: &quot;x&quot;}]}");
		assertThat(mvc
			.perform(post("/compare/" + reference + "..." + c + "/caveats").with(httpBasic(USER, PASSWORD))
				.with(csrf())
				.param("text", "thinking tokens")
				.param("deciding_plan", "{not json"))
			.andReturn()
			.getResponse()
			.getContentAsString()).contains("deciding_plan: is not JSON");
		assertThat(caveats()).isEqualTo(caveats);

		// A plain caveat stays a caveat; text and plan together make one hypothesis.
		JsonNode both = TestUploads
			.tree(add(target, "{\"changes\": [" + good + "]}", "rerun pinned").getResponse().getContentAsByteArray());
		assertThat(both.get("deciding_experiment").asString()).isEqualTo("rerun pinned");
		assertThat(both.get("deciding_plan").get("changes").get(0).get("to").asString()).isEqualTo(COMMIT);
		assertThat(both.get("deciding_plan").get("changes").get(0).has("check")).isFalse();
		JsonNode plain = TestUploads
			.tree(send("/api/caveats", "{\"target\": " + target + ", \"text\": \"just a note\"}").getResponse()
				.getContentAsByteArray());
		assertThat(plain.get("kind").asString()).isEqualTo("caveat");
		assertThat(plain.has("deciding_plan")).isFalse();
	}

	private MvcResult add(String target, String plan) throws Exception {
		return add(target, plan, null);
	}

	private MvcResult add(String target, String plan, String experiment) throws Exception {
		return send("/api/caveats", "{\"target\": " + target + ", \"text\": \"thinking tokens\", \"deciding_plan\": "
				+ plan + (experiment == null ? "" : ", \"deciding_experiment\": \"" + experiment + "\"") + "}");
	}

	private MvcResult send(String path, String body) throws Exception {
		return mvc
			.perform(post(path).with(httpBasic(USER, PASSWORD)).contentType(MediaType.APPLICATION_JSON).content(body))
			.andReturn();
	}

	private void assertRefused(MvcResult result, int status, String path, String message) throws Exception {
		assertThat(result.getResponse().getStatus()).as(result.getResponse().getContentAsString()).isEqualTo(status);
		JsonNode error = TestUploads.tree(result.getResponse().getContentAsByteArray()).get("errors").get(0);
		assertThat(error.get("path").asString()).isEqualTo(path);
		assertThat(error.get("message").asString()).contains(message);
	}

	private long caveats() {
		return jdbc.sql("select count(*) from caveat").query(Long.class).single();
	}

	private long statuses(String id) {
		return jdbc.sql("select count(*) from hypothesis_status where caveat_id = ?")
			.param(id)
			.query(Long.class)
			.single();
	}

}
