package dev.parity.browser;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpServer;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * Issue 17, item 5: a blog on another origin frames the embed of a superseded
 * publication, which shows inside the frame with its banner, greyed cells and caveats;
 * the same blog cannot frame the publication's own page.
 */
@ParityTest
class EmbedBrowserTests extends BrowserTest {

	@Autowired
	MockMvc mvc;

	@Test
	void aPageOnAnotherOriginFramesTheEmbedButNotTheOtherPages() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, TestUploads.fresh("run-c-effort-high.json"));
		String e = TestUploads.upload(mvc, "run-e-control.json");
		String old = publish(reference, c, "Spark is +101 % faster at decode", true);
		String replacement = publish(reference, e, "Spark matches the reference at decode", false);
		mvc.perform(
				post("/compare/" + reference + "..." + c + "/caveats").param("text", "outputs were 801 tokens, not 512")
					.with(httpBasic(USER, PASSWORD))
					.with(csrf()));
		mvc.perform(post("/published/{id}/retract", old).param("reason", "longer outputs and other weights")
			.param("replacement", replacement)
			.with(httpBasic(USER, PASSWORD))
			.with(csrf()));

		String blog = """
				<!DOCTYPE html><html><head><title>A blog</title></head><body><h1>My benchmark post</h1>
				<iframe id="embed" name="embed" src="%1$s/embed/published/%2$s" width="900" height="700"></iframe>
				<iframe id="chart" name="chart" src="%1$s/embed/published/%2$s/chart" width="900" height="700"></iframe>
				<iframe id="page" name="page" src="%1$s/published/%2$s" width="900" height="300"></iframe>
				</body></html>""".formatted(base(), old);
		HttpServer other = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		other.createContext("/", exchange -> {
			byte[] body = blog.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
			exchange.sendResponseHeaders(200, body.length);
			exchange.getResponseBody().write(body);
			exchange.close();
		});
		other.start();
		try {
			browser.get("http://127.0.0.1:" + other.getAddress().getPort() + "/post.html");
			Browser.waitUpTo(browser, 20)
				.until(d -> (Boolean) ((JavascriptExecutor) d)
					.executeScript("return document.readyState === 'complete'"));
			screenshot("embed-framed-by-another-origin");

			browser.switchTo().frame("embed");
			Browser.waitUpTo(browser, 20).until(d -> !d.findElements(By.id("retraction-banner")).isEmpty());
			assertThat(browser.findElement(By.id("retraction-banner")).getText()).startsWith("Superseded on")
				.contains("Spark matches the reference at decode")
				.contains("longer outputs and other weights");
			assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Spark is +101 % faster at decode");
			assertThat(browser.findElements(By.cssSelector("td.greyed .grey-reason"))).isNotEmpty();
			assertThat(browser.findElement(By.cssSelector(".embed-caveats")).getText())
				.contains("outputs were 801 tokens, not 512");
			assertThat((Boolean) browser.executeScript(
					"const img = document.querySelector('.embed-chart img'); return img.complete && img.naturalWidth > 0;"))
				.as("the chart's SVG loads inside the frame")
				.isTrue();
			browser.switchTo().defaultContent();

			browser.switchTo().frame("chart");
			Browser.waitUpTo(browser, 20).until(d -> !d.findElements(By.id("retraction-banner")).isEmpty());
			assertThat(browser.findElement(By.cssSelector(".embed-notes")).getText()).contains("output-length-differs");
			browser.switchTo().defaultContent();

			browser.switchTo().frame("page");
			assertThat(browser.findElements(By.cssSelector("header.publication-header")))
				.as("the page refuses the frame")
				.isEmpty();
			assertThat(browser.findElements(By.id("retraction-banner"))).isEmpty();
			browser.switchTo().defaultContent();
		}
		finally {
			browser.switchTo().defaultContent();
			other.stop(0);
		}
	}

	@Test
	void theSnippetOfThePublicationSizesItsFrameOnAnotherSite() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		String id = publish(reference, e, "Spark matches the reference at decode", false);
		browser.get(base() + "/published/" + id);
		String snippet = (String) browser
			.executeScript("return document.querySelector('pre.embed-snippet').textContent");
		// The tests' parity.base-url names no port; the snippet as a site whose base URL
		// is this server's gives it.
		snippet = snippet.replace("\"http://localhost\"", "\"" + base() + "\"")
			.replace("\"http://localhost/", "\"" + base() + "/");
		String blog = "<!DOCTYPE html><html><head><title>A blog</title></head><body><h1>My post</h1>" + snippet
				+ "<p id=\"after\">The end.</p></body></html>";
		HttpServer other = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		other.createContext("/", exchange -> {
			byte[] body = blog.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
			exchange.sendResponseHeaders(200, body.length);
			exchange.getResponseBody().write(body);
			exchange.close();
		});
		other.start();
		try {
			browser.get("http://127.0.0.1:" + other.getAddress().getPort() + "/post.html");
			// The frame starts at 600 px; the embed posts its height and the snippet's
			// script sets it.
			Browser.waitUpTo(browser, 20)
				.until(d -> !"600px".equals(((JavascriptExecutor) d)
					.executeScript("return document.querySelector('iframe[data-parity-embed]').style.height")));
			long frame = ((Number) ((JavascriptExecutor) browser).executeScript(
					"return document.querySelector('iframe[data-parity-embed]').getBoundingClientRect().height"))
				.longValue();
			browser.switchTo().frame(browser.findElement(By.cssSelector("iframe[data-parity-embed]")));
			long content = ((Number) ((JavascriptExecutor) browser)
				.executeScript("return document.documentElement.scrollHeight")).longValue();
			browser.switchTo().defaultContent();
			assertThat(frame).as("the frame's height against the embed's content").isBetween(content - 2, content + 2);
			assertThat(frame).isGreaterThan(600);
		}
		finally {
			other.stop(0);
		}
	}

	private String publish(String baseline, String contender, String title, boolean confirm) throws Exception {
		String body = mvc
			.perform(MockMvcRequestBuilders.post("/api/published")
				.with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"baseline\": \"" + baseline + "\", \"contender\": \"" + contender + "\", \"title\": \""
						+ title + "\", \"confirm_no_comparable\": " + confirm + "}"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		return TestUploads.tree(body.getBytes(StandardCharsets.UTF_8)).get("id").asString();
	}

}
