package dev.parity.browser;

import java.nio.charset.StandardCharsets;
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
 * A reason that greys every cell of a comparison is said once, at the top; the cells then carry only what is
 * particular to them, so the seed story's first read (reference against run A, greyed throughout by other weights)
 * fits a wide screen in a few screens and a phone shows the first metric's verdict on its first screen.
 */
@ParityTest
class OneReasonBrowserTests extends BrowserTest {

	/** The page's HTML before this change, in bytes (reference…A, signed out; measured with this test's request). */
	private static final int HTML_BYTES_BEFORE = 228_747;

	/**
	 * The page's height at 1,440 px before this change was 9,666 px. The aim is 4,500 px; the charts, the
	 * Pareto view and the flags' notes still take most of what is left, so this holds the ground won so far.
	 */
	private static final int HEIGHT_AT_1440 = 8_200;

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
		assertThat(everywhere.getText()).contains(OTHER_WEIGHTS).contains("checkpoint-differs").contains("vary=checkpoint");
		// The cells keep what is particular to them: run A's runaway cell still says its numbers.
		WebElement runaway = browser.findElement(By.id("cell-concurrency-2--prompt_tokens-65536"))
			.findElement(By.cssSelector("td[data-metric=decode_tps]"));
		assertThat(runaway.getAttribute("class")).contains("greyed");
		assertThat(runaway.findElement(By.cssSelector(".grey-reason")).getText()).contains("1,015,784 vs median")
			.doesNotContain("other weights");
		// Notes of one rule that differ only in their numbers are one line, with the range and how many cells.
		WebElement lengths = browser.findElement(By.cssSelector(".note-group[data-rule=output-length-differs] .merged"));
		assertThat(lengths.getText()).matches(".*–.*tokens/request.* in \\d+ cells.*");
		long height = number("return document.documentElement.scrollHeight");
		System.out.println("Page height of reference…A at 1,440 px: " + height + " px; its parts: " + browser.executeScript(
				"return [...document.querySelectorAll('main > *, main > * > section, main > * > details')].map(e => e.tagName.toLowerCase()"
						+ " + (e.id ? '#' + e.id : '') + (e.className ? '.' + String(e.className).split(' ')[0] : '') + ' '"
						+ " + Math.round(e.getBoundingClientRect().height)).join(', ')"));
		fullPageScreenshot("one-reason-compare-a-1440");
		assertThat(height).as("page height at 1,440 px").isLessThanOrEqualTo(HEIGHT_AT_1440);
		Results results = new AxeBuilder().withTags(List.of("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"))
			.analyze(browser);
		assertThat(results.getViolations()).as("axe-core violations").isEmpty();
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
		java.nio.file.Files.createDirectories(java.nio.file.Path.of("target/screenshots"));
		java.nio.file.Files.write(java.nio.file.Path.of("target/screenshots/one-reason-compare-a.html"), html);
		// The aim is half; the cells' repeated reasons and their hover texts are gone, the charts' data is still inline.
		assertThat(html.length).as("HTML bytes of reference…A").isLessThanOrEqualTo(HTML_BYTES_BEFORE * 9 / 10);
		assertThat(new String(html, StandardCharsets.UTF_8)).contains("id=\"cell-concurrency-2--prompt_tokens-65536\"");
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
