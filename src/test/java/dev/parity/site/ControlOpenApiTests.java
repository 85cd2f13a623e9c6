package dev.parity.site;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * Issue 28: the OpenAPI document ({@code /api/openapi}) describes the control plan, the
 * declaration of a control and a hypothesis's plan as schemas with their properties —
 * never an object without properties.
 */
@ParityTest
class ControlOpenApiTests {

	@Autowired
	MockMvc mvc;

	@Test
	void thePlanTheDeclarationAndTheHypothesisPlanAreSchemasWithProperties() throws Exception {
		JsonNode doc = TestUploads
			.tree(mvc.perform(get("/api/openapi")).andReturn().getResponse().getContentAsByteArray());
		JsonNode paths = doc.get("paths");

		JsonNode plan = response(paths.get("/api/compare/{pair}/control").get("get"), "200");
		JsonNode declare = paths.get("/api/controls").get("post");
		JsonNode caveat = paths.get("/api/caveats").get("post");
		JsonNode experiment = paths.get("/api/caveats/{id}/experiments").get("post");
		assertThat(plan.get("$ref").asString()).isEqualTo("#/components/schemas/PlanView");
		assertThat(request(declare).get("$ref").asString()).isEqualTo("#/components/schemas/Declaration");
		assertThat(response(declare, "201").get("$ref").asString()).isEqualTo("#/components/schemas/DeclaredView");
		assertThat(request(caveat).get("$ref").asString()).isEqualTo("#/components/schemas/CaveatBody");
		assertThat(response(caveat, "201").get("$ref").asString()).isEqualTo("#/components/schemas/Caveat");
		assertThat(request(experiment).get("$ref").asString()).isEqualTo("#/components/schemas/ExperimentBody");

		JsonNode schemas = doc.get("components").get("schemas");
		assertThat(names(schemas.get("PlanView"))).containsExactly("baseline", "contender", "settled", "rerun",
				"changes", "cannot_settle", "cells", "commands", "controls");
		assertThat(names(schemas.get("ControlChange"))).containsExactly("rule", "field", "from", "to", "how", "check");
		assertThat(names(schemas.get("ControlCheck"))).containsExactly("measure", "target", "tolerance");
		assertThat(names(schemas.get("ControlView"))).containsExactly("run", "title", "holds", "missed", "comparison",
				"headlines", "before");
		assertThat(schemas.get("ControlView").get("properties").get("headlines").get("items").get("$ref").asString())
			.isEqualTo("#/components/schemas/Headline");
		assertThat(names(schemas.get("Headline"))).contains("metric", "comparable", "within_band", "median_ratio");
		assertThat(names(schemas.get("Declaration"))).containsExactly("control", "of");
		assertThat(names(schemas.get("CaveatBody"))).containsExactly("target", "text", "deciding_experiment",
				"deciding_plan");
		assertThat(schemas.get("DecidingPlanBody").get("properties").get("changes").get("items").get("$ref").asString())
			.isEqualTo("#/components/schemas/ControlChange");
		assertThat(names(schemas.get("Caveat"))).contains("deciding_plan", "experiments", "history");
		assertThat(names(schemas.get("HypothesisStatusChange"))).contains("experiment", "decided_by");

		// Every schema these reach has its properties: none is an object without them.
		Deque<String> todo = new ArrayDeque<>(
				List.of("PlanView", "Declaration", "DeclaredView", "CaveatBody", "Caveat", "ExperimentBody"));
		Set<String> seen = new HashSet<>();
		while (!todo.isEmpty()) {
			String name = todo.pop();
			if (!seen.add(name)) {
				continue;
			}
			JsonNode schema = schemas.get(name);
			assertThat(schema).as(name).isNotNull();
			assertThat(schema.get("properties")).as(name + " has properties").isNotNull();
			assertThat(schema.get("properties").isEmpty()).as(name + " has properties").isFalse();
			schema.findValues("$ref")
				.forEach(ref -> todo.push(ref.asString().substring("#/components/schemas/".length())));
		}
		assertThat(seen)
			.contains("ControlChange", "ControlCheck", "ControlView", "Headline", "Rerun", "CannotSettle", "Commands",
					"Missed", "Before", "DecidingPlanBody", "TargetBody", "HypothesisStatusChange")
			.doesNotContain("JsonNode");
	}

	private static JsonNode response(JsonNode operation, String status) {
		return operation.get("responses").get(status).get("content").get("application/json").get("schema");
	}

	private static JsonNode request(JsonNode operation) {
		return operation.get("requestBody").get("content").get("application/json").get("schema");
	}

	private static List<String> names(JsonNode schema) {
		return List.copyOf(schema.get("properties").propertyNames());
	}

}
