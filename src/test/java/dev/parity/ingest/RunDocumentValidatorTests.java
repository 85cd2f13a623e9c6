package dev.parity.ingest;

import java.util.List;
import java.util.function.Consumer;

import dev.parity.Fixtures;
import dev.parity.web.Problem;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RunDocumentValidatorTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	static List<String> seedStory() {
		return Fixtures.seedStoryNames();
	}

	@ParameterizedTest
	@MethodSource("seedStory")
	void acceptsEverySeedStoryDocument(String name) {
		assertThat(RunDocumentValidator.validate(JSON.readTree(Fixtures.seedStoryBytes(name)))).isEmpty();
	}

	@Test
	void refusesAnUnknownFormat() {
		assertThat(problems(doc -> doc.put("format", "benchmark-run/2"))).containsExactly(
				new Problem("$.format", "unknown format \"benchmark-run/2\"; this server reads \"benchmark-run/1\""));
	}

	@Test
	void namesEveryMissingRequiredField() {
		List<Problem> problems = problems(doc -> {
			doc.remove("title");
			doc.remove("system");
			((ObjectNode) doc.get("model")).remove("repo");
			((ObjectNode) doc.get("cells").get(1)).remove("requests");
		});
		assertThat(problems).extracting(Problem::path)
			.containsExactlyInAnyOrder("$.title", "$.system", "$.model.repo", "$.cells[1].requests");
	}

	@Test
	void refusesWrongTypes() {
		List<Problem> problems = problems(doc -> {
			doc.put("title", 42);
			((ObjectNode) doc.get("cells").get(0).get("metrics")).put("ttft_s", "fast");
			((ObjectNode) doc.get("engine").get("flags")).put("tensor-parallel-size", 2);
			((ObjectNode) doc.get("cells").get(2)).put("order", 1.5);
		});
		assertThat(problems).extracting(Problem::path)
			.containsExactlyInAnyOrder("$.title", "$.cells[0].metrics.ttft_s", "$.engine.flags['tensor-parallel-size']",
					"$.cells[2].order");
		assertThat(problems).filteredOn(p -> p.path().equals("$.title"))
			.extracting(Problem::message)
			.containsExactly("must be a string, not a number (42)");
	}

	@Test
	void refusesNegativeCounts() {
		assertThat(problems(doc -> ((ObjectNode) doc.get("cells").get(3).get("requests")).put("failed", -1)))
			.containsExactly(new Problem("$.cells[3].requests.failed", "must be at least 0, not -1"));
	}

	@Test
	void acceptsUnknownRequestCounts() {
		assertThat(problems(doc -> {
			ObjectNode requests = (ObjectNode) doc.get("cells").get(3).get("requests");
			requests.putNull("failed");
			requests.remove("cancelled");
		})).isEmpty();
	}

	@Test
	void refusesDuplicateParamsEvenWrittenDifferently() {
		List<Problem> problems = problems(doc -> {
			ObjectNode params = (ObjectNode) doc.get("cells").get(1).get("params");
			params.put("prompt_tokens", 280.0);
			params.put("concurrency", 1);
		});
		assertThat(problems).singleElement().satisfies(problem -> {
			assertThat(problem.path()).isEqualTo("$.cells[1].params");
			assertThat(problem.message()).startsWith("duplicate params: the same as $.cells[0].params");
		});
	}

	@Test
	void refusesAMetricOutsideTheCatalogueUnlessDeclared() {
		assertThat(problems(doc -> ((ObjectNode) doc.get("cells").get(0).get("metrics")).put("gpu_power_w", 310)))
			.extracting(Problem::path)
			.containsExactly("$.cells[0].metrics.gpu_power_w");
		assertThat(problems(doc -> {
			((ObjectNode) doc.get("cells").get(0).get("metrics")).put("gpu_power_w", 310);
			doc.putObject("metric_definitions").putObject("gpu_power_w").put("unit", "W").put("better", "lower");
		})).isEmpty();
	}

	@Test
	void refusesAnUnknownMetricInSamples() {
		assertThat(problems(doc -> ((ObjectNode) doc.get("cells").get(0)).putArray("samples")
			.addObject()
			.put("status", "ok")
			.put("ttft_ms", 3))).extracting(Problem::path).containsExactly("$.cells[0].samples[0].ttft_ms");
	}

	@Test
	void refusesACommitThatIsNot40Hex() {
		assertThat(problems(doc -> ((ObjectNode) doc.get("model")).put("commit", "4f2a9c1"))).extracting(Problem::path)
			.containsExactly("$.model.commit");
	}

	@Test
	void acceptsACommitInUpperCase() {
		assertThat(problems(
				doc -> ((ObjectNode) doc.get("model")).put("commit", "4F2A9C1E7B3D5A0F8C6E2D1B9A7F5E3C1D0B8A6F")))
			.isEmpty();
	}

	@Test
	void refusesAReferenceWithoutSourceUrl() {
		JsonNode reference = JSON.readTree(Fixtures.seedStoryBytes("reference.json"));
		((ObjectNode) reference.get("source")).remove("url");
		assertThat(RunDocumentValidator.validate(reference)).extracting(Problem::path).containsExactly("$.source.url");
	}

	@Test
	void refusesUnknownFieldsOutsideTheFreeFormMaps() {
		List<Problem> problems = problems(doc -> {
			doc.put("titel", "typo");
			((ObjectNode) doc.get("cells").get(0).get("requests")).put("complete", 4);
			((ObjectNode) doc.get("workload")).put("warmup", 32);
			((ObjectNode) doc.get("workload").get("request_params")).put("anything", "goes");
			((ObjectNode) doc.get("cells").get(0).get("params")).put("setting", "free");
		});
		assertThat(problems).extracting(Problem::path)
			.containsExactlyInAnyOrder("$.titel", "$.cells[0].requests.complete", "$.workload.warmup");
		assertThat(problems.get(0).message()).contains("unknown field");
	}

	@Test
	void reportsEveryProblemAtOnce() {
		List<Problem> problems = problems(doc -> {
			doc.put("role", "ours");
			((ObjectNode) doc.get("cells").get(3).get("requests")).put("failed", -1);
			((ObjectNode) doc.get("cells").get(7).get("metrics")).put("speed", 1);
			((ObjectNode) doc.get("model")).put("commit", "main");
		});
		assertThat(problems).hasSize(4);
	}

	@Test
	void refusesAnEmptyGrid() {
		assertThat(problems(doc -> doc.putArray("cells")))
			.containsExactly(new Problem("$.cells", "must hold at least one cell"));
	}

	@Test
	void refusesMalformedJsonSayingWhere() {
		assertThatThrownBy(() -> RunIngest.parse("{\"format\": \"benchmark-run/1\",\n \"title\": }".getBytes()))
			.isInstanceOfSatisfying(RunFileRejected.class, rejected -> {
				assertThat(rejected.problems()).singleElement().satisfies(problem -> {
					assertThat(problem.path()).isEqualTo("$");
					assertThat(problem.message()).startsWith("not valid JSON at line 2");
				});
			});
	}

	@Test
	void refusesDuplicateKeys() {
		assertThatThrownBy(() -> RunIngest.parse("{\"title\": \"a\", \"title\": \"b\"}".getBytes()))
			.isInstanceOfSatisfying(RunFileRejected.class,
					rejected -> assertThat(rejected.problems().get(0).message()).contains("title"));
	}

	/**
	 * The text the rules read on every view is bounded where it is stored, each bound
	 * named with its field.
	 */
	@Test
	void boundsTheTextThatRulesRead() {
		List<Problem> problems = problems(doc -> {
			ObjectNode engine = (ObjectNode) doc.get("engine");
			var warnings = engine.putArray("warnings");
			for (int i = 0; i < 100; i++) {
				warnings.add("w");
			}
			warnings.add("a-a ".repeat(1_001));
			ObjectNode flags = (ObjectNode) engine.get("flags");
			flags.put("f".repeat(201), "1");
			flags.put("g", "9".repeat(4_001));
			var caveats = doc.putArray("caveats");
			caveats.add("c".repeat(10_001));
			((ObjectNode) doc.get("cells").get(0).get("params")).put("setting", "v".repeat(501));
		});
		assertThat(problems).containsExactlyInAnyOrder(new Problem("$.engine.warnings", "holds 101 items; at most 100"),
				new Problem("$.engine.warnings[100]", "is 4004 characters; at most 4000"),
				new Problem("$.engine.flags['" + "f".repeat(57) + "…']", "the name is 201 characters; at most 200"),
				new Problem("$.engine.flags.g", "is 4001 characters; at most 4000"),
				new Problem("$.caveats[0]", "is 10001 characters; at most 10000"),
				new Problem("$.cells[0].params.setting", "is 501 characters; at most 500"));
		assertThat(problems(doc -> {
			ObjectNode flags = (ObjectNode) doc.get("engine").get("flags");
			for (int i = 0; flags.size() <= 200; i++) {
				flags.put("flag-" + i, "1");
			}
		})).containsExactly(new Problem("$.engine.flags", "holds 201 entries; at most 200"));
	}

	private static List<Problem> problems(Consumer<ObjectNode> change) {
		ObjectNode document = (ObjectNode) JSON.readTree(Fixtures.seedStoryBytes("run-e-control.json"));
		change.accept(document);
		return RunDocumentValidator.validate(document);
	}

}
