package dev.parity.site;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * Issue 17, item 5: embeds may be framed by any site and keep the greying, the caveat
 * footnotes and the banners; the other pages refuse framing; the chart is a valid SVG and
 * PNG with its greyed bars grey.
 */
@ParityTest
class EmbedTests {

	static final String GREY_FILL = "#d9d9d9";

	@Autowired
	MockMvc mvc;

	@Test
	void onlyEmbedsMayBeFramedByOtherSites() throws Exception {
		String id = publishC("Framing");
		for (String path : List.of("/embed/published/" + id, "/embed/published/" + id + "/chart")) {
			MockHttpServletResponse embed = mvc.perform(get(path)).andReturn().getResponse();
			assertThat(embed.getStatus()).isEqualTo(200);
			assertThat(embed.getHeader("X-Frame-Options")).as(path).isNull();
			assertThat(embed.getHeader("Content-Security-Policy")).as(path)
				.contains("frame-ancestors *")
				.contains("script-src 'self'")
				.doesNotContain("'none'; frame");
		}
		for (String path : List.of("/published/" + id, "/", "/runs", "/login")) {
			MockHttpServletResponse page = mvc.perform(get(path)).andReturn().getResponse();
			assertThat(page.getHeader("X-Frame-Options")).as(path).isEqualTo("DENY");
			assertThat(page.getHeader("Content-Security-Policy")).as(path).contains("frame-ancestors 'none'");
		}
	}

	@Test
	void thePublicationOffersTheSnippetThatSizesItsFrameAndTheEmbedPostsItsHeight() throws Exception {
		String id = publishC("Embed box");
		org.jsoup.nodes.Document page = Jsoup.parse(mvc.perform(get("/published/" + id))
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8));
		org.jsoup.nodes.Element box = page.selectFirst("details.embed-box");
		assertThat(box).isNotNull();
		String snippet = box.selectFirst("pre.embed-snippet").text();
		// The tests' parity.base-url is http://localhost: the snippet names it, and its
		// script accepts only messages
		// from there (without a base URL the page's script fills in the address the
		// browser uses).
		assertThat(box.selectFirst("pre.embed-snippet").attr("data-origin")).isEqualTo("http://localhost");
		assertThat(snippet).startsWith("<iframe src=\"http://localhost/embed/published/" + id + "\" data-parity-embed")
			.contains("e.origin !== \"http://localhost\"")
			.contains("title=\"Embed box\"")
			.contains("e.data.type !== \"parity-embed-height\"");
		assertThat(box.select("a[href=/published/" + id + "/chart.png], a[href=/published/" + id + "/chart.svg]"))
			.hasSize(2);
		String embed = mvc.perform(get("/embed/published/" + id)).andReturn().getResponse().getContentAsString();
		assertThat(embed).containsPattern("/js/embed-height(-[0-9a-f]{32})?\\.js");
		String script = mvc.perform(get("/js/embed-height.js")).andReturn().getResponse().getContentAsString();
		assertThat(script).contains("parity-embed-height").contains("postMessage");
	}

	@Test
	void theEmbedKeepsGreyingCaveatFootnotesAndTheSupersessionBanner() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, TestUploads.fresh("run-c-effort-high.json"));
		String e = TestUploads.upload(mvc, "run-e-control.json");
		String old = publish(reference, c, "Spark is +101 % faster at decode", true);
		String replacement = publish(reference, e, "Spark matches the reference at decode", false);
		mvc.perform(
				post("/compare/" + reference + "..." + c + "/caveats").param("text", "outputs were 801 tokens, not 512")
					.param("cell", "cell-concurrency-4--prompt_tokens-280")
					.param("metric", "decode_tps")
					.with(httpBasic(USER, PASSWORD))
					.with(csrf()));
		mvc.perform(post("/published/{id}/retract", old).param("reason", "longer outputs and other weights")
			.param("replacement", replacement)
			.with(httpBasic(USER, PASSWORD))
			.with(csrf()));

		String embed = mvc.perform(get("/embed/published/" + old)).andReturn().getResponse().getContentAsString();
		assertThat(embed).contains("id=\"retraction-banner\"")
			.contains("Superseded")
			.contains("Spark matches the reference at decode")
			.contains("longer outputs and other weights");
		assertThat(embed).contains("class=\"num value greyed\"").contains("greyed:").contains("output-length-differs");
		assertThat(embed).contains("decode_tps — no comparable cells");
		assertThat(embed).contains("outputs were 801 tokens, not 512")
			.contains("id=\"note-c1\"")
			.contains("href=\"#note-c1\"");
		// No form, and no script but the one that posts the frame's height to the page
		// that frames it.
		assertThat(embed).doesNotContain("<form");
		assertThat(embed.split("<script", -1)).hasSize(2);
		assertThat(embed)
			.containsPattern("<script type=\"module\" src=\"/js/embed-height(-[0-9a-f]{32})?\\.js\"></script>");

		String chart = mvc.perform(get("/embed/published/" + old + "/chart"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(chart).contains("id=\"retraction-banner\"")
			.contains("longer outputs and other weights")
			.contains("outputs were 801 tokens, not 512")
			.contains("output-length-differs")
			.contains("/published/" + old + "/chart.svg")
			.doesNotContain("<form");
	}

	@Test
	void theChartIsAValidSvgAndPngWithGreyedBarsGreyAndTheBannerDrawnIn() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, TestUploads.fresh("run-c-effort-high.json"));
		String id = publish(reference, c, "Spark is +101 % faster at decode", true);
		mvc.perform(post("/published/{id}/retract", id).param("reason", "other weights & longer outputs")
			.with(httpBasic(USER, PASSWORD))
			.with(csrf()));

		MockHttpServletResponse svg = mvc.perform(get("/published/" + id + "/chart.svg")).andReturn().getResponse();
		assertThat(svg.getContentType()).startsWith("image/svg+xml");
		DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
		factory.setNamespaceAware(true);
		Document document = factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getContentAsByteArray()));
		assertThat(document.getDocumentElement().getLocalName()).isEqualTo("svg");
		assertThat(document.getDocumentElement().getNamespaceURI()).isEqualTo("http://www.w3.org/2000/svg");
		assertThat(document.getDocumentElement().getTextContent()).contains("Retracted on")
			.contains("other weights & longer outputs")
			.contains("decode_tps — no comparable cells");
		NodeList rects = document.getElementsByTagNameNS("http://www.w3.org/2000/svg", "rect");
		long greyBars = 0;
		long colouredBars = 0;
		for (int i = 0; i < rects.getLength(); i++) {
			Element rect = (Element) rects.item(i);
			greyBars += GREY_FILL.equals(rect.getAttribute("fill")) ? 1 : 0;
			colouredBars += "#2b6cb0".equals(rect.getAttribute("fill")) ? 1 : 0;
		}
		// C's decode ratios are all greyed (other weights, longer outputs): a grey bar
		// for each of the 18 cells with a
		// ratio, and the legend's grey box; the only coloured box is the legend's.
		assertThat(greyBars).isEqualTo(19);
		assertThat(colouredBars).isEqualTo(1);

		MockHttpServletResponse png = mvc.perform(get("/published/" + id + "/chart.png")).andReturn().getResponse();
		assertThat(png.getContentType()).isEqualTo(MediaType.IMAGE_PNG_VALUE);
		BufferedImage image = ImageIO.read(new ByteArrayInputStream(png.getContentAsByteArray()));
		assertThat(image).isNotNull();
		assertThat(image.getWidth()).isEqualTo(1200);
		assertThat(image.getHeight()).isGreaterThanOrEqualTo(630);
		assertThat(count(image, 0xd9d9d9)).isGreaterThan(2000);
	}

	@Test
	void theSvgAxisIsSetByTheComparableBarsTheGreyedOnesEndInAnArrowWithTheirValueAndEveryCellIsLabelled()
			throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		String id = publish(reference, e, "Throughput of the control run", false);

		MockHttpServletResponse svg = mvc
			.perform(get("/published/" + id + "/chart.svg").param("metric", "throughput_tps"))
			.andReturn()
			.getResponse();
		Document document = DocumentBuilderFactory.newInstance()
			.newDocumentBuilder()
			.parse(new ByteArrayInputStream(svg.getContentAsByteArray()));
		String text = document.getDocumentElement().getTextContent();
		// 18 comparable ratios near 1 set the axis; the two greyed ones (+4,323 %, +6,050
		// %) end at its top in an arrow.
		assertThat(document.getElementsByTagName("polygon").getLength()).isEqualTo(2);
		assertThat(text).contains("×44.23").contains("×61.5");
		assertThat(text).doesNotContain("×20").doesNotContain("×10");
		// every cell's label is written, turned, whole
		NodeList texts = document.getElementsByTagName("text");
		int turned = 0;
		for (int i = 0; i < texts.getLength(); i++) {
			Element label = (Element) texts.item(i);
			if (label.getAttribute("transform").startsWith("rotate(-45")) {
				turned++;
				assertThat(label.getTextContent()).doesNotEndWith("…");
			}
		}
		assertThat(turned).isEqualTo(20);
		// the subtitle is never cut: the headline sentence is there whole
		assertThat(text).doesNotContain("…");
	}

	@Test
	void comparableBarsAreColouredAndTheRunPreviewIsAPng() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		BufferedImage comparison = ImageIO
			.read(new ByteArrayInputStream(mvc.perform(get("/compare/" + reference + "..." + e + "/chart.png"))
				.andReturn()
				.getResponse()
				.getContentAsByteArray()));
		assertThat(comparison.getWidth()).isEqualTo(1200);
		assertThat(comparison.getHeight()).isEqualTo(630);
		assertThat(count(comparison, 0x2b6cb0)).isGreaterThan(2000);
		BufferedImage run = ImageIO.read(new ByteArrayInputStream(
				mvc.perform(get("/runs/" + e + "/chart.png")).andReturn().getResponse().getContentAsByteArray()));
		assertThat(run.getWidth()).isEqualTo(1200);
		assertThat(count(run, 0x2b6cb0)).isGreaterThan(2000);
	}

	private static long count(BufferedImage image, int rgb) {
		long n = 0;
		for (int y = 0; y < image.getHeight(); y++) {
			for (int x = 0; x < image.getWidth(); x++) {
				n += (image.getRGB(x, y) & 0xffffff) == rgb ? 1 : 0;
			}
		}
		return n;
	}

	private String publishC(String title) throws Exception {
		return publish(TestUploads.upload(mvc, "reference.json"), TestUploads.upload(mvc, "run-c-effort-high.json"),
				title, true);
	}

	private String publish(String baseline, String contender, String title, boolean confirm) throws Exception {
		MockHttpServletResponse response = mvc
			.perform(post("/api/published").with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"baseline\": \"" + baseline + "\", \"contender\": \"" + contender + "\", \"title\": \""
						+ title + "\", \"confirm_no_comparable\": " + confirm + "}"))
			.andReturn()
			.getResponse();
		assertThat(response.getStatus()).as(response.getContentAsString()).isEqualTo(201);
		return TestUploads.tree(response.getContentAsByteArray()).get("id").asString();
	}

}
