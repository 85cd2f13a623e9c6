package dev.parity.browser;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import com.deque.html.axecore.results.Results;
import com.deque.html.axecore.results.Rule;
import com.deque.html.axecore.selenium.AxeBuilder;
import dev.parity.Fixtures;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * The seed story's pages on a phone (390 px) and a wide screen (1,920 px): nothing needs
 * sideways scrolling, the sign-in link is in view, greyed numbers say why in words with
 * their numbers, and axe-core finds no WCAG 2.2 AA violation. Full-page screenshots are
 * kept in {@code target/screenshots/} for people to look at.
 */
@ParityTest
class ReadablePagesBrowserTests extends BrowserTest {

	private static final List<String> WCAG_AA = List.of("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa");

	@Autowired
	MockMvc mvc;

	String reference;

	String a;

	String e;

	@BeforeEach
	void seedStory() throws Exception {
		reference = TestUploads.upload(mvc, "reference.json");
		a = TestUploads.upload(mvc, "run-a-thinking-max.json");
		e = TestUploads.upload(mvc, "run-e-control.json");
		browser.manage().deleteAllCookies();
	}

	@Test
	void everyPageFitsAPhoneAndAWideScreenWithSignInInView() throws Exception {
		Map<String, String> pages = readerPages();
		for (int width : new int[] { 390, 1920 }) {
			browser.manage().window().setSize(new Dimension(width, 900));
			for (Map.Entry<String, String> page : pages.entrySet()) {
				browser.get(base() + page.getValue());
				Browser.waitUpTo(browser, 10)
					.until(d -> Boolean.TRUE
						.equals(browser.executeScript("const c = document.querySelector('.chart-grid');"
								+ " return !c || c.querySelector('canvas') !== null || c.closest('details:not([open])') !== null"
								+ " || (c.dataset.charts !== undefined && JSON.parse(c.dataset.charts).charts.length === 0);")));
				long scrollWidth = number("return document.documentElement.scrollWidth");
				long innerWidth = number("return window.innerWidth");
				fullPageScreenshot(page.getKey() + "-" + width);
				assertThat(scrollWidth)
					.as("%s at %d px: page width %d within the window %d; wider: %s", page.getKey(), width, scrollWidth,
							innerWidth, widerThanTheWindow())
					.isLessThanOrEqualTo(innerWidth);
				WebElement signIn = browser.findElement(By.linkText("Sign in"));
				assertThat(signIn.isDisplayed()).as("sign-in link on %s at %d px", page.getKey(), width).isTrue();
				assertThat(signIn.getRect().getX() + signIn.getRect().getWidth()).isLessThanOrEqualTo((int) innerWidth);
			}
		}
	}

	@Test
	void greyedCellsSayWhyInWordsWithTheirNumbers() {
		browser.manage().window().setSize(new Dimension(1280, 900));
		browser.get(base() + "/compare/" + reference + "..." + a);
		WebElement decodeCell = browser.findElement(By.id("cell-concurrency-2--prompt_tokens-65536"))
			.findElement(By.cssSelector("td[data-metric=decode_tps] .grey-reason"));
		// Other weights grey every cell: said once at the top, not in each cell. The
		// reasons that grey several metrics
		// of the row are said once in the row, and the cell links to them.
		assertThat(browser.findElement(By.cssSelector(".greyed-everywhere")).getText())
			.contains("other weights: 4f2a9c1 vs d81e07c");
		String inRow = decodeCell.findElement(By.cssSelector("a.in-row")).getAttribute("href");
		WebElement decode = browser.findElement(By.id(inRow.substring(inRow.indexOf('#') + 1)));
		assertThat(decode.isDisplayed()).isTrue();
		assertThat(decodeCell.getText() + " " + decode.getText()).doesNotContain("other weights")
			.contains("tokens/request")
			.contains("1,015,784 vs median");
		WebElement cancelledRow = browser.findElement(By.id("cell-concurrency-8--prompt_tokens-131072"));
		WebElement cancelled = cancelledRow.findElement(By.cssSelector("td[data-metric=throughput_tps] .grey-reason"));
		assertThat(cancelled.getText() + " " + cancelledRow.findElement(By.cssSelector("td.cell-flags")).getText())
			.containsPattern("\\d+ of \\d+ cancelled");
		// A cell's markers lead to the notes its reasons do not link already.
		WebElement ttft = browser.findElement(By.id("cell-concurrency-1--prompt_tokens-280"))
			.findElement(By.cssSelector("td[data-metric=ttft_s]"));
		List<String> linked = ttft.findElements(By.cssSelector(".grey-reason a.reason"))
			.stream()
			.map(r -> r.getAttribute("href").substring(r.getAttribute("href").indexOf('#')))
			.toList();
		assertThat(linked).isNotEmpty();
		assertThat(ttft.findElements(By.cssSelector(".markers a"))
			.stream()
			.map(m -> m.getAttribute("href").substring(m.getAttribute("href").indexOf('#')))
			.toList()).doesNotContainAnyElementsOf(linked);

		// One entry per rule, with its cells: output-length-differs on the 18 cells where
		// both sides completed.
		WebElement lengths = browser.findElement(By.cssSelector(".note-group[data-rule=output-length-differs]"));
		assertThat(lengths.findElement(By.cssSelector(".group-count")).getText()).isEqualTo("in 18 cells");
		assertThat(browser.findElements(By.cssSelector(".note-group[data-rule=output-length-differs]"))).hasSize(1);

		// Following a reason leads to its note, which names the cell it is about.
		String href = decode.findElement(By.cssSelector("a.reason[data-rule=runaway]")).getAttribute("href");
		WebElement note = browser.findElement(By.id(href.substring(href.indexOf('#') + 1)));
		assertThat(note.getText()).contains("1,015,784").contains("prompt_tokens 65,536, concurrency 2");

		// Nothing clipped at 1,280 px: the table fits its box.
		long tableWidth = number("return document.querySelector('table.compare').scrollWidth");
		long boxWidth = number("return document.querySelector('.table-scroll').clientWidth");
		assertThat(tableWidth).isLessThanOrEqualTo(boxWidth);
	}

	@Test
	void axeFindsNoWcagViolationOnThePagesPeopleRead() throws Exception {
		browser.manage().window().setSize(new Dimension(1280, 900));
		List<String> problems = new ArrayList<>();
		Map<String, String> pages = readerPages();
		for (Map.Entry<String, String> page : pages.entrySet()) {
			browser.get(base() + page.getValue());
			problems.addAll(violations(page.getKey()));
		}
		// Dark mode keeps its contrast too.
		browser.executeCdpCommand("Emulation.setEmulatedMedia",
				Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", "dark"))));
		try {
			for (String page : List.of("compare-run-a", "run-a")) {
				browser.get(base() + pages.get(page));
				problems.addAll(violations(page + "-dark"));
				fullPageScreenshot(page + "-dark-1280");
			}
		}
		finally {
			browser.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features", List.of()));
		}
		Browser.signIn(browser, base());
		browser.get(base() + "/upload");
		problems.addAll(violations("upload"));
		browser.findElement(By.name("file"))
			.sendKeys(Fixtures.sample("vllm-bench-sweep-run.json").toRealPath().toString());
		browser.findElement(By.cssSelector("form.upload button[type=submit]")).click();
		Browser.waitUpTo(browser, 15).until(d -> !d.findElements(By.id("read-as")).isEmpty());
		problems.addAll(violations("import-preview"));
		browser.get(base() + "/compare/" + reference + "..." + e);
		problems.addAll(violations("compare-control-signed-in"));
		assertThat(problems).isEmpty();
	}

	/**
	 * The pages a reader opens, by name: start, run, both comparisons, a publication, the
	 * run list and the picker.
	 */
	private Map<String, String> readerPages() throws Exception {
		Map<String, String> pages = new LinkedHashMap<>();
		pages.put("start", "/");
		pages.put("run-a", "/runs/" + a);
		pages.put("compare-control", "/compare/" + reference + "..." + e);
		pages.put("compare-run-a", "/compare/" + reference + "..." + a);
		pages.put("publication", publication());
		pages.put("runs", "/runs");
		pages.put("compare-pick", "/compare?baseline=" + reference);
		return pages;
	}

	private String publication() throws Exception {
		String location = mvc
			.perform(post("/compare/" + reference + "..." + e + "/publish").with(user(TestUploads.USER).roles("ADMIN"))
				.with(csrf())
				.param("query", "")
				.param("title", "The control run matches the reference at decode")
				.param("caption", "Same checkpoint, same workload, warmed up."))
			.andReturn()
			.getResponse()
			.getRedirectedUrl();
		assertThat(location).contains("/published/");
		return location.substring(location.indexOf("/published/"));
	}

	private List<String> violations(String page) {
		Results results = new AxeBuilder().withTags(WCAG_AA).analyze(browser);
		List<String> found = new ArrayList<>();
		for (Rule rule : results.getViolations()) {
			found.add(page + ": " + rule.getId() + " (" + rule.getNodes().size() + " elements: "
					+ rule.getNodes()
						.stream()
						.limit(3)
						.map(node -> String.valueOf(node.getTarget()))
						.collect(Collectors.joining(", "))
					+ ") " + rule.getHelp() + " — "
					+ rule.getNodes()
						.stream()
						.limit(2)
						.map(node -> node.getHtml() + " " + node.getFailureSummary())
						.collect(Collectors.joining(" | ")));
		}
		return found;
	}

	/**
	 * The elements that reach past the window's right edge and are not inside a scrolling
	 * box, by tag and class.
	 */
	private static Object widerThanTheWindow() {
		return browser.executeScript("const out = [];" + " for (const el of document.body.querySelectorAll('*')) {"
				+ "  const r = el.getBoundingClientRect(); if (r.right <= window.innerWidth + 1) continue;"
				+ "  let p = el.parentElement, scrolled = false;"
				+ "  while (p) { const o = getComputedStyle(p).overflowX; if (o === 'auto' || o === 'scroll' || o === 'hidden') { scrolled = true; break; } p = p.parentElement; }"
				+ "  if (!scrolled) out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && el.className.baseVal === undefined ? '.' + String(el.className).trim().replace(/ +/g, '.') : '') + ' ' + Math.round(r.right));"
				+ "  if (out.length >= 5) break; }" + " return out.join(', ');");
	}

	private static long number(String script) {
		return ((Number) browser.executeScript(script)).longValue();
	}

	/**
	 * The whole page, not only what the window shows: the window is made as tall as the
	 * page (so that charts are drawn at their size), captured once two frames have been
	 * painted, and set back.
	 */
	private static void fullPageScreenshot(String name) throws Exception {
		Dimension window = browser.manage().window().getSize();
		long height = Math.min(number("return document.documentElement.scrollHeight"), 16000);
		browser.manage()
			.window()
			.setSize(new Dimension(window.getWidth(),
					(int) height + (window.getHeight() - (int) number("return window.innerHeight"))));
		browser.executeAsyncScript("const done = arguments[arguments.length - 1];"
				+ " requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 50)));");
		Path dir = Files.createDirectories(Path.of("target/screenshots"));
		Files.write(dir.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
		browser.manage().window().setSize(window);
	}

}
