package dev.parity.browser;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.deque.html.axecore.results.Results;
import com.deque.html.axecore.selenium.AxeBuilder;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * A reason that greys every cell of a comparison is said once, at the top; the cells then
 * carry only what is particular to them, so the seed story's first read (reference
 * against run A, greyed throughout by other weights) fits a wide screen in a few screens
 * and a phone shows the first metric's verdict on its first screen.
 */
@ParityTest
class OneReasonBrowserTests extends BrowserTest {

	/**
	 * The page's HTML before this change, in bytes (reference…A, signed out; measured
	 * with this test's request).
	 */
	private static final int HTML_BYTES_BEFORE = 228_747;

	/**
	 * The page's height at 1,440 px (9,666 px before this change), the aim: the
	 * charts folded (nothing comparable to draw), reasons said once at the top and once
	 * in their row, the rows compact (the ratio and what greys a cell under its numbers,
	 * a time's change said by its sign, the row's reasons a small badge, the row's folded
	 * flags beside its reasons) and the plan of what would settle it folded under its
	 * one-line summary: about 4,400 px.
	 */
	private static final int HEIGHT_AT_1440 = 4_500;

	private static final String OTHER_WEIGHTS = "other weights: 4f2a9c1 vs d81e07c";

	@Autowired
	MockMvc mvc;

	String path;

	@BeforeEach
	void firstRead() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String a = TestUploads.upload(mvc, "run-a-thinking-max.json");
		path = "/compare/" + reference + "..." + a;
		browser.manage().deleteAllCookies();
	}

	@AfterEach
	void wholeWindow() {
		browser.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
	}

	@Test
	void theReasonThatGreysEveryCellIsSaidOnceAtTheTop() throws Exception {
		viewport(1440, 900);
		browser.get(base() + path);
		String text = (String) browser.executeScript("return document.body.innerText");
		assertThat(count(text, OTHER_WEIGHTS)).as("times the page says " + OTHER_WEIGHTS).isEqualTo(1);
		WebElement everywhere = browser.findElement(By.cssSelector(".greyed-everywhere"));
		assertThat(everywhere.getText()).contains(OTHER_WEIGHTS)
			.contains("checkpoint-differs")
			.contains("vary=checkpoint");
		// The cells keep what is particular to them: run A's runaway cell still says its
		// numbers.
		WebElement runaway = browser.findElement(By.id("cell-concurrency-2--prompt_tokens-65536"))
			.findElement(By.cssSelector("td[data-metric=decode_tps]"));
		assertThat(runaway.getAttribute("class")).contains("greyed");
		assertThat(runaway.findElement(By.cssSelector(".pair")).getText()).isEqualTo("60.63 → 100.65");
		// Its reasons that grey several metrics of the row are said once in the row; the
		// cell links to them.
		String inRow = runaway.findElement(By.cssSelector(".grey-reason a.in-row")).getAttribute("href");
		WebElement rowReasons = browser.findElement(By.id(inRow.substring(inRow.indexOf('#') + 1)));
		assertThat(rowReasons.getAttribute("class")).contains("row-reason");
		assertThat(rowReasons.isDisplayed()).isTrue();
		assertThat(rowReasons.getText()).contains("1,015,784 vs median").doesNotContain("other weights");
		assertThat(browser.findElement(By.id("cell-concurrency-2--prompt_tokens-65536"))
			.findElements(By.xpath(".//*[contains(text(), '1,015,784 vs median')]"))).hasSize(1);
		// The note of every cell says so rather than listing twenty cells.
		assertThat(
				browser.findElement(By.cssSelector(".note-group[data-rule=checkpoint-differs] .group-notes")).getText())
			.contains("— every cell")
			.doesNotContain("concurrency 1;");
		// Every value is greyed: no chart is drawn until asked, and the page says why
		// once.
		WebElement charts = browser.findElement(By.cssSelector("section.charts"));
		assertThat(charts.findElement(By.cssSelector(".no-chart")).getText())
			.startsWith("No chart: every value is greyed")
			.contains("checkpoint-differs");
		assertThat(browser.findElements(By.cssSelector("#compare-charts canvas, #pareto-chart canvas"))).isEmpty();
		assertThat(browser.findElement(By.cssSelector("#pareto .no-chart")).getText())
			.startsWith("No chart: every point is greyed");
		// Notes of one rule that differ only in their numbers are one line, with the
		// range and how many cells.
		WebElement lengths = browser
			.findElement(By.cssSelector(".note-group[data-rule=output-length-differs] .merged"));
		assertThat(lengths.getText()).matches(".*–.*tokens/request.* in \\d+ cells.*");
		long height = number("return document.documentElement.scrollHeight");
		System.out
			.println("Page height of reference…A at 1,440 px: " + height + " px; its parts: " + browser.executeScript(
					"return [...document.querySelectorAll('main > *, main > * > section, main > * > details')].map(e => e.tagName.toLowerCase()"
							+ " + (e.id ? '#' + e.id : '') + (e.className ? '.' + String(e.className).split(' ')[0] : '') + ' '"
							+ " + Math.round(e.getBoundingClientRect().height)).join(', ')"));
		fullPageScreenshot("one-reason-compare-a-1440");
		assertThat(height).as("page height at 1,440 px").isLessThanOrEqualTo(HEIGHT_AT_1440);
		viewport(1440, 900);
		Results results = new AxeBuilder().withTags(List.of("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"))
			.analyze(browser);
		assertThat(results.getViolations()).as("axe-core violations").isEmpty();
		// Asked for, the charts are drawn as before: every bar and point hollow grey.
		charts.findElement(By.cssSelector("details.draw-anyway summary")).click();
		WebElement ratios = Browser.waitUpTo(browser, 15)
			.until(d -> d.findElements(By.cssSelector("#compare-charts canvas[data-greyed]"))
				.stream()
				.findFirst()
				.orElse(null));
		assertThat(ratios.getAttribute("data-greyed")).isEqualTo(ratios.getAttribute("data-rendered"));
		browser.findElement(By.cssSelector("#pareto details.draw-anyway summary")).click();
		WebElement pareto = Browser.waitUpTo(browser, 15)
			.until(d -> d.findElements(By.cssSelector("#pareto-chart canvas[data-front-points]"))
				.stream()
				.findFirst()
				.orElse(null));
		assertThat(pareto.getAttribute("data-front-points")).isEqualTo("0");
	}

	@Test
	void aPhoneShowsTheFirstMetricsVerdictOnItsFirstScreen() throws Exception {
		viewport(390, 844);
		browser.get(base() + path);
		WebElement sentence = browser.findElement(By.cssSelector(".headlines li .sentence"));
		assertThat(sentence.isDisplayed()).isTrue();
		long bottom = number("const r = document.querySelector('.headlines li .sentence').getBoundingClientRect();"
				+ " return Math.ceil(r.bottom + window.scrollY);");
		screenshot("one-reason-compare-a-390-first-screen");
		assertThat(bottom).as("bottom of the first verdict sentence on a 390 × 844 phone").isLessThanOrEqualTo(844);
		long width = number("return document.documentElement.scrollWidth");
		assertThat(width).isLessThanOrEqualTo(390);
	}

	@Test
	void thePageWeighsLessThanItDid() throws Exception {
		byte[] html = mvc.perform(get(path)).andReturn().getResponse().getContentAsByteArray();
		Files.createDirectories(Path.of("target/screenshots"));
		Files.write(Path.of("target/screenshots/one-reason-compare-a.html"), html);
		// Half: the charts' data is fetched only when they are drawn (every value
		// greyed), a flag's full text is its note (the row's folded flags name it), and
		// the cells write no markup they do not need.
		assertThat(html.length).as("HTML bytes of reference…A").isLessThanOrEqualTo(HTML_BYTES_BEFORE / 2);
		String page = new String(html, StandardCharsets.UTF_8);
		assertThat(page).contains("id=\"cell-concurrency-2--prompt_tokens-65536\"");
		// Nothing comparable to draw: the charts' data is fetched when they are asked
		// for, not written in the page.
		assertThat(page).doesNotContain("data-charts=\"")
			.doesNotContain("data-pareto=\"")
			.contains("data-charts-src=\"" + path + "/charts.json\"")
			.contains("data-pareto-src=\"" + path + "/pareto.json\"");
	}

	private static void viewport(int width, int height) {
		browser.executeCdpCommand("Emulation.setDeviceMetricsOverride",
				Map.of("width", width, "height", height, "deviceScaleFactor", 1, "mobile", width < 600));
	}

	private static int count(String text, String part) {
		int n = 0;
		for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
			n++;
		}
		return n;
	}

	private static long number(String script) {
		return ((Number) browser.executeScript(script)).longValue();
	}

	/** The whole page at the viewport's width, its height made the page's. */
	private static void fullPageScreenshot(String name) throws Exception {
		long width = number("return window.innerWidth");
		long height = Math.min(number("return document.documentElement.scrollHeight"), 16000);
		viewport((int) width, (int) height);
		browser.executeAsyncScript("const done = arguments[arguments.length - 1];"
				+ " requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 50)));");
		screenshot(name);
	}

}
