package dev.parity.browser;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.parity.Fixtures;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoAlertPresentException;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.multipart;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * Every text field of a run, a caveat and a publication holds markup and script: nothing
 * runs in a reader's browser.
 */
@ParityTest
class HostileInputBrowserTests extends BrowserTest {

	static final String PAYLOAD = "\"><script>window.__xss='script'</script><img src=x onerror=\"window.__xss='img'\">"
			+ "<svg onload=\"window.__xss='svg'\"></svg>[[${7*7}]]{{7*7}}";

	@Autowired
	MockMvc mvc;

	@Test
	void nothingAnUploaderWroteRunsInTheBrowser() throws Exception {
		ObjectNode document = (ObjectNode) TestUploads.tree(Fixtures.seedStoryBytes("run-c-effort-high.json"));
		document.put("title", "T " + PAYLOAD);
		document.putObject("source").put("url", "javascript:window.__xss='href'").put("note", PAYLOAD);
		((ObjectNode) document.get("system")).put("name", "S " + PAYLOAD).put("hardware", PAYLOAD);
		((ObjectNode) document.get("model")).put("repo", "M " + PAYLOAD).put("revision", PAYLOAD);
		ObjectNode engine = (ObjectNode) document.get("engine");
		engine.put("version", PAYLOAD);
		((ObjectNode) engine.get("flags")).put(PAYLOAD, PAYLOAD);
		((ArrayNode) engine.get("warnings")).add("max_num_batched_tokens " + PAYLOAD);
		((ObjectNode) document.get("harness")).put("command", PAYLOAD).put("version", PAYLOAD);
		((ObjectNode) document.get("workload")).put("dataset", PAYLOAD).put("reasoning", PAYLOAD);
		((ObjectNode) document.get("workload").get("request_params")).put("reasoning_effort", PAYLOAD);
		((ArrayNode) document.get("caveats")).add(PAYLOAD);
		for (int i = 0; i < document.get("cells").size(); i++) {
			((ObjectNode) document.get("cells").get(i).get("params")).put("setting", PAYLOAD);
		}
		String provenance = document.deepCopy().without(List.of("cells", "format")).toString();
		MvcResult imported = mvc.perform(multipart("/api/runs/import")
			.file(new MockMultipartFile("files", PAYLOAD + ".json", "application/json",
					TestUploads.tree(Fixtures.seedStoryBytes("run-c-effort-high.json"))
						.toString()
						.getBytes(StandardCharsets.UTF_8)))
			.param("format", "native")
			.param("provenance", provenance)
			.with(httpBasic(USER, PASSWORD))).andReturn();
		assertThat(imported.getResponse().getStatus()).as(imported.getResponse().getContentAsString()).isEqualTo(201);
		String hostileImport = TestUploads.tree(imported.getResponse().getContentAsByteArray()).get("id").asString();
		String hostile = TestUploads.upload(mvc,
				TestUploads.tree(document.toString().getBytes(StandardCharsets.UTF_8))
					.toString()
					.getBytes(StandardCharsets.UTF_8));
		String reference = TestUploads.upload(mvc, "reference.json");
		String pair = reference + "..." + hostile;
		mvc.perform(post("/compare/" + pair + "/caveats").param("text", PAYLOAD)
			.param("deciding_experiment", PAYLOAD)
			.with(httpBasic(USER, PASSWORD))
			.with(csrf()));
		mvc.perform(post("/runs/" + hostile + "/caveats").param("text", PAYLOAD)
			.with(httpBasic(USER, PASSWORD))
			.with(csrf()));
		String published = mvc
			.perform(post("/compare/" + pair + "/publish").param("title", "P " + PAYLOAD)
				.param("caption", PAYLOAD)
				.param("confirm_no_comparable", "true")
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andReturn()
			.getResponse()
			.getRedirectedUrl();

		String base = "http://localhost:" + port;
		Browser.signIn(browser, base);
		for (String page : List.of("/", "/runs", "/runs?q=%3Cscript", "/runs/" + hostile, "/runs/" + hostileImport,
				"/compare/" + pair, "/compare/" + hostile + "..." + reference, published, "/compare", "/admin/audit")) {
			browser.get(base + page);
			Browser.waitUpTo(browser, 10)
				.until(d -> ((JavascriptExecutor) d).executeScript("return document.readyState").equals("complete"));
			assertThatThrownBy(() -> browser.switchTo().alert()).as(page).isInstanceOf(NoAlertPresentException.class);
			Object xss = ((JavascriptExecutor) browser)
				.executeScript("return window.__xss === undefined ? null : window.__xss;");
			assertThat(xss).as("script ran on " + page).isNull();
			assertThat(browser
				.findElements(By.cssSelector("script:not([src]), img[src=x], svg[onload], [onerror], [onload]")))
				.as(page)
				.isEmpty();
		}
		browser.get(base + "/runs/" + hostile);
		assertThat(browser.findElement(By.tagName("body")).getText()).contains("<script>window.__xss='script'</script>")
			.contains("[[${7*7}]]{{7*7}}");
		assertThat(browser.findElements(By.cssSelector("a[href^=javascript]"))).isEmpty();
	}

}
