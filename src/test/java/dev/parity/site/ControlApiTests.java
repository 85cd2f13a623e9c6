package dev.parity.site;

import java.util.List;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.system.SchemaOwner;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * Issue 28: the plan that would settle a comparison, and the control runs declared for
 * it, through the API — the seed story's claim (reference…C, decode +8 % … +101 % greyed)
 * and its control (E).
 */
@ParityTest
class ControlApiTests {

	private static final String COMMIT = "4f2a9c1e7b3d5a0f8c6e2d1b9a7f5e3c1d0b8a6f";

	private static final String OTHER_COMMIT = "d81e07c4a95b3f26e1c0b7a48d3f9e25c6a1b0d7";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	SchemaOwner owner;

	@Test
	void thePlanOfTheSeedStorysClaimPinsTheCommitAndMatchesTheWork() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, TestUploads.fresh("run-c-effort-high.json"));

		MvcResult result = mvc.perform(get("/api/compare/" + reference + "..." + c + "/control")).andReturn();

		assertThat(result.getResponse().getStatus()).isEqualTo(200);
		JsonNode plan = TestUploads.tree(result.getResponse().getContentAsByteArray());
		assertThat(names(plan)).containsExactly("baseline", "contender", "settled", "rerun", "changes", "cannot_settle",
				"cells", "commands", "controls");
		assertThat(plan.get("baseline").asString()).isEqualTo(reference);
		assertThat(plan.get("settled").asBoolean()).isFalse();
		assertThat(plan.get("rerun").toString()).isEqualTo("{\"side\":\"contender\",\"run\":\"" + c + "\"}");
		JsonNode commit = plan.get("changes").get(0);
		assertThat(commit.get("rule").asString()).isEqualTo("checkpoint-differs");
		assertThat(commit.get("field").asString()).isEqualTo("model.commit");
		assertThat(commit.get("from").asString()).isEqualTo(OTHER_COMMIT);
		assertThat(commit.get("to").asString()).isEqualTo(COMMIT);
		assertThat(commit.has("check")).isFalse();
		JsonNode params = plan.get("changes").get(1);
		assertThat(params.get("rule").asString()).isEqualTo("output-length-differs");
		assertThat(params.get("field").asString()).isEqualTo("workload.request_params");
		assertThat(params.get("from").toString()).isEqualTo("{\"reasoning_effort\":\"high\"}");
		assertThat(params.get("to").toString()).isEqualTo("{\"chat_template_kwargs\":{\"thinking\":false}}");
		assertThat(params.get("check").toString())
			.isEqualTo("{\"measure\":\"output tokens per request\",\"target\":512.0,\"tolerance\":0.1}");
		assertThat(plan.get("changes")).hasSize(2);
		assertThat(plan.get("cannot_settle").findValuesAsString("rule")).containsExactly("implausible-ratio",
				"failures");
		assertThat(plan.get("cells")).hasSize(18);
		assertThat(plan.get("commands").get("serve").asString()).contains("vllm serve example-org/moe-284b")
			.contains("--revision " + COMMIT)
			.doesNotContain(OTHER_COMMIT);
		assertThat(plan.get("commands").get("bench").asString()).contains("chat_template_kwargs")
			.doesNotContain("reasoning_effort");
		assertThat(plan.get("controls")).isEmpty();
	}

	@Test
	void aControlDeclaredThroughTheApiIsCheckedAgainstThePlanAndShownBesideTheClaim() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, TestUploads.fresh("run-c-effort-high.json"));
		String e = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));

		MvcResult declared = declare("{\"control\": \"%s\", \"of\": \"%s...%s\"}".formatted(e, reference, c));

		assertThat(declared.getResponse().getStatus()).isEqualTo(201);
		JsonNode body = TestUploads.tree(declared.getResponse().getContentAsByteArray());
		assertThat(body.get("control").asString()).isEqualTo(e);
		assertThat(body.get("of").asString()).isEqualTo(reference + "..." + c);
		assertThat(body.get("declared_in").asString()).isEqualTo("api");
		JsonNode plan = plan(reference, c);
		assertThat(plan.get("controls")).singleElement().satisfies(control -> {
			assertThat(names(control)).containsExactly("run", "title", "holds", "missed", "comparison", "headlines",
					"before");
			assertThat(control.get("run").asString()).isEqualTo(e);
			assertThat(control.get("title").asString())
				.startsWith("Control run: pinned checkpoint, thinking off, warmed");
			assertThat(control.get("holds").toString()).isEqualTo("[\"model.commit\",\"workload.request_params\"]");
			assertThat(control.get("missed")).isEmpty();
			assertThat(control.get("comparison").asString()).isEqualTo(reference + "..." + e);
			JsonNode headlines = TestUploads
				.tree(mvc.perform(get("/api/compare/" + reference + "..." + e))
					.andReturn()
					.getResponse()
					.getContentAsByteArray())
				.get("headlines");
			assertThat(control.get("headlines")).isEqualTo(headlines);
			JsonNode decode = control.get("before")
				.valueStream()
				.filter(before -> before.get("metric").asString().equals("decode_tps"))
				.findFirst()
				.orElseThrow();
			assertThat(decode.get("cells").asInt()).isEqualTo(18);
			assertThat(decode.get("median_ratio").asDouble()).isGreaterThan(1.1);
		});
		// The claim stays as it was: the control greys and un-greys nothing of it.
		JsonNode claim = TestUploads.tree(mvc.perform(get("/api/compare/" + reference + "..." + c))
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
		assertThat(claim.get("headlines").get(0).get("comparable").asInt()).isZero();

		// Declarations are append-only, in the database.
		JdbcClient asOwner = JdbcClient.create(owner.dataSource());
		assertThatThrownBy(() -> asOwner.sql("delete from control_link where control_id = ?").param(e).update())
			.rootCause()
			.hasMessageContaining("append-only");
		assertThatThrownBy(() -> asOwner.sql("update control_link set declared_by = 'someone' where control_id = ?")
			.param(e)
			.update()).rootCause().hasMessageContaining("append-only");

		// Declaring it again changes nothing.
		long links = links();
		assertThat(declare("{\"control\": \"%s\", \"of\": \"%s...%s\"}".formatted(e, reference, c)).getResponse()
			.getStatus()).isEqualTo(201);
		assertThat(links()).isEqualTo(links);
	}

	@Test
	void aControlDeclaredInItsRunDocumentIsListedAndOneNamingAnUnknownRunIsRefused() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, TestUploads.fresh("run-c-effort-high.json"));
		ObjectNode e = (ObjectNode) TestUploads.tree(TestUploads.fresh("run-e-control.json"));
		e.putObject("context").put("control_of", reference + "..." + c);
		String control = TestUploads.upload(mvc, JSON.writeValueAsBytes(e));

		JsonNode plan = plan(reference, c);
		assertThat(plan.get("controls").findValuesAsString("run")).containsExactly(control);
		assertThat(plan.get("controls").get(0).get("missed")).isEmpty();

		TestUploads.RowCounts before = TestUploads.rows(jdbc);
		long links = links();
		ObjectNode unknown = (ObjectNode) TestUploads.tree(TestUploads.fresh("run-e-control.json"));
		unknown.putObject("context").put("control_of", reference + "...zzzzzzzzzz");
		MvcResult refused = mvc
			.perform(post("/api/runs").with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content(JSON.writeValueAsBytes(unknown)))
			.andReturn();
		assertThat(refused.getResponse().getStatus()).isEqualTo(400);
		assertThat(refused.getResponse().getContentAsString()).contains("$.context.control_of").contains("zzzzzzzzzz");
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
		assertThat(links()).isEqualTo(links);
	}

	@Test
	void aDeclarationWrittenWrongOrNamingAnUnknownRunIsRefusedAndStoresNothing() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, "run-c-effort-high.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		long links = links();

		MvcResult anonymous = mvc
			.perform(post("/api/controls").contentType(MediaType.APPLICATION_JSON)
				.content("{\"control\": \"%s\", \"of\": \"%s...%s\"}".formatted(e, reference, c)))
			.andReturn();
		assertThat(anonymous.getResponse().getStatus()).isEqualTo(401);

		assertRefused(declare("{\"control\": \"zzzzzzzzzz\", \"of\": \"%s...%s\"}".formatted(reference, c)), 404,
				"$.control", "zzzzzzzzzz");
		assertRefused(declare("{\"control\": \"%s\", \"of\": \"%s...yyyyyyyyyy\"}".formatted(e, reference)), 404,
				"$.of", "yyyyyyyyyy");
		assertRefused(declare("{\"control\": \"%s\", \"of\": \"%s\"}".formatted(e, c)), 400, "$.of",
				"<baseline>...<contender>");
		assertRefused(declare("{\"control\": \"%s\", \"of\": \"%s...%s+%s\"}".formatted(e, reference, c, c)), 400,
				"$.of", "two single runs");
		assertRefused(declare("{\"control\": \"%s\", \"of\": \"%s...%s\"}".formatted(c, reference, c)), 400,
				"$.control", "a control is another run");
		assertRefused(declare("{\"of\": \"%s...%s\"}".formatted(reference, c)), 400, "$.control",
				"name the control run");
		assertRefused(declare("{\"control\": \"%s\"}".formatted(e)), 400, "$.of", "name the comparison");
		assertThat(declare("{\"control\": ").getResponse().getStatus()).isEqualTo(400);
		assertThat(links()).isEqualTo(links);

		MvcResult groups = mvc.perform(get("/api/compare/" + reference + "..." + c + "+" + e + "/control")).andReturn();
		assertThat(groups.getResponse().getStatus()).isEqualTo(400);
		assertThat(mvc.perform(get("/api/compare/" + reference + "...xxxxxxxxxx/control"))
			.andReturn()
			.getResponse()
			.getStatus()).isEqualTo(404);
	}

	@Test
	void theComparisonPageAndItsPublicationShowTheControlBesideTheClaimAtOnce() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, TestUploads.fresh("run-c-effort-high.json"));
		String e = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		String path = "/compare/" + reference + "..." + c;
		MvcResult published = mvc.perform(post("/api/published").with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content(
					"{\"baseline\": \"%s\", \"contender\": \"%s\", \"title\": \"Spark decode +101 %%\", \"confirm_no_comparable\": true}"
						.formatted(reference, c)))
			.andReturn();
		assertThat(published.getResponse().getStatus()).isEqualTo(201);
		String publication = published.getResponse().getHeader("Location");

		// Kept as everybody sees them, before the control.
		String before = mvc.perform(get(path)).andReturn().getResponse().getContentAsString();
		assertThat(before).contains("What would settle it")
			.contains("Rerun the contender (" + c + ") with 2 changes: 18 cells would become comparable")
			.contains("--revision " + COMMIT)
			.doesNotContain("Tested by control run");
		MvcResult publishedBefore = mvc.perform(get(publication)).andReturn();
		String tag = publishedBefore.getResponse().getHeader("ETag");
		assertThat(publishedBefore.getResponse().getContentAsString()).doesNotContain("control-banner");

		declare("{\"control\": \"%s\", \"of\": \"%s...%s\"}".formatted(e, reference, c));

		String after = mvc.perform(get(path)).andReturn().getResponse().getContentAsString();
		assertThat(after).contains("Tested by control run")
			.contains("/runs/" + e)
			.contains("decode_tps median ratio")
			.contains("18 of 18 comparable within ±10 %, median 1.011");
		MvcResult publishedAfter = mvc.perform(get(publication)).andReturn();
		assertThat(publishedAfter.getResponse().getHeader("ETag")).isNotEqualTo(tag);
		assertThat(publishedAfter.getResponse().getContentAsString())
			.contains("A control run contradicts this publication")
			.contains("18 of 18 comparable within ±10 %, median 1.011")
			.doesNotContain("supersede-form");
		String asAdmin = mvc.perform(get(publication).with(httpBasic(USER, PASSWORD)))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(asAdmin).contains("supersede-form").contains("Control run “");
		// A control never makes a publication read "the numbers changed".
		assertThat(publishedAfter.getResponse().getContentAsString()).doesNotContain("id=\"live-banner\"");
	}

	private void assertRefused(MvcResult result, int status, String path, String message) throws Exception {
		assertThat(result.getResponse().getStatus()).isEqualTo(status);
		JsonNode error = TestUploads.tree(result.getResponse().getContentAsByteArray()).get("errors").get(0);
		assertThat(error.get("path").asString()).isEqualTo(path);
		assertThat(error.get("message").asString()).contains(message);
	}

	private MvcResult declare(String body) throws Exception {
		return mvc
			.perform(post("/api/controls").with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content(body))
			.andReturn();
	}

	private JsonNode plan(String baseline, String contender) throws Exception {
		MvcResult result = mvc.perform(get("/api/compare/" + baseline + "..." + contender + "/control")).andReturn();
		assertThat(result.getResponse().getStatus()).isEqualTo(200);
		return TestUploads.tree(result.getResponse().getContentAsByteArray());
	}

	private long links() {
		return jdbc.sql("select count(*) from control_link").query(Long.class).single();
	}

	private static List<String> names(JsonNode node) {
		return List.copyOf(node.propertyNames());
	}

}
