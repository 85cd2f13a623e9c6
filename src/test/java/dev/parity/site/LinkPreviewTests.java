package dev.parity.site;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.imageio.ImageIO;

import dev.parity.Fixtures;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.web.util.HtmlUtils;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * Issue 17, item 5: run, comparison and publication pages carry Open Graph and Twitter
 * card meta — title, the headline sentence, a PNG of the chart — with absolute links from
 * {@code parity.base-url}, never from the request's Host.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "parity.base-url=https://parity.example.org")
@AutoConfigureMockMvc
class LinkPreviewTests {

	static final String BASE = "https://parity.example.org";

	@Autowired
	MockMvc mvc;

	@Test
	void aPublicationPreviewShowsItsTitleHeadlineAndChart() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		String body = mvc
			.perform(post("/api/published").with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"baseline\": \"" + reference + "\", \"contender\": \"" + e
						+ "\", \"title\": \"Spark matches the reference at decode\"}"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		String id = TestUploads.tree(body.getBytes(StandardCharsets.UTF_8)).get("id").asString();

		Map<String, String> meta = meta(page("/published/" + id));
		assertThat(meta.get("og:title")).isEqualTo("Spark matches the reference at decode");
		assertThat(meta.get("og:description")).matches(".+ — .*comparable.*");
		assertThat(meta.get("twitter:description")).isEqualTo(meta.get("og:description"));
		assertThat(meta.get("og:url")).isEqualTo(BASE + "/published/" + id);
		assertThat(meta.get("og:image")).isEqualTo(BASE + "/published/" + id + "/chart.png");
		assertThat(meta.get("twitter:card")).isEqualTo("summary_large_image");
		assertThat(meta.get("twitter:image")).isEqualTo(meta.get("og:image"));
		assertPng(meta.get("og:image"));
	}

	@Test
	void aComparisonPreviewHasTheHeadlineOfTheChartedMetricAndKeepsTheSettings() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		String page = page("/compare/" + reference + "..." + e + "?band=0.05");
		Map<String, String> meta = meta(page);
		assertThat(meta.get("og:url")).isEqualTo(BASE + "/compare/" + reference + "..." + e + "?band=0.05");
		assertThat(meta.get("og:image")).isEqualTo(BASE + "/compare/" + reference + "..." + e + "/chart.png?band=0.05");
		String sentence = meta.get("og:description");
		assertThat(HtmlUtils.htmlUnescape(page)).contains("<span class=\"sentence\">" + sentence + "</span>");
		assertPng(meta.get("og:image"));
	}

	@Test
	void aRunPreviewSaysWhatRanAndHowMuchIsGreyedAndIgnoresAForgedHost() throws Exception {
		String c = TestUploads.upload(mvc, "run-c-effort-high.json");
		String page = mvc.perform(get("/runs/" + c).header("Host", "evil.example.com"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		Map<String, String> meta = meta(page);
		assertThat(meta.get("og:title"))
			.isEqualTo(TestUploads.tree(Fixtures.seedStoryBytes("run-c-effort-high.json")).get("title").asString());
		assertThat(meta.get("og:description")).contains("values greyed").contains(" cells, ");
		assertThat(meta.get("og:url")).isEqualTo(BASE + "/runs/" + c);
		assertThat(meta.get("og:image")).isEqualTo(BASE + "/runs/" + c + "/chart.png");
		assertThat(page).doesNotContain("evil.example.com");
		assertPng(meta.get("og:image"));
	}

	private void assertPng(String url) throws Exception {
		byte[] png = mvc.perform(get(url.substring(BASE.length()))).andReturn().getResponse().getContentAsByteArray();
		var image = ImageIO.read(new ByteArrayInputStream(png));
		assertThat(image).as(url).isNotNull();
		assertThat(image.getWidth()).isEqualTo(1200);
		assertThat(image.getHeight()).isGreaterThanOrEqualTo(630);
	}

	private String page(String path) throws Exception {
		return mvc.perform(get(path)).andReturn().getResponse().getContentAsString();
	}

	/** The page's meta tags by property or name, as the layout writes them. */
	private static Map<String, String> meta(String page) {
		Map<String, String> meta = new HashMap<>();
		Matcher tag = Pattern.compile("<meta (?:property|name)=\"([^\"]+)\" content=\"([^\"]*)\"").matcher(page);
		while (tag.find()) {
			meta.put(tag.group(1), HtmlUtils.htmlUnescape(tag.group(2)));
		}
		return meta;
	}

}
