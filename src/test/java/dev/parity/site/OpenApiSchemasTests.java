package dev.parity.site;

import java.util.ArrayList;
import java.util.List;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * The OpenAPI document ({@code /api/openapi}) describes every JSON body with its fields:
 * no schema, in the components or inline in a path's request or answer, is an object
 * without {@code properties} or {@code additionalProperties}, and no successful JSON
 * answer goes without a schema; a body read or written as a JSON tree is described as
 * what it holds, never as Jackson's {@code JsonNode}.
 */
@ParityTest
class OpenApiSchemasTests {

	@Autowired
	MockMvc mvc;

	@Test
	void noBodyIsAnObjectWithoutItsFields() throws Exception {
		JsonNode doc = TestUploads
			.tree(mvc.perform(get("/api/openapi")).andReturn().getResponse().getContentAsByteArray());

		List<String> offenders = new ArrayList<>();
		doc.get("components").get("schemas").forEachEntry((name, schema) -> walk(schema, name, offenders));
		doc.get("paths").forEachEntry((path, item) -> {
			walk(item, path, offenders);
			item.forEachEntry((method, operation) -> operation.path("responses").forEachEntry((status, response) -> {
				if (status.startsWith("2") && response.path("content").isEmpty()) {
					offenders.add(path + "/" + method + "/responses/" + status + " has no schema");
				}
			}));
		});

		assertThat(offenders).as("objects without their fields").isEmpty();
		assertThat(doc.get("components").get("schemas").propertyNames())
			.as("a JSON tree is described as the body it holds, not as Jackson's JsonNode")
			.doesNotContain("JsonNode", "ObjectNode", "ArrayNode");
	}

	/** Every schema under this node: an object schema says its fields. */
	private static void walk(JsonNode node, String where, List<String> offenders) {
		if (node.isObject()) {
			if ("object".equals(node.path("type").asString("")) && !node.has("properties")
					&& !node.has("additionalProperties")) {
				offenders.add(where);
			}
			node.forEachEntry((name, child) -> walk(child, where + "/" + name, offenders));
		}
		else if (node.isArray()) {
			for (int i = 0; i < node.size(); i++) {
				walk(node.get(i), where + "[" + i + "]", offenders);
			}
		}
	}

}
