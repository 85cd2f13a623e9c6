package dev.parity.ingest;

import java.math.BigDecimal;
import java.util.List;
import java.util.Random;

import dev.parity.web.Problem;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cell's samples are checked in Java when they are all well formed, and by the schema
 * otherwise ({@link RunDocumentSchema#cell}): the problems must be the schema's own, word
 * for word, whatever the cell holds.
 */
class RunDocumentSchemaTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

	private final RunDocumentSchema schema = RunDocumentSchema.get();

	@Test
	void aCellsProblemsAreTheSchemasWhateverItsSamplesHold() {
		Random random = new Random(20261205);
		int clean = 0;
		int refused = 0;
		for (int i = 0; i < 3_000; i++) {
			ObjectNode cell = cell(random);
			List<Problem> problems = schema.cell(cell, "$.cells[" + i + "]");
			assertThat(problems).as("cell %s", cell).isEqualTo(schema.bySchema(cell, "$.cells[" + i + "]"));
			if (problems.isEmpty()) {
				clean++;
			}
			else if (problems.stream().anyMatch(problem -> problem.path().contains(".samples"))) {
				refused++;
			}
		}
		// Both ways were taken, many times.
		assertThat(clean).isGreaterThan(500);
		assertThat(refused).isGreaterThan(500);
	}

	@Test
	void namesTheSampleThatIsNotOne() {
		ObjectNode cell = (ObjectNode) JSON.readTree("""
				{"params": {"concurrency": 4}, "requests": {"completed": 2}, "metrics": {"ttft_s": 0.2},
				 "samples": [{"status": "ok", "ttft_s": 0.2, "output_tokens": 120},
				             {"status": "done", "ttft_s": 0.3},
				             {"status": "ok", "ttft_s": "slow", "output_tokens": -1}]}""");
		assertThat(schema.cell(cell, "$.cells[0]")).extracting(Problem::path)
			.containsExactlyInAnyOrder("$.cells[0].samples[1].status", "$.cells[0].samples[2].ttft_s",
					"$.cells[0].samples[2].output_tokens");
		assertThat(schema.cell(cell, "$.cells[0]")).extracting(Problem::message).contains("must be at least 0, not -1");
	}

	/** A cell, most of it well formed, with samples that may not be. */
	private static ObjectNode cell(Random random) {
		ObjectNode cell = NODES.objectNode();
		cell.putObject("params").put("concurrency", 1 + random.nextInt(64));
		cell.putObject("requests").put("completed", random.nextInt(100));
		cell.putObject("metrics").put("ttft_s", random.nextDouble());
		if (random.nextInt(10) == 0) {
			// a problem outside the samples too
			cell.put("order", random.nextBoolean() ? 0.0 : 1.5);
		}
		if (random.nextInt(20) == 0) {
			cell.set("samples", random.nextBoolean() ? NODES.nullNode() : NODES.stringNode("none"));
			return cell;
		}
		ArrayNode samples = cell.putArray("samples");
		boolean spoil = random.nextBoolean();
		int count = random.nextInt(30);
		int spoiled = spoil && count > 0 ? random.nextInt(count) : -1;
		for (int s = 0; s < count; s++) {
			samples.add(s == spoiled ? spoiled(random) : sample(random));
		}
		return cell;
	}

	private static JsonNode sample(Random random) {
		ObjectNode sample = NODES.objectNode();
		if (random.nextInt(4) > 0) {
			sample.put("status", List.of("ok", "failed", "cancelled").get(random.nextInt(3)));
		}
		sample.put("ttft_s", random.nextDouble());
		switch (random.nextInt(5)) {
			case 0 -> sample.putNull("output_tokens");
			case 1 -> sample.put("output_tokens", random.nextInt(4000));
			case 2 -> sample.put("output_tokens", 0.0);
			case 3 -> sample.put("reasoning_tokens", new BigDecimal("1E-400"));
			default -> {
			}
		}
		if (random.nextBoolean()) {
			sample.putNull("tpot_s");
		}
		return sample;
	}

	/** A sample the schema refuses, one way or another. */
	private static JsonNode spoiled(Random random) {
		ObjectNode sample = (ObjectNode) sample(random);
		switch (random.nextInt(9)) {
			case 0 -> sample.put("status", "done");
			case 1 -> sample.put("status", 1);
			case 2 -> sample.put("output_tokens", -1);
			case 3 -> sample.put("reasoning_tokens", new BigDecimal("-1E-400"));
			case 4 -> sample.put("output_tokens", -0.5);
			case 5 -> sample.put("ttft_s", "slow");
			case 6 -> sample.putArray("ttft_s").add(1);
			case 7 -> sample.put("ok", true);
			default -> {
				return random.nextBoolean() ? NODES.numberNode(3) : NODES.arrayNode();
			}
		}
		return sample;
	}

}
