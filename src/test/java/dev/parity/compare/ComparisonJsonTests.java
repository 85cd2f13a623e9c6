package dev.parity.compare;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static dev.parity.compare.TestRuns.aRun;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A comparison as the JSON API gives it: the snapshot's shape, its runs, settings,
 * params, flags and headlines.
 */
class ComparisonJsonTests {

	private final JsonMapper mapper = JsonMapper.builder().build();

	private final Comparison comparison = new ComparisonBuilder().compare(aRun().cell(
			c -> c.params("prompt_tokens", 131072, "concurrency", 4).requests(0, 0, 4).noOutputTokens().throughput(3.2))
		.cell(c -> c.params("prompt_tokens", 280, "concurrency", 1).decode(76).ttft(0.92))
		.cell(c -> c.params("prompt_tokens", 512.0, "setting", "thinking=false").decode(70))
		.build(),
			aRun().revision("main")
				.warmup(0)
				.cell(c -> c.params("prompt_tokens", 131072, "concurrency", 4).throughput(141.54).decode(36.5))
				.cell(c -> c.params("prompt_tokens", 280, "concurrency", 1).decode(77).ttft(0.91))
				.build(),
			CompareSettings.defaults());

	@Test
	void hasTheShapeOfTheApi() {
		ObjectNode json = json();

		assertThat(json.propertyNames()).containsExactly("baseline", "contender", "settings", "non_default_settings",
				"ungreyed_by_settings", "flags", "headlines", "cells", "unmatched", "rules_version", "computed_at",
				"metrics", "provenance", "pareto");
		assertThat(json.get("contender").propertyNames()).containsExactly("id", "url", "title", "role", "system",
				"model", "flags", "disclosed_caveats");
		assertThat(json.get("headlines").get(0).propertyNames()).containsExactly("metric", "comparable", "within_band",
				"median_ratio", "excluded", "excluded_reasons", "verdicts", "median_ratio_interval", "sentence");
		assertThat(json.get("cells").get(0).propertyNames()).containsExactly("params", "anchor", "flags", "metrics",
				"label");
		assertThat(json.get("cells").get(0).get("metrics").get(0).propertyNames()).containsExactly("metric", "baseline",
				"contender", "ratio", "comparable", "flags", "interval", "verdict", "significant", "phrase", "greyed",
				"interval_phrase", "verdict_phrase");
		assertThat(json.get("unmatched").get(0).propertyNames()).containsExactly("side", "params", "anchor");
	}

	@Test
	void summarisesEachRunWithItsRunFlags() {
		JsonNode contender = json().get("contender");

		assertThat(contender.get("url").asString()).isEqualTo("/runs/" + comparison.contender().id());
		assertThat(contender.get("role").asString()).isEqualTo("measured");
		assertThat(contender.get("system").asString()).isEqualTo("2x DGX Spark");
		assertThat(contender.get("model").get("revision").asString()).isEqualTo("main");
		assertThat(contender.get("model").get("commit").asString()).isEqualTo(TestRuns.COMMIT);
		assertThat(contender.get("flags")).singleElement().satisfies(flag -> {
			assertThat(flag.get("rule").asString()).isEqualTo("no-warmup");
			assertThat(flag.get("greys")).isEmpty();
			assertThat(flag.get("side").asString()).isEqualTo("contender");
		});
	}

	@Test
	void writesEveryThresholdInForceAsNumbersAsPeopleWriteThem() {
		JsonNode settings = json().get("settings");

		assertThat(settings.toString()).startsWith(
				"{\"band\":0.1,\"output_tolerance\":0.1,\"failure_tolerance\":0,\"runaway\":10,\"spike\":2,\"unstable_cv\":0.5,"
						+ "\"skew\":2,\"outlier_z\":5,\"warning_factor\":10,\"implausible\":5,\"stat\":\"median\",\"vary\":\"system\","
						+ "\"critical_flags\":[\"kv-cache-dtype\"");
	}

	@Test
	void writesParamsAsTheirTypesAndWholeNumbersWithoutAFraction() {
		JsonNode json = json();

		assertThat(json.get("cells").get(0).get("params").toString())
			.isEqualTo("{\"concurrency\":4,\"prompt_tokens\":131072}");
		assertThat(json.get("unmatched").get(0).toString())
			.isEqualTo("{\"side\":\"baseline\",\"params\":{\"prompt_tokens\":512,\"setting\":\"thinking=false\"},"
					+ "\"anchor\":\"cell-prompt_tokens-512--setting-thinking-false\"}");
	}

	@Test
	void tellsWhyANumberIsGreyedFromItsEntryAlone() {
		JsonNode cell = json().get("cells").get(0);
		JsonNode throughput = metric(cell, "throughput_tps");

		assertThat(throughput.get("baseline").asDouble()).isEqualTo(3.2);
		assertThat(throughput.get("comparable").asBoolean()).isFalse();
		assertThat(throughput.get("flags")).extracting(flag -> flag.get("rule").asString())
			.containsExactly("failures", "implausible-ratio");
		assertThat(throughput.get("flags").get(0).get("side").asString()).isEqualTo("baseline");
		assertThat(throughput.get("flags").get(0).get("greys")).extracting(JsonNode::asString)
			.contains("throughput_tps");
		assertThat(throughput.get("flags").get(1).has("side")).isFalse();
		assertThat(metric(cell, "decode_tps").get("baseline").isNull()).isTrue();
		assertThat(metric(cell, "decode_tps").get("ratio").isNull()).isTrue();
	}

	@Test
	void writesHeadlinesWithTheirExclusionReasons() {
		JsonNode headlines = json().get("headlines");

		assertThat(headlines).extracting(headline -> headline.get("metric").asString())
			.containsExactly("ttft_s", "decode_tps", "throughput_tps");
		JsonNode throughput = headlines.get(2);
		assertThat(throughput.get("comparable").asInt()).isZero();
		assertThat(throughput.get("median_ratio").isNull()).isTrue();
		assertThat(throughput.get("excluded_reasons").toString()).isEqualTo("{\"failures\":1,\"implausible-ratio\":1}");
		assertThat(headlines.get(1).get("median_ratio").asDouble()).isEqualTo(77.0 / 76);
	}

	@Test
	void writesFlagsAlone() {
		Flag flag = new Flag("failures", "4 of 4 cancelled", "4 of 4 requests cancelled", Set.of("ttft_s"), null);

		assertThat(mapper.writeValueAsString(List.of(ComparisonSnapshot.FlagView.of(flag)))).isEqualTo(
				"[{\"rule\":\"failures\",\"short\":\"4 of 4 cancelled\",\"message\":\"4 of 4 requests cancelled\",\"greys\":[\"ttft_s\"]}]");
	}

	/** The comparison as the API gives it. */
	private ObjectNode json() {
		return mapper.valueToTree(ComparisonSnapshot.of(comparison, CompareSettings.defaults(), mapper));
	}

	private static JsonNode metric(JsonNode cell, String name) {
		for (JsonNode metric : cell.get("metrics")) {
			if (metric.get("metric").asString().equals(name)) {
				return metric;
			}
		}
		throw new AssertionError("no " + name + " in " + cell);
	}

}
