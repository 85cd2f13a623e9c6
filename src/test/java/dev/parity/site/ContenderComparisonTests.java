package dev.parity.site;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.assertj.core.api.Assertions;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Several contenders against one baseline ({@code /compare/ref...a,c,e}) and comparisons
 * with fixed grid parameters ({@code probe@setting=thinking=false}): each contender's
 * outcomes are exactly its pairwise outcomes, in the API, the page and the exports; never
 * one contender against another.
 */
@ParityTest
class ContenderComparisonTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	private String body(String url) throws Exception {
		return mvc.perform(get(url))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
	}

	private JsonNode api(String path) throws Exception {
		return TestUploads.tree(mvc.perform(get("/api/compare/" + path))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
	}

	private MvcResult refused(String url) throws Exception {
		return mvc.perform(get(url)).andReturn();
	}

	private static JsonNode headline(JsonNode comparison, String metric) {
		return comparison.get("headlines")
			.valueStream()
			.filter(h -> h.get("metric").asString().equals(metric))
			.findFirst()
			.orElseThrow();
	}

	@Test
	void referenceAgainstRunsACAndEAtOnceGivesEachContenderExactlyItsPairwiseComparison() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		List<String> contenders = List.of(TestUploads.upload(mvc, "run-a-thinking-max.json"),
				TestUploads.upload(mvc, "run-c-effort-high.json"), TestUploads.upload(mvc, "run-e-control.json"));
		String path = reference + "..." + String.join(",", contenders);

		JsonNode several = api(path);

		assertThat(several.get("baseline").asString()).isEqualTo(reference);
		assertThat(several.get("contenders").size()).isEqualTo(3);
		for (int i = 0; i < contenders.size(); i++) {
			JsonNode pairwise = api(reference + "..." + contenders.get(i));
			assertThat(several.get("contenders").get(i)).as("contender %s", contenders.get(i)).isEqualTo(pairwise);
		}
		// The story's outcomes, each against the reference alone.
		JsonNode a = several.get("contenders").get(0);
		JsonNode e = several.get("contenders").get(2);
		assertThat(a.get("contender").get("id").asString()).isEqualTo(contenders.get(0));
		assertThat(headline(a, "decode_tps").get("comparable").asInt()).isZero();
		assertThat(headline(e, "decode_tps").get("comparable").asInt()).isEqualTo(18);
		assertThat(headline(e, "decode_tps").get("median_ratio").asDouble()).isEqualTo(1.011,
				Assertions.within(0.0005));
	}

	@Test
	void thePageShowsEachContendersValuesFlagsAndHeadlinesAsItsPairwisePageDoes() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		List<String> contenders = List.of(TestUploads.upload(mvc, "run-a-thinking-max.json"),
				TestUploads.upload(mvc, "run-c-effort-high.json"), TestUploads.upload(mvc, "run-e-control.json"));
		Document page = Jsoup.parse(body("/compare/" + reference + "..." + String.join(",", contenders)));

		for (String contender : contenders) {
			Document pairwise = Jsoup.parse(body("/compare/" + reference + "..." + contender));
			Map<String, String> expected = new LinkedHashMap<>();
			for (Element td : pairwise.select("table.compare tbody td.value")) {
				String anchor = td.parent().id();
				expected.put(anchor + " " + td.attr("data-metric"), outcome(td));
			}
			Map<String, String> shown = new LinkedHashMap<>();
			for (Element td : page.select("table.compare tbody td.value[data-contender=" + contender + "]")) {
				if (!td.hasClass("missing") || td.hasAttr("data-comparable")) {
					shown.put(td.parent().id() + " " + td.attr("data-metric"), outcome(td));
				}
			}
			assertThat(shown).as("cells of contender %s", contender).isEqualTo(expected);

			List<String> pairwiseHeadlines = pairwise.select(".headlines li .sentence").eachText();
			List<String> headlines = page
				.select(".contender-side[data-contender=" + contender + "] .contender-headlines .sentence")
				.eachText();
			assertThat(headlines).isEqualTo(pairwiseHeadlines);
		}
		// Every ratio on the page is against the baseline: the baseline's column, never
		// another contender's.
		assertThat(page.select("td.baseline-value")).isNotEmpty();
		assertThat(page.text()).contains("Contenders are never compared with each other");
		Element spike = page.selectFirst("#cell-concurrency-4--prompt_tokens-280 td[data-metric=ttft_s][data-contender="
				+ contenders.get(2) + "]");
		assertThat(spike.hasClass("greyed")).isTrue();
		assertThat(spike.selectFirst("a.reason").attr("data-rule")).isEqualTo("latency-spike");
		assertThat(page.getElementById(spike.selectFirst("a.reason").attr("href").substring(1))).isNotNull();
	}

	/**
	 * Greyed or comparable, the contender's value, its ratio in words, and the rules that
	 * grey it (all of them: the pairwise page says a reason shared by a row or by every
	 * cell once, not in each cell).
	 */
	private static String outcome(Element td) {
		String value = td.selectFirst(".pair") == null ? "" : td.selectFirst(".pair").text();
		String contender = value.contains("→") ? value.substring(value.indexOf('→') + 1).strip() : value;
		Element ratio = td.selectFirst(".ratio");
		// A quiet cell (within the band) of the pairwise page keeps its ratio in words in
		// its numbers' hover.
		String words = ratio != null ? ratio.text() : td.selectFirst(".pair[title]") != null
				? td.selectFirst(".pair[title]").attr("title").split(";")[0].strip() : "";
		return (td.hasClass("greyed") ? "greyed " : td.hasClass("comparable") ? "comparable " : "missing ") + contender
				+ " | " + words + " | " + td.attr("data-greyed-by");
	}

	@Test
	void exportsListEachContendersPairwiseExport() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, "run-c-effort-high.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		String path = reference + "..." + c + "," + e;

		JsonNode json = TestUploads.tree(body("/compare/" + path + "/export.json").getBytes(StandardCharsets.UTF_8));
		assertThat(json.get("contenders").get(0)).isEqualTo(TestUploads
			.tree(body("/compare/" + reference + "..." + c + "/export.json").getBytes(StandardCharsets.UTF_8)));
		assertThat(json.get("contenders").get(1)).isEqualTo(TestUploads
			.tree(body("/compare/" + reference + "..." + e + "/export.json").getBytes(StandardCharsets.UTF_8)));

		String csv = body("/compare/" + path + "/export.csv");
		String pairwiseCsv = body("/compare/" + reference + "..." + e + "/export.csv");
		List<String> pairwiseRows = pairwiseCsv.lines().filter(line -> !line.startsWith("#")).skip(1).toList();
		List<String> rowsOfE = csv.lines()
			.filter(line -> line.startsWith("\"" + e + "\","))
			.map(line -> line.substring(e.length() + 3))
			.toList();
		assertThat(rowsOfE).isEqualTo(pairwiseRows);
		assertThat(csv.lines().filter(line -> !line.startsWith("#")).findFirst().orElseThrow())
			.startsWith("\"contender_path\",\"anchor\"");

		String md = body("/compare/" + path + "/export.md");
		assertThat(md).contains("## Comparison " + reference + "..." + c)
			.contains("## Comparison " + reference + "..." + e)
			.contains("never compared with each other");
		// Each contender's footnotes keep labels of their own.
		assertThat(md).contains("[^vs1-1]").contains("[^vs2-1]");
	}

	@Test
	void theProbesSettingsAreComparedWithinTheRun() throws Exception {
		String probe = TestUploads.upload(mvc, "probe-reasoning-levers.json");
		String thinkingOff = probe + "@setting=thinking=false";
		JsonNode several = api(thinkingOff + "..." + probe + "@setting=default," + probe
				+ "@setting=reasoning_effort=low," + probe + "@setting=reasoning_effort=off");

		List<String> flagsOfLow = new ArrayList<>();
		for (JsonNode comparison : several.get("contenders")) {
			assertThat(comparison.get("cells").size()).isEqualTo(1);
			assertThat(comparison.get("unmatched").size()).isZero();
			JsonNode cell = comparison.get("cells").get(0);
			assertThat(cell.get("params").has("setting")).isFalse();
			assertThat(cell.get("params").get("prompt_tokens").asInt()).isEqualTo(8192);
			assertThat(comparison.get("baseline").get("fixed").get("setting").asString()).isEqualTo("thinking=false");
			// Same run, same provenance: nothing differs between the sides.
			assertThat(comparison.get("flags").valueStream().map(f -> f.get("rule").asString()).toList())
				.doesNotContain("checkpoint-differs", "engine-differs");
		}
		JsonNode low = several.get("contenders").get(1);
		assertThat(low.get("contender").get("fixed").get("setting").asString()).isEqualTo("reasoning_effort=low");
		low.get("cells")
			.get(0)
			.get("flags")
			.forEach(flag -> flagsOfLow.add(flag.get("rule").asString() + "/" + flag.path("side").asString("")));
		// The run's own checks still see the whole run: "low" is unstable and did not
		// obey its setting.
		assertThat(flagsOfLow).contains("unstable/contender", "setting-not-obeyed/contender");
		// The pairwise comparison of two settings is the same comparison, and the ratio
		// is one setting over the other.
		JsonNode pair = api(thinkingOff + "..." + probe + "@setting=reasoning_effort=low");
		assertThat(several.get("contenders").get(1)).isEqualTo(pair);

		String page = body("/compare/" + thinkingOff + "..." + probe + "@setting=reasoning_effort=low");
		Document html = Jsoup.parse(page);
		assertThat(html.getElementById("fixed-params").text()).contains("setting=thinking=false")
			.contains("setting=reasoning_effort=low");
		assertThat(html.select("form.caveat-form")).isEmpty();
	}

	@Test
	void concurrencyOneAgainstEightWithinOneRunMatchesCellsOnPromptLength() throws Exception {
		String e = TestUploads.upload(mvc, "run-e-control.json");
		JsonNode comparison = api(e + "@concurrency=1..." + e + "@concurrency=8");

		assertThat(comparison.get("cells").size()).isEqualTo(5);
		assertThat(comparison.get("unmatched").size()).isZero();
		JsonNode cell = comparison.get("cells")
			.valueStream()
			.filter(c -> c.get("anchor").asString().equals("cell-prompt_tokens-32768"))
			.findFirst()
			.orElseThrow();
		JsonNode run = api(e + "..." + e);
		double at1 = value(run, "cell-concurrency-1--prompt_tokens-32768", "throughput_tps", "contender");
		double at8 = value(run, "cell-concurrency-8--prompt_tokens-32768", "throughput_tps", "contender");
		JsonNode throughput = metric(cell, "throughput_tps");
		assertThat(throughput.get("baseline").asDouble()).isEqualTo(at1);
		assertThat(throughput.get("contender").asDouble()).isEqualTo(at8);
		assertThat(throughput.get("ratio").asDouble()).isEqualTo(at8 / at1, Assertions.within(1e-9));
		// E's short-prompt spike at concurrency 4 is E's own check, seen from the whole
		// run: still there at 280 × 4.
		JsonNode spike = api(e + "@concurrency=4..." + e + "@concurrency=8").get("cells")
			.valueStream()
			.filter(c -> c.get("anchor").asString().equals("cell-prompt_tokens-280"))
			.findFirst()
			.orElseThrow();
		assertThat(metric(spike, "ttft_s").get("comparable").asBoolean()).isFalse();
	}

	private static JsonNode metric(JsonNode cell, String metric) {
		return cell.get("metrics")
			.valueStream()
			.filter(m -> m.get("metric").asString().equals(metric))
			.findFirst()
			.orElseThrow();
	}

	private static double value(JsonNode comparison, String anchor, String metric, String side) {
		JsonNode cell = comparison.get("cells")
			.valueStream()
			.filter(c -> c.get("anchor").asString().equals(anchor))
			.findFirst()
			.orElseThrow();
		return metric(cell, metric).get(side).asDouble();
	}

	@Test
	void fixingAParameterMatchesAProbeCellAgainstARunWithoutIt() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String probe = TestUploads.upload(mvc, "probe-reasoning-levers.json");

		// Unfixed, the grids never match: the probe's cells have a setting, the
		// reference's do not.
		assertThat(api(reference + "..." + probe).get("cells").size()).isZero();

		JsonNode fixed = api(reference + "..." + probe + "@setting=thinking=false");
		assertThat(fixed.get("cells").size()).isEqualTo(1);
		assertThat(fixed.get("cells").get(0).get("anchor").asString())
			.isEqualTo("cell-concurrency-1--prompt_tokens-8192");
		assertThat(fixed.get("contender").get("fixed").get("setting").asString()).isEqualTo("thinking=false");
		assertThat(fixed.get("baseline").has("fixed")).isFalse();
		// The reference's other 19 cells are on one side only: listed apart, never
		// compared.
		assertThat(fixed.get("unmatched").size()).isEqualTo(19);
	}

	@Test
	void badListsAndFixedParametersAreRefusedNamingTheProblem() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		String probe = TestUploads.upload(mvc, "probe-reasoning-levers.json");

		String nine = String.join(",", Collections.nCopies(9, e));
		for (String prefix : List.of("/compare/", "/api/compare/")) {
			MvcResult tooMany = refused(prefix + reference + "..." + nine);
			assertThat(tooMany.getResponse().getStatus()).isEqualTo(400);
			assertThat(tooMany.getResponse().getContentAsString()).contains("9 contenders").contains("at most 8");
		}
		MvcResult twice = refused("/api/compare/" + reference + "..." + e + "," + probe + "," + e);
		assertThat(twice.getResponse().getStatus()).isEqualTo(400);
		assertThat(twice.getResponse().getContentAsString()).contains(e).contains("listed twice");

		MvcResult unknown = refused("/api/compare/" + reference + "..." + e + ",zzzzzzzzzz");
		assertThat(unknown.getResponse().getStatus()).isEqualTo(404);
		assertThat(unknown.getResponse().getContentAsString()).contains("zzzzzzzzzz");

		MvcResult empty = refused("/api/compare/" + reference + "..." + e + ",");
		assertThat(empty.getResponse().getStatus()).isEqualTo(400);
		assertThat(empty.getResponse().getContentAsString()).contains("contender 2 of 2 is empty");

		MvcResult noSuchParam = refused("/api/compare/" + reference + "..." + probe + "@mode=fast");
		assertThat(noSuchParam.getResponse().getStatus()).isEqualTo(400);
		assertThat(noSuchParam.getResponse().getContentAsString()).contains("no grid parameter 'mode'")
			.contains("setting");

		MvcResult noSuchValue = refused("/api/compare/" + reference + "..." + probe + "@setting=turbo");
		assertThat(noSuchValue.getResponse().getStatus()).isEqualTo(400);
		assertThat(noSuchValue.getResponse().getContentAsString()).contains("setting=turbo").contains("thinking=false");

		MvcResult noValue = refused("/api/compare/" + reference + "..." + probe + "@setting");
		assertThat(noValue.getResponse().getStatus()).isEqualTo(400);
		assertThat(noValue.getResponse().getContentAsString()).contains("@name=value");

		MvcResult caveatOnSeveral = mvc
			.perform(
					post("/compare/" + reference + "..." + e + "," + probe + "/caveats").with(httpBasic(USER, PASSWORD))
						.with(csrf())
						.param("text", "on several"))
			.andReturn();
		assertThat(caveatOnSeveral.getResponse().getStatus()).isEqualTo(400);
		assertThat(caveatOnSeveral.getResponse().getContentAsString()).contains("one contender's comparison");

		MvcResult exportTooMany = refused("/compare/" + reference + "..." + nine + "/export.csv");
		assertThat(exportTooMany.getResponse().getStatus()).isEqualTo(400);
	}

	@Test
	void aComparisonWithFixedParametersTakesNoCaveatOrPublicationOfItsOwn() throws Exception {
		String probe = TestUploads.upload(mvc, "probe-reasoning-levers.json");
		String path = probe + "@setting=thinking=false..." + probe + "@setting=default";
		String text = "fixed caveat " + UUID.randomUUID();

		MvcResult caveat = mvc.perform(
				post("/compare/" + path + "/caveats").with(httpBasic(USER, PASSWORD)).with(csrf()).param("text", text))
			.andReturn();
		assertThat(caveat.getResponse().getStatus()).isEqualTo(400);
		assertThat(caveat.getResponse().getContentAsString()).contains("comparison of whole runs");
		MvcResult publish = mvc.perform(
				post("/compare/" + path + "/publish").with(httpBasic(USER, PASSWORD)).with(csrf()).param("title", text))
			.andReturn();
		assertThat(publish.getResponse().getStatus()).isEqualTo(400);

		assertThat(body("/api/compare/" + probe + "..." + probe)).doesNotContain(text);
		assertThat(jdbc.sql("select count(*) from publication where title = ?").param(text).query(Long.class).single())
			.isZero();
	}

}
