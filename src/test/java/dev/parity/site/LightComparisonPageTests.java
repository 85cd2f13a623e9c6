package dev.parity.site;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A comparison of many cells is a light page: its first 100 cells and Pareto points
 * written, the rest and the charts' data fetched once it shows, and together they say
 * exactly what the page with every cell written says.
 */
@ParityTest
class LightComparisonPageTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Autowired
	MockMvc mvc;

	@Test
	void aLargeComparisonWritesItsFirstCellsAndTheRestArriveAsTheFullPageHasThem() throws Exception {
		String a = TestUploads.upload(mvc, grid(12, 12, "a", "light"));
		String b = TestUploads.upload(mvc, grid(12, 12, "b", "light"));
		String path = "/compare/" + a + "..." + b;

		Document light = page(path);
		Element table = light.selectFirst("table.compare");
		assertThat(table.select("tbody tr[id^=cell-]")).hasSize(100);
		assertThat(table.attr("data-more-src")).isEqualTo(path + "/cells?from=100");
		assertThat(table.selectFirst("tr.more-rows").text()).startsWith("Cells 101–144 of 144 are loading.");
		assertThat(table.selectFirst("tr.more-rows a.all-link").attr("href")).isEqualTo(path + "?cells=all");
		Element charts = light.getElementById("compare-charts");
		assertThat(charts.hasAttr("data-charts")).isFalse();
		assertThat(charts.attr("data-charts-src")).isEqualTo(path + "/charts.json");
		Element pareto = light.getElementById("pareto-chart");
		assertThat(pareto.hasAttr("data-pareto")).isFalse();
		assertThat(light.select("table.pareto-table tbody tr[data-anchor]")).hasSize(100);

		Document all = page(path + "?cells=all");
		assertThat(all.selectFirst("table.compare").hasAttr("data-more-src")).isFalse();
		assertThat(all.select("table.compare tr.more-rows")).isEmpty();
		List<Element> allCells = all.select("table.compare tbody tr[id^=cell-]");
		assertThat(allCells).hasSize(144);

		String rest = mvc.perform(get(path + "/cells?from=100"))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		List<Element> fetched = Jsoup.parseBodyFragment("<table><tbody>" + rest + "</tbody></table>")
			.select("tbody tr[id^=cell-]");
		assertThat(fetched).hasSize(44);
		List<Element> shown = new ArrayList<>(table.select("tbody tr[id^=cell-]"));
		shown.addAll(fetched);
		// Row for row, the same markup as the page that writes every cell.
		assertThat(shown.stream().map(Element::outerHtml).toList())
			.isEqualTo(allCells.stream().map(Element::outerHtml).toList());

		JsonNode chartData = JSON.readTree(mvc.perform(get(path + "/charts.json"))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
		assertThat(chartData).isEqualTo(JSON.readTree(all.getElementById("compare-charts").attr("data-charts")));
		JsonNode paretoData = JSON.readTree(mvc.perform(get(path + "/pareto.json"))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
		assertThat(paretoData).isEqualTo(JSON.readTree(all.getElementById("pareto-chart").attr("data-pareto")));

		String points = mvc.perform(get(path + "/points?from=100"))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		List<Element> morePoints = Jsoup.parseBodyFragment("<table><tbody>" + points + "</tbody></table>")
			.select("tbody tr[data-anchor]");
		List<Element> shownPoints = new ArrayList<>(light.select("table.pareto-table tbody tr[data-anchor]"));
		shownPoints.addAll(morePoints);
		assertThat(shownPoints.stream().map(Element::outerHtml).toList()).isEqualTo(
				all.select("table.pareto-table tbody tr[data-anchor]").stream().map(Element::outerHtml).toList());
	}

	@Test
	void theFetchedPartsKeepTheComparisonsSettings() throws Exception {
		String a = TestUploads.upload(mvc, grid(11, 10, "a", "settings"));
		String b = TestUploads.upload(mvc, grid(11, 10, "b", "settings"));
		String path = "/compare/" + a + "..." + b;
		Document light = page(path + "?band=0.001");
		assertThat(light.selectFirst("table.compare").attr("data-more-src"))
			.isEqualTo(path + "/cells?band=0.001&from=100");
		String rest = mvc.perform(get(path + "/cells?band=0.001&from=100"))
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		Document all = page(path + "?band=0.001&cells=all");
		List<Element> fetched = Jsoup.parseBodyFragment("<table><tbody>" + rest + "</tbody></table>")
			.select("tbody tr[id^=cell-]");
		assertThat(fetched.stream().map(Element::outerHtml).toList()).isEqualTo(
				all.select("table.compare tbody tr[id^=cell-]").stream().skip(100).map(Element::outerHtml).toList());
	}

	@Test
	void aLargePublicationIsLightTooAndItsPartsAreTheFrozenOnes() throws Exception {
		String a = TestUploads.upload(mvc, grid(12, 12, "a", "published"));
		String b = TestUploads.upload(mvc, grid(12, 12, "b", "published"));
		String body = mvc
			.perform(post("/api/published").with(httpBasic(TestUploads.USER, TestUploads.PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"baseline\": \"" + a + "\", \"contender\": \"" + b
						+ "\", \"title\": \"A light publication\"}"))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString();
		String id = TestUploads.tree(body.getBytes(StandardCharsets.UTF_8)).get("id").asString();
		String path = "/published/" + id;

		Document light = page(path);
		Element table = light.selectFirst("table.compare");
		assertThat(table.select("tbody tr[id^=cell-]")).hasSize(100);
		assertThat(table.attr("data-more-src")).isEqualTo(path + "/cells?from=100");
		assertThat(table.selectFirst("tr.more-rows a.all-link").attr("href")).isEqualTo(path + "?cells=all");
		Document all = page(path + "?cells=all");
		List<Element> allCells = all.select("table.compare tbody tr[id^=cell-]");
		assertThat(allCells).hasSize(144);
		String rest = mvc.perform(get(path + "/cells?from=100"))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		List<Element> shown = new ArrayList<>(table.select("tbody tr[id^=cell-]"));
		shown.addAll(
				Jsoup.parseBodyFragment("<table><tbody>" + rest + "</tbody></table>").select("tbody tr[id^=cell-]"));
		assertThat(shown.stream().map(Element::outerHtml).toList())
			.isEqualTo(allCells.stream().map(Element::outerHtml).toList());
		JsonNode chartData = JSON.readTree(mvc.perform(get(path + "/charts.json"))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
		assertThat(chartData).isEqualTo(JSON.readTree(all.getElementById("compare-charts").attr("data-charts")));
		JsonNode paretoData = JSON.readTree(mvc.perform(get(path + "/pareto.json"))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
		assertThat(paretoData).isEqualTo(JSON.readTree(all.getElementById("pareto-chart").attr("data-pareto")));
		mvc.perform(get("/published/zzzzzzzzzz/cells")).andExpect(status().isNotFound());
	}

	@Test
	void aSmallComparisonWritesEverything() throws Exception {
		String a = TestUploads.upload(mvc, grid(4, 5, "a", "small"));
		String b = TestUploads.upload(mvc, grid(4, 5, "b", "small"));
		Document page = page("/compare/" + a + "..." + b);
		assertThat(page.select("table.compare tbody tr[id^=cell-]")).hasSize(20);
		assertThat(page.selectFirst("table.compare").hasAttr("data-more-src")).isFalse();
		assertThat(page.getElementById("compare-charts").attr("data-charts")).contains("\"charts\"");
		assertThat(page.select("script[src*=compare-more]")).isEmpty();
	}

	@Test
	void badPartsAre4xx() throws Exception {
		String a = TestUploads.upload(mvc, grid(4, 5, "a", "bad"));
		String b = TestUploads.upload(mvc, grid(4, 5, "b", "bad"));
		String path = "/compare/" + a + "..." + b;
		assertThat(mvc.perform(get(path + "/cells?from=ten"))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString()).contains("from must be a whole number of rows to skip, not ten");
		mvc.perform(get(path + "/cells?from=-1")).andExpect(status().isBadRequest());
		mvc.perform(get("/compare/" + a + "...zzzzzzzzzz/cells")).andExpect(status().isNotFound());
		mvc.perform(get("/compare/" + a + "...zzzzzzzzzz/charts.json")).andExpect(status().isNotFound());
		// Past the end: no rows, not an error.
		assertThat(mvc.perform(get(path + "/cells?from=500"))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString()).doesNotContain("<tr");
	}

	private Document page(String url) throws Exception {
		return Jsoup.parse(mvc.perform(get(url))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8));
	}

	/** A run of prompts × concurrencies cells with a few samples each. */
	static byte[] grid(int prompts, int concurrencies, String variant, String name) {
		ObjectNode document = (ObjectNode) TestUploads.tree(TestUploads.fresh("run-e-control.json"));
		document.put("title", "Light page " + name + " " + variant + " " + prompts * concurrencies);
		ArrayNode cells = document.putArray("cells");
		int order = 1;
		for (int p = 0; p < prompts; p++) {
			for (int c = 0; c < concurrencies; c++) {
				ObjectNode cell = cells.addObject();
				cell.putObject("params").put("prompt_tokens", 256 * (p + 1)).put("concurrency", c + 1);
				cell.put("order", order++);
				cell.putObject("requests").put("completed", 4).put("failed", 0).put("cancelled", 0);
				cell.putObject("output_tokens").put("median", 512).put("min", 510).put("max", 515);
				double slower = variant.equals("a") ? 0 : 0.01 * ((p + c) % 3);
				cell.putObject("metrics")
					.put("ttft_s", 0.1 * (p + 1) + slower)
					.put("decode_tps", 70 - c)
					.put("throughput_tps", (70 - c) * (c + 1));
				ArrayNode samples = cell.putArray("samples");
				for (int s = 0; s < 4; s++) {
					samples.addObject()
						.put("status", "ok")
						.put("output_tokens", 512)
						.put("ttft_s", 0.1 * (p + 1) + s * 0.001);
				}
			}
		}
		return document.toString().getBytes(StandardCharsets.UTF_8);
	}

}
