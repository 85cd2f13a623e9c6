package dev.parity.site;

import java.util.ArrayList;
import java.util.List;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** The seed story's expected outcomes 1–6, through the JSON API of stored runs. */
@ParityTest
class ComparisonApiTests {

	@Autowired
	MockMvc mvc;

	String reference;

	@BeforeEach
	void uploadTheStory() throws Exception {
		reference = TestUploads.upload(mvc, "reference.json");
	}

	@Test
	void controlRunMatchesTheReferenceOnDecode() throws Exception {
		JsonNode comparison = compare("run-e-control.json", "");
		JsonNode decode = headline(comparison, "decode_tps");
		assertThat(decode.get("comparable").asInt()).isEqualTo(18);
		assertThat(decode.get("within_band").asInt()).isEqualTo(18);
		assertThat(decode.get("median_ratio").asDouble()).isCloseTo(1.011, within(0.0005));
		assertThat(decode.get("excluded").asInt()).isEqualTo(2);
		assertThat(decode.get("excluded_reasons").propertyNames()).containsExactly("failures");
		assertThat(decode.get("excluded_reasons").get("failures").asInt()).isEqualTo(2);
		// Single runs without per-request samples: verdicts from the point ratios, no
		// interval, no significance.
		assertThat(decode.get("verdicts").toString())
			.isEqualTo("{\"within-band\":18,\"better\":0,\"worse\":0,\"inconclusive\":0}");
		assertThat(decode.get("median_ratio_interval").isNull()).isTrue();
		assertThat(rules(comparison)).doesNotContain("checkpoint-differs", "checkpoint-unknown",
				"output-length-differs", "output-length-unknown");

		JsonNode ttft = metric(cell(comparison, "cell-concurrency-1--prompt_tokens-32768"), "ttft_s");
		assertThat(ttft.get("baseline").asDouble()).isEqualTo(22.96);
		assertThat(ttft.get("contender").asDouble()).isEqualTo(16.73);
		assertThat(ttft.get("ratio").asDouble()).isCloseTo(0.729, within(0.0005));
		assertThat(ttft.get("comparable").asBoolean()).isTrue();
		assertThat(ttft.get("phrase").asString()).isEqualTo("27 % less time (1.37× faster)");
		assertThat(ttft.get("interval").isNull()).isTrue();
		assertThat(ttft.get("verdict").asString()).isEqualTo("better");
		assertThat(ttft.get("significant").isNull()).isTrue();

		JsonNode spike = metric(cell(comparison, "cell-concurrency-4--prompt_tokens-280"), "ttft_s");
		assertThat(spike.get("comparable").asBoolean()).isFalse();
		assertThat(flagRules(spike)).contains("latency-spike");
		assertThat(spike.get("verdict").isNull()).as("a greyed value has no verdict").isTrue();
		assertThat(spike.get("flags").findValuesAsString("side")).contains("contender");
	}

	@Test
	void firstReadIsConfoundedEverywhere() throws Exception {
		JsonNode comparison = compare("run-a-thinking-max.json", "");
		assertThat(comparison.get("flags").findValuesAsString("rule")).contains("checkpoint-differs");
		for (JsonNode cell : comparison.get("cells")) {
			for (JsonNode metric : cell.get("metrics")) {
				assertThat(metric.get("comparable").asBoolean()).as(cell.get("anchor") + " " + metric.get("metric"))
					.isFalse();
				assertThat(flagRules(metric)).contains("checkpoint-differs");
			}
		}
		for (JsonNode headline : comparison.get("headlines")) {
			assertThat(headline.get("comparable").asInt()).isZero();
		}
		long outputLengthCells = 0;
		for (JsonNode cell : comparison.get("cells")) {
			if (rulesOf(cell.get("flags")).contains("output-length-differs")) {
				outputLengthCells++;
				assertThat(flagRules(metric(cell, "decode_tps"))).contains("output-length-differs");
				assertThat(flagRules(metric(cell, "ttft_s"))).doesNotContain("output-length-differs");
			}
		}
		assertThat(outputLengthCells).isEqualTo(18);
		for (String c : List.of("1", "2", "4")) {
			assertThat(rulesOf(cell(comparison, "cell-concurrency-" + c + "--prompt_tokens-280").get("flags")))
				.contains("latency-spike");
		}
		assertThat(rulesOf(cell(comparison, "cell-concurrency-8--prompt_tokens-280").get("flags")))
			.doesNotContain("latency-spike");
		assertThat(rulesOf(cell(comparison, "cell-concurrency-2--prompt_tokens-65536").get("flags")))
			.contains("runaway", "unstable");
		JsonNode cancelled = metric(cell(comparison, "cell-concurrency-4--prompt_tokens-131072"), "throughput_tps");
		assertThat(cancelled.get("ratio").asDouble()).isCloseTo(44.23, within(0.01));
		assertThat(flagRules(cancelled)).contains("failures");
		assertThat(metric(cell(comparison, "cell-concurrency-8--prompt_tokens-131072"), "throughput_tps").get("ratio")
			.asDouble()).isCloseTo(61.5, within(0.01));
		assertThat(comparison.get("contender").get("flags").findValuesAsString("rule")).contains("no-warmup");
		for (JsonNode cell : comparison.get("cells")) {
			boolean shortPrompt = cell.get("params").get("prompt_tokens").asInt() == 280;
			boolean inapplicable = cell.get("flags")
				.valueStream()
				.anyMatch(f -> f.get("rule").asString().equals("warning-inapplicable")
						&& "contender".equals(f.path("side").asString(null)));
			assertThat(inapplicable).as(cell.get("anchor").asString()).isEqualTo(shortPrompt);
		}
	}

	@Test
	void allFailedRunIsGreyedEverywhere() throws Exception {
		JsonNode comparison = compare("run-b-effort-low.json", "");
		assertThat(comparison.get("contender").get("flags").findValuesAsString("rule")).contains("all-failed",
				"unpinned");
		for (JsonNode cell : comparison.get("cells")) {
			for (JsonNode metric : cell.get("metrics")) {
				assertThat(metric.get("comparable").asBoolean()).isFalse();
			}
		}
	}

	@Test
	void effortHighShowsItsDecodeGainsGreyed() throws Exception {
		JsonNode comparison = compare("run-c-effort-high.json", "");
		assertThat(rules(comparison)).contains("checkpoint-differs", "output-length-differs");
		List<Double> decodeRatios = new ArrayList<>();
		for (JsonNode cell : comparison.get("cells")) {
			JsonNode decode = metric(cell, "decode_tps");
			if (cell.get("params").get("prompt_tokens").asInt() >= 32768 && decode.get("ratio").isNumber()) {
				decodeRatios.add(decode.get("ratio").asDouble());
				assertThat(decode.get("comparable").asBoolean()).isFalse();
			}
		}
		assertThat(decodeRatios).isNotEmpty();
		assertThat(decodeRatios.stream().mapToDouble(Double::doubleValue).max().orElseThrow()).isCloseTo(2.01,
				within(0.01));
		assertThat(decodeRatios.stream().mapToDouble(Double::doubleValue).min().orElseThrow()).isCloseTo(1.08,
				within(0.01));
		assertThat(comparison.get("contender").get("disclosed_caveats").get(0).asString())
			.contains("not a clean hardware-vs-hardware comparison");
		assertThat(headline(comparison, "decode_tps").get("comparable").asInt()).isZero();
	}

	@Test
	void effortOffKeepsTtftComparableAndGreysDecode() throws Exception {
		JsonNode comparison = compare("run-d-effort-off.json", "");
		assertThat(rules(comparison)).doesNotContain("checkpoint-differs", "checkpoint-unknown");
		assertThat(comparison.get("flags").findValuesAsString("rule")).contains("params-differ");
		String params = comparison.get("flags")
			.valueStream()
			.filter(f -> f.get("rule").asString().equals("params-differ"))
			.findFirst()
			.orElseThrow()
			.get("message")
			.asString();
		assertThat(params).contains("reasoning_effort").contains("thinking");
		JsonNode cell = cell(comparison, "cell-concurrency-1--prompt_tokens-32768");
		assertThat(metric(cell, "ttft_s").get("comparable").asBoolean()).isTrue();
		assertThat(metric(cell, "prefill_tps").get("comparable").asBoolean()).isTrue();
		for (String sensitive : List.of("decode_tps", "throughput_tps", "e2e_latency_s")) {
			assertThat(metric(cell, sensitive).get("comparable").asBoolean()).isFalse();
			assertThat(flagRules(metric(cell, sensitive))).contains("output-length-differs");
		}
		assertThat(cell.get("flags")
			.valueStream()
			.filter(f -> f.get("rule").asString().equals("setting-not-obeyed"))
			.map(f -> f.get("message").asString())).singleElement().asString().contains("declared 512");
	}

	@Test
	void probeFlagsTheUnstableSettingOnItsRunPage() throws Exception {
		String probe = TestUploads.upload(mvc, "probe-reasoning-levers.json");
		JsonNode run = TestUploads.tree(mvc.perform(get("/api/runs/{id}", probe))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
		for (JsonNode cell : run.get("cells")) {
			String setting = cell.get("params").get("setting").asString();
			List<String> rules = rulesOf(cell.get("flags"));
			assertThat(rules.contains("unstable")).as(setting).isEqualTo(setting.equals("reasoning_effort=low"));
			assertThat(rules.contains("setting-not-obeyed")).as(setting).isEqualTo(!setting.equals("thinking=false"));
		}
	}

	@Test
	void thresholdsComeFromTheUrlAndAreShown() throws Exception {
		JsonNode strict = compare("run-e-control.json", "?band=0.01&stat=median");
		assertThat(strict.get("settings").get("band").asDouble()).isEqualTo(0.01);
		assertThat(headline(strict, "decode_tps").get("within_band").asInt()).isLessThan(18);
		String e = TestUploads.upload(mvc, "run-e-control.json");
		String bad = mvc.perform(get("/api/compare/" + reference + "..." + e).param("band", "wide"))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(bad).contains("band");
	}

	@Test
	void comparingAMeanWithAMedianIsNeverDone() throws Exception {
		JsonNode p99 = compare("run-e-control.json", "?stat=p99");
		for (JsonNode headline : p99.get("headlines")) {
			assertThat(headline.get("comparable").asInt()).isZero();
		}
	}

	@Test
	void unknownRunsAnswer404() throws Exception {
		mvc.perform(get("/api/compare/" + reference + "...zzzzzzzzzz")).andExpect(status().isNotFound());
		mvc.perform(get("/compare/nonsense")).andExpect(status().isNotFound());
	}

	private JsonNode compare(String contenderFixture, String query) throws Exception {
		String contender = TestUploads.upload(mvc, contenderFixture);
		return TestUploads.tree(mvc.perform(get("/api/compare/" + reference + "..." + contender + query))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
	}

	private static JsonNode headline(JsonNode comparison, String metric) {
		return comparison.get("headlines")
			.valueStream()
			.filter(h -> h.get("metric").asString().equals(metric))
			.findFirst()
			.orElseThrow();
	}

	private static JsonNode cell(JsonNode comparison, String anchor) {
		return comparison.get("cells")
			.valueStream()
			.filter(c -> c.get("anchor").asString().equals(anchor))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no cell " + anchor));
	}

	private static JsonNode metric(JsonNode cell, String metric) {
		return cell.get("metrics")
			.valueStream()
			.filter(m -> m.get("metric").asString().equals(metric))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no metric " + metric + " in " + cell.get("anchor")));
	}

	private static List<String> flagRules(JsonNode metric) {
		return rulesOf(metric.get("flags"));
	}

	private static List<String> rulesOf(JsonNode flags) {
		return flags.findValuesAsString("rule");
	}

	private static List<String> rules(JsonNode comparison) {
		List<String> all = new ArrayList<>(rulesOf(comparison.get("flags")));
		comparison.get("cells").forEach(cell -> {
			all.addAll(rulesOf(cell.get("flags")));
			cell.get("metrics").forEach(m -> all.addAll(rulesOf(m.get("flags"))));
		});
		return all;
	}

}
