package dev.parity.site;

import java.nio.charset.StandardCharsets;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.parser.Parser;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two runs of the documented maximum, 10,000 cells each, seen anonymously: their pages
 * are light (a bounded share of the cells written, the rest fetched), and every cell on
 * one page answers too, a page at a time.
 */
@ParityTest
class LargeRunPagesTests {

	private static final int MAX_PAGE_BYTES = 5_000_000;

	private static String baseline;

	private static String contender;

	@Autowired
	MockMvc mvc;

	@BeforeEach
	void runs() throws Exception {
		if (baseline == null) {
			baseline = TestUploads.upload(mvc, grid("a"));
			contender = TestUploads.upload(mvc, grid("b"));
		}
	}

	@Test
	void aTenThousandCellRunPageIsLight() throws Exception {
		Answer answer = get("/runs/" + baseline);
		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.bytes()).as("HTML bytes of a 10,000-cell run page").isLessThan(MAX_PAGE_BYTES);
		Document page = Jsoup.parse(answer.body());
		assertThat(page.select("table.grid tbody tr[id^=cell-]")).hasSize(RunPageController.LIGHT_ROWS);
		assertThat(page.selectFirst("table.grid tr.more-rows").text())
			.startsWith("Cells 101–10,000 of 10,000 are loading.");
		String all = page.selectFirst("table.grid tr.more-rows a.all-link").attr("href");
		assertThat(all).isEqualTo("/runs/" + baseline + "?cells=all");
	}

	@Test
	void everyCellOfATenThousandCellRunAnswersAPageAtATime() throws Exception {
		Answer first = get("/runs/" + baseline + "?cells=all");
		assertThat(first.status()).isEqualTo(200);
		assertThat(first.bytes()).isLessThan(MAX_PAGE_BYTES);
		Document page = Jsoup.parse(first.body());
		assertThat(page.select("table.grid tbody tr[id^=cell-]")).hasSize(RunPageController.ALL_ROWS);
		assertThat(page.selectFirst("nav.cell-pages").text()).contains("Cells 1–1,000 of 10,000");
		String next = page.selectFirst("nav.cell-pages a[rel=next]").attr("href");
		assertThat(next).isEqualTo("/runs/" + baseline + "?cells=all&from=1000");
		Answer last = get("/runs/" + baseline + "?cells=all&from=9000");
		Document lastPage = Jsoup.parse(last.body());
		assertThat(lastPage.select("table.grid tbody tr[id^=cell-]")).hasSize(1000);
		assertThat(lastPage.selectFirst("nav.cell-pages").text()).contains("Cells 9,001–10,000 of 10,000");
		assertThat(lastPage.select("nav.cell-pages a[rel=next]")).isEmpty();
		assertThat(get("/runs/" + baseline + "?cells=all&from=ten").status()).isEqualTo(400);
	}

	@Test
	void everyCellOfATenThousandCellComparisonAnswersAPageAtATime() throws Exception {
		String path = "/compare/" + baseline + "..." + contender;
		Answer light = get(path);
		assertThat(light.status()).isEqualTo(200);
		assertThat(light.bytes()).isLessThan(MAX_PAGE_BYTES);

		Answer all = get(path + "?cells=all");
		assertThat(all.status()).as(all.body()).isEqualTo(200);
		assertThat(all.bytes()).isLessThan(MAX_PAGE_BYTES);
		Document page = Jsoup.parse(all.body());
		assertThat(page.select("table.compare tbody tr[id^=cell-]")).hasSize(ComparisonViews.ALL_ROWS);
		assertThat(page.selectFirst("nav.cell-pages").text()).contains("Cells 1–1,000 of 10,000");
		assertThat(page.selectFirst("nav.cell-pages a[rel=next]").attr("href"))
			.isEqualTo(path + "?cells=all&from=1000");
		Answer later = get(path + "?cells=all&from=5000");
		assertThat(later.status()).isEqualTo(200);
		Document laterPage = Jsoup.parse(later.body());
		assertThat(laterPage.select("table.compare tbody tr[id^=cell-]").first().id()).isEqualTo(
				Jsoup.parse(get(path + "/cells?from=5000").body(), "", Parser.xmlParser()).selectFirst("tr").id());
		assertThat(laterPage.selectFirst("nav.cell-pages a[rel=prev]").attr("href"))
			.isEqualTo(path + "?cells=all&from=4000");
	}

	/** What an anonymous GET answers. */
	private record Answer(int status, String body, int bytes) {
	}

	private Answer get(String url) throws Exception {
		MockHttpServletResponse response = mvc.perform(MockMvcRequestBuilders.get(url)).andReturn().getResponse();
		byte[] bytes = response.getContentAsByteArray();
		return new Answer(response.getStatus(), new String(bytes, StandardCharsets.UTF_8), bytes.length);
	}

	/** A run of 100 × 100 cells without per-request samples. */
	private static byte[] grid(String variant) {
		ObjectNode document = (ObjectNode) TestUploads.tree(TestUploads.fresh("run-e-control.json"));
		document.put("title", "Ten thousand cells " + variant);
		ArrayNode cells = document.putArray("cells");
		int order = 1;
		for (int p = 0; p < 100; p++) {
			for (int c = 0; c < 100; c++) {
				ObjectNode cell = cells.addObject();
				cell.putObject("params").put("prompt_tokens", 256 * (p + 1)).put("concurrency", c + 1);
				cell.put("order", order++);
				cell.putObject("requests").put("completed", 4).put("failed", 0).put("cancelled", 0);
				cell.putObject("output_tokens").put("median", 512).put("min", 510).put("max", 515);
				double slower = variant.equals("a") ? 0 : 0.01 * ((p + c) % 3);
				cell.putObject("metrics")
					.put("ttft_s", 0.1 * (p + 1) + slower)
					.put("decode_tps", 200 - c)
					.put("throughput_tps", (200 - c) * (c + 1));
			}
		}
		return document.toString().getBytes(StandardCharsets.UTF_8);
	}

}
