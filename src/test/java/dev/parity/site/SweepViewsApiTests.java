package dev.parity.site;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * The Pareto view, SLOs and goodput, and the rerun commands, through the pages, the JSON
 * API and the exports.
 */
@ParityTest
class SweepViewsApiTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Autowired
	MockMvc mvc;

	@Test
	void aRunsParetoViewLeavesItsGreyedCellsOffTheFront() throws Exception {
		String first = TestUploads.upload(mvc, "run-a-thinking-max.json");

		JsonNode pareto = json("/api/runs/" + first).get("pareto");

		assertThat(pareto.get("interactivity_metric").asString()).isEqualTo("decode_tps");
		assertThat(pareto.get("throughput_unit").asString()).isEqualTo("output tokens/s");
		assertThat(pareto.get("per_gpu").asBoolean()).isFalse();
		assertThat(pareto.get("load").asString()).isEqualTo("concurrency");
		// one front per prompt length: cells compete only with those differing in
		// concurrency
		assertThat(pareto.get("sides")).hasSize(5);
		List<String> greyed = new ArrayList<>();
		for (JsonNode side : pareto.get("sides")) {
			assertThat(side.get("run").asString()).isEqualTo(first);
			assertThat(side.get("group").asString()).startsWith("prompt_tokens=");
			side.get("points").forEach(point -> {
				assertThat(point.get("label").asString()).contains(side.get("group").asString());
				if (point.get("greyed").asBoolean()) {
					greyed.add(point.get("anchor").asString());
					assertThat(point.get("on_front").asBoolean()).isFalse();
				}
			});
			assertThat(side.get("front")).isNotEmpty();
			side.get("front").forEach(anchor -> assertThat(greyed).doesNotContain(anchor.asString()));
		}
		// the request at 65536 × 2 that ran away to 1,015,784 tokens: its cell is greyed,
		// hollow, off the front,
		// though nothing else at 65536 beats it (decode 100.65 tokens/s per user, 195.26
		// tokens/s)
		assertThat(greyed).containsExactly("cell-concurrency-2--prompt_tokens-65536");
		JsonNode at65536 = pareto.get("sides").get(3);
		assertThat(at65536.get("group").asString()).isEqualTo("prompt_tokens=65536");
		assertThat(at65536.get("front").toString()).isEqualTo("[\"cell-concurrency-8--prompt_tokens-65536\","
				+ "\"cell-concurrency-4--prompt_tokens-65536\",\"cell-concurrency-1--prompt_tokens-65536\"]");
		assertThat(at65536.get("points").get(1).get("greyed_by").toString()).contains("runaway");
		// at 131072, concurrency 4 and 8 (36.48 and 18.23 per user, ~141 tokens/s) are
		// beaten by concurrency 2
		assertThat(pareto.get("sides").get(4).get("front").toString()).doesNotContain("concurrency-4", "concurrency-8");
		assertThat(json("/api/runs/" + first).has("goodput")).isFalse();
		assertThat(text("/runs/" + first + "/export.md"))
			.contains("| run | concurrency=2, prompt\\_tokens=65536 | 100.7 | 195.3 | greyed: runaway, unstable |");
	}

	@Test
	void aRunsGoodputIsCountedFromItsSamplesAndItsThroughputPerGpu() throws Exception {
		ObjectNode document = (ObjectNode) JSON.readTree(TestUploads.fresh("run-e-control.json"));
		document.putObject("environment").put("gpu", "GB10").put("gpu_count", 2);
		// 280 × 1: TTFT 0.5, 1.0, 1.5, 2.5 s — 3 of 4 within 2 s; 280 × 2: 1, 1, 3, 3 s —
		// 2 of 4
		samples(document, 0, 0.5, 1.0, 1.5, 2.5);
		samples(document, 1, 1.0, 1.0, 3.0, 3.0);
		String id = TestUploads.upload(mvc, JSON.writeValueAsBytes(document));

		JsonNode body = json("/api/runs/" + id + "?slo_ttft_s=2&slo_share=0.75");

		JsonNode pareto = body.get("pareto");
		assertThat(pareto.get("per_gpu").asBoolean()).isTrue();
		assertThat(pareto.get("throughput_unit").asString()).isEqualTo("output tokens/s per GPU");
		JsonNode first = pareto.get("sides").get(0).get("points").get(0);
		assertThat(first.get("throughput").asDouble()).isCloseTo(74.6 / 2, within(1e-9));
		JsonNode goodput = body.get("goodput");
		assertThat(goodput.get("objectives").get("slo_ttft_s").asDouble()).isEqualTo(2.0);
		assertThat(goodput.get("objectives").get("slo_share").asDouble()).isEqualTo(0.75);
		JsonNode one = cell(goodput.get("run"), "cell-concurrency-1--prompt_tokens-280");
		assertThat(one.get("share").asDouble()).isEqualTo(0.75);
		assertThat(one.get("meeting").asInt()).isEqualTo(3);
		assertThat(one.get("requests").asInt()).isEqualTo(4);
		assertThat(one.get("meets").asBoolean()).isTrue();
		assertThat(cell(goodput.get("run"), "cell-concurrency-2--prompt_tokens-280").get("share").asDouble())
			.isEqualTo(0.5);
		JsonNode noSamples = cell(goodput.get("run"), "cell-concurrency-1--prompt_tokens-65536");
		assertThat(noSamples.get("share").isNull()).isTrue();
		assertThat(noSamples.get("missing").asString()).isEqualTo("no per-request samples");
		assertThat(noSamples.get("meets").isNull()).as("unknown, not false").isTrue();
		JsonNode highest = null;
		for (JsonNode entry : goodput.get("run").get("highest_concurrency")) {
			if (entry.get("label").asString().equals("prompt_tokens=280")) {
				highest = entry;
			}
		}
		assertThat(highest).isNotNull();
		// Concurrency 1 meets them, 2 does not, and 4 and 8 have no samples: the highest
		// is unknown, not 1.
		assertThat(highest.get("concurrency").isNull()).isTrue();
		assertThat(highest.get("missing").asString()).isEqualTo("no per-request samples");
	}

	@Test
	void aComparisonCarriesBothFrontsTheRatioAtEqualInteractivityAndGoodputInItsSettings() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String control = TestUploads.upload(mvc, "run-e-control.json");
		String pair = reference + "..." + control;

		JsonNode comparison = json("/api/compare/" + pair + "?slo_ttft_s=2");

		assertThat(comparison.get("settings").get("slo_ttft_s").asDouble()).isEqualTo(2.0);
		assertThat(comparison.get("settings").get("slo_share").asDouble()).isEqualTo(0.9);
		assertThat(comparison.get("non_default_settings")).isEmpty();
		JsonNode pareto = comparison.get("pareto");
		assertThat(pareto.get("sides")).hasSize(10);
		assertThat(pareto.get("sides").get(0).get("side").asString()).isEqualTo("baseline");
		assertThat(pareto.get("sides").get(5).get("side").asString()).isEqualTo("contender");
		JsonNode equal = pareto.get("equal_interactivity");
		assertThat(equal).isNotEmpty();
		for (JsonNode group : equal) {
			assertThat(group.get("group").asString()).startsWith("prompt_tokens=");
			assertThat(group.get("low").asDouble()).isLessThanOrEqualTo(group.get("high").asDouble());
			group.get("points")
				.forEach(point -> assertThat(point.get("ratio").asDouble())
					.isCloseTo(point.get("contender").asDouble() / point.get("baseline").asDouble(), within(1e-9)));
		}
		assertThat(comparison.get("goodput").get("baseline").get("cells")).isNotEmpty();
		assertThat(comparison.get("goodput").get("contender").get("cells")).isNotEmpty();

		String export = mvc.perform(get("/compare/" + pair + "/export.json?slo_ttft_s=2"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(JSON.readTree(export).get("goodput").get("objectives").get("words").asString())
			.isEqualTo("TTFT ≤ 2 s for 90 % of requests");
		assertThat(JSON.readTree(export).has("pareto")).isTrue();
		assertThat(json("/api/compare/" + pair).has("goodput")).isFalse();
		String markdown = text("/compare/" + pair + "/export.md?slo_ttft_s=2");
		assertThat(markdown).contains("## Throughput against interactivity (Pareto fronts)")
			.contains("prompt\\_tokens=280: at equal interactivity, from ")
			.contains("## Goodput: TTFT ≤ 2 s for 90 % of requests")
			.contains("| contender | concurrency=1, prompt\\_tokens=8192 | 0 % | 0 of 5 requests | no |");
	}

	@Test
	void aPublicationRemembersItsObjectivesAndFreezesItsGoodput() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String control = TestUploads.upload(mvc, "run-e-control.json");

		MvcResult published = mvc
			.perform(MockMvcRequestBuilders.post("/compare/" + reference + "..." + control + "/publish")
				.param("title", "Control within 2 s TTFT " + UUID.randomUUID())
				.param("caption", "goodput under an SLO")
				.param("query", "slo_ttft_s=2&slo_share=0.8")
				.with(SecurityMockMvcRequestPostProcessors.httpBasic(TestUploads.USER, TestUploads.PASSWORD))
				.with(SecurityMockMvcRequestPostProcessors.csrf()))
			.andReturn();
		String url = published.getResponse().getRedirectedUrl();
		assertThat(url).as("no reason is asked for objectives").startsWith("/published/");

		JsonNode frozen = json("/api" + url);
		assertThat(frozen.toString()).contains("\"slo_ttft_s\":2").contains("\"slo_share\":0.8");
		assertThat(frozen.findValue("goodput").get("objectives").get("words").asString())
			.isEqualTo("TTFT ≤ 2 s for 80 % of requests");
		assertThat(frozen.findValue("pareto")).isNotNull();
	}

	@Test
	void badObjectivesAreA400NamingThem() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String control = TestUploads.upload(mvc, "run-e-control.json");

		MvcResult compare = mvc.perform(get("/api/compare/" + reference + "..." + control + "?slo_ttft_s=soon"))
			.andReturn();
		MvcResult run = mvc.perform(get("/runs/" + reference + "?slo_share=2")).andReturn();
		MvcResult api = mvc.perform(get("/api/runs/" + reference + "?slo_tpot_ms=-5")).andReturn();

		assertThat(compare.getResponse().getStatus()).isEqualTo(400);
		assertThat(compare.getResponse().getContentAsString()).contains("slo_ttft_s");
		assertThat(run.getResponse().getStatus()).isEqualTo(400);
		assertThat(api.getResponse().getStatus()).isEqualTo(400);
	}

	@Test
	void pagesShowTheParetoViewTheSloFormAndHowToRerun() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String control = TestUploads.upload(mvc, "run-e-control.json");

		String runPage = page("/runs/" + control + "?slo_ttft_s=2");
		String comparePage = page("/compare/" + reference + "..." + control + "?band=0.1&slo_ttft_s=2");

		assertThat(runPage).contains("id=\"pareto-chart\"")
			.contains("data-pareto=")
			.contains("name=\"slo_ttft_s\"")
			.contains("name=\"slo_share\"")
			.contains("TTFT ≤ 2 s for 90 % of requests")
			.contains("How to rerun it")
			.contains("vllm serve example-org/moe-284b")
			.contains("--kv-cache-dtype fp8")
			.contains("bench --grid prompt=280,8192,32768,65536,131072 concurrency=1,2,4,8 --output-tokens 512")
			.contains("class=\"copy-command\"")
			.containsPattern("/js/copy-command(-[0-9a-f]{32})?\\.js");
		assertThat(comparePage).contains("id=\"pareto-chart\"")
			.contains("at equal interactivity, from")
			.contains("name=\"slo_tpot_ms\"")
			.contains("<input type=\"hidden\" name=\"band\" value=\"0.1\">")
			.contains("TTFT ≤ 2 s for 90 % of requests");
	}

	private static void samples(ObjectNode document, int cell, double... ttfts) {
		ArrayNode samples = ((ObjectNode) document.get("cells").get(cell)).putArray("samples");
		for (double ttft : ttfts) {
			samples.addObject().put("status", "ok").put("ttft_s", ttft);
		}
	}

	private static JsonNode cell(JsonNode side, String anchor) {
		for (JsonNode cell : side.get("cells")) {
			if (cell.get("anchor").asString().equals(anchor)) {
				return cell;
			}
		}
		throw new AssertionError("no cell " + anchor);
	}

	private JsonNode json(String url) throws Exception {
		MvcResult result = mvc.perform(get(url)).andReturn();
		assertThat(result.getResponse().getStatus()).as(url).isEqualTo(200);
		return JSON.readTree(result.getResponse().getContentAsString());
	}

	private String text(String url) throws Exception {
		MvcResult result = mvc.perform(get(url)).andReturn();
		assertThat(result.getResponse().getStatus()).as(url).isEqualTo(200);
		return result.getResponse().getContentAsString(StandardCharsets.UTF_8);
	}

	private String page(String url) throws Exception {
		MvcResult result = mvc.perform(get(url)).andReturn();
		assertThat(result.getResponse().getStatus()).as(url).isEqualTo(200);
		result.getResponse().setCharacterEncoding("UTF-8");
		return result.getResponse().getContentAsString(StandardCharsets.UTF_8);
	}

}
