package dev.parity.site;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;

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
 * Issue 27, target 4: pages link their scripts and styles by fingerprinted URLs kept a
 * year, the plain URLs (an ES module's relative imports) are revalidated, and a kept
 * comparison page or a published page held by a client answers 304.
 */
@ParityTest
class PagesLikeFilesTests {

	/** A script, style or web jar file linked by its content hash. */
	static final Pattern FINGERPRINTED = Pattern
		.compile("(?:src|href)=\"(/(?:js|css|webjars)/[^\"]+-[0-9a-f]{32}\\.(?:js|css))\"");

	@Autowired
	MockMvc mvc;

	@Test
	void aPageLinksItsScriptsAndStylesByTheirContentHashAndTheyAreKeptAYear() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String html = mvc.perform(get("/runs/" + reference)).andReturn().getResponse().getContentAsString();
		List<String> links = new ArrayList<>();
		Matcher matcher = FINGERPRINTED.matcher(html);
		while (matcher.find()) {
			links.add(matcher.group(1));
		}
		assertThat(links).anyMatch(link -> link.startsWith("/css/parity-"))
			.anyMatch(link -> link.startsWith("/js/run-charts-"))
			// The web jar by its version (the locator) and its hash.
			.anyMatch(link -> link.matches("/webjars/chart\\.js/[0-9.]+/dist/chart\\.umd-[0-9a-f]{32}\\.js"));
		assertThat(html).doesNotContain("src=\"/js/run-charts.js\"").doesNotContain("href=\"/css/parity.css\"");
		for (String link : links) {
			MockHttpServletResponse file = mvc.perform(get(link)).andReturn().getResponse();
			assertThat(file.getStatus()).as(link).isEqualTo(200);
			assertThat(file.getContentAsByteArray()).as(link).isNotEmpty();
			assertThat(file.getHeader("Cache-Control")).as(link).isEqualTo("max-age=31536000, public, immutable");
		}
	}

	@Test
	void aPlainUrlIsRevalidatedByItsContentHash() throws Exception {
		// What a fingerprinted module's "import './chart-style.js'" asks for.
		MockHttpServletResponse plain = mvc.perform(get("/js/chart-style.js")).andReturn().getResponse();
		assertThat(plain.getStatus()).isEqualTo(200);
		assertThat(plain.getHeader("Cache-Control")).isEqualTo("no-cache");
		String tag = plain.getHeader("ETag");
		// Weak, so that the server may compress what it sends.
		assertThat(tag).matches("W/\"[0-9a-f]{32}\"");
		MockHttpServletResponse again = mvc.perform(get("/js/chart-style.js").header("If-None-Match", tag))
			.andReturn()
			.getResponse();
		assertThat(again.getStatus()).isEqualTo(304);
		assertThat(again.getContentAsByteArray()).isEmpty();
		// The same hash names the fingerprinted URL.
		String hash = tag.substring(3, tag.length() - 1);
		assertThat(mvc.perform(get("/js/chart-style-" + hash + ".js")).andReturn().getResponse().getStatus())
			.isEqualTo(200);
	}

	@Test
	void aFingerprintThatIsNotTheFilesIsNotFound() throws Exception {
		assertThat(mvc.perform(get("/js/chart-style-0123456789abcdef0123456789abcdef.js"))
			.andReturn()
			.getResponse()
			.getStatus()).isEqualTo(404);
	}

	@Test
	void aKeptComparisonPageHeldByAClientAnswers304UntilItsRecordChanges() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		String path = "/compare/" + reference + "..." + e;
		MockHttpServletResponse first = mvc.perform(get(path)).andReturn().getResponse();
		assertThat(first.getStatus()).isEqualTo(200);
		assertThat(first.getHeader("Cache-Control")).isEqualTo("public, no-cache");
		String tag = first.getHeader("ETag");
		assertThat(tag).startsWith("W/\"");
		MockHttpServletResponse again = mvc.perform(get(path).header("If-None-Match", tag)).andReturn().getResponse();
		assertThat(again.getStatus()).isEqualTo(304);
		assertThat(again.getContentAsByteArray()).isEmpty();
		// Other settings are another page.
		assertThat(
				mvc.perform(get(path + "?band=0.2").header("If-None-Match", tag)).andReturn().getResponse().getStatus())
			.isEqualTo(200);
		// A caveat changes the record the page shows: the held copy is not current any
		// more.
		mvc.perform(post(path + "/caveats").param("text", "the L40S ran 8 °C warmer in this run")
			.param("cell", "cell-concurrency-4--prompt_tokens-280")
			.with(httpBasic(USER, PASSWORD))
			.with(csrf()));
		MockHttpServletResponse changed = mvc.perform(get(path).header("If-None-Match", tag)).andReturn().getResponse();
		assertThat(changed.getStatus()).isEqualTo(200);
		assertThat(changed.getContentAsString()).contains("the L40S ran 8 °C warmer in this run");
		assertThat(changed.getHeader("ETag")).isNotEqualTo(tag);
		// A signed-in visitor is drawn their own page: never a 304 from the shared copy.
		assertThat(mvc
			.perform(get(path).with(httpBasic(USER, PASSWORD)).header("If-None-Match", changed.getHeader("ETag")))
			.andReturn()
			.getResponse()
			.getStatus()).isEqualTo(200);
	}

	@Test
	void aPublishedPageHeldByAClientAnswers304() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		String body = mvc
			.perform(post("/api/published").with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"baseline\": \"" + reference + "\", \"contender\": \"" + e + "\", \"title\": \"Held\"}"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		String path = "/published/" + TestUploads.tree(body.getBytes(StandardCharsets.UTF_8)).get("id").asString();
		MockHttpServletResponse first = mvc.perform(get(path)).andReturn().getResponse();
		String tag = first.getHeader("ETag");
		assertThat(first.getContentAsString()).containsPattern(FINGERPRINTED);
		MockHttpServletResponse again = mvc.perform(get(path).header("If-None-Match", tag)).andReturn().getResponse();
		assertThat(again.getStatus()).isEqualTo(304);
		assertThat(again.getContentAsByteArray()).isEmpty();
	}

}
