package dev.parity.browser;

import java.util.List;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;

/** What a reader of a comparison sees in a real browser. */
@ParityTest
class ComparisonBrowserTests extends BrowserTest {

	@Autowired
	MockMvc mvc;

	@Test
	void controlComparisonShowsTheHeadlineAComparableTtftAndAGreyedSpike() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		browser.get("http://localhost:" + port + "/compare/" + reference + "..." + e);

		WebElement decode = browser.findElement(By.cssSelector(".headlines li[data-metric=decode_tps]"));
		assertThat(decode.findElement(By.cssSelector(".sentence")).getText()).isEqualTo(
				"decode_tps — 18 of 18 comparable cells within ±10 %, median ratio 1.011; 2 excluded (failures ×2)");
		assertThat(decode.findElement(By.cssSelector(".verdicts")).getText()).isEqualTo("verdicts: 18 within-band");

		WebElement row = browser.findElement(By.id("cell-concurrency-1--prompt_tokens-32768"));
		WebElement ttft = row.findElement(By.cssSelector("td[data-metric=ttft_s]"));
		// The cell says a time's change by its sign, the words in its hover.
		assertThat(ttft.getText()).contains("22.96 → 16.73").contains("−27 % (1.37× faster)");
		assertThat(ttft.findElement(By.cssSelector(".ratio")).getAttribute("title"))
			.isEqualTo("ratio 0.729: 27 % less time (1.37× faster)");
		assertThat(ttft.getAttribute("class")).contains("comparable").doesNotContain("greyed");

		WebElement spike = browser.findElement(By.id("cell-concurrency-4--prompt_tokens-280"))
			.findElement(By.cssSelector("td[data-metric=ttft_s]"));
		assertThat(spike.getAttribute("class")).contains("greyed");
		assertThat(spike.findElement(By.cssSelector(".grey-reason")).isDisplayed()).isTrue();
		assertThat(reasons(spike)).startsWith("greyed: 3.41 s vs ").contains(" at concurrency 8 later");
		assertThat(reason(spike, "latency-spike").isDisplayed()).isTrue();
		assertThat(spike.getCssValue("background-color")).isNotEqualTo(ttft.getCssValue("background-color"));

		WebElement cancelled = browser.findElement(By.id("cell-concurrency-8--prompt_tokens-131072"))
			.findElement(By.cssSelector("td[data-metric=throughput_tps]"));
		assertThat(reasons(cancelled)).startsWith("greyed: 8 of 8 cancelled");
		WebElement reason = reason(cancelled, "failures");
		String marker = reason.getAttribute("href");
		WebElement note = browser.findElement(By.id(marker.substring(marker.indexOf('#') + 1)));
		// The note sits in its rule's folded list; following the reason opens it.
		reason.click();
		Browser.waitUpTo(browser, 5).until(d -> note.isDisplayed());
		assertThat(note.getText()).contains("cancelled").contains("prompt_tokens 131,072, concurrency 8");
		assertThat(note.findElement(By.xpath("ancestor::li[contains(@class, 'note-group')]")).getAttribute("data-rule"))
			.isEqualTo("failures");

		Browser.waitUpTo(browser, 10)
			.until(d -> !d.findElements(By.cssSelector("#compare-charts canvas[data-greyed]")).isEmpty());
		List<WebElement> ratioCharts = browser.findElements(By.cssSelector("#compare-charts canvas[data-greyed]"));
		// ttft: 18 cells have both values (the reference has none where it cancelled),
		// one greyed by the spike.
		WebElement ttftRatios = ratioCharts.get(0);
		assertThat(ttftRatios.getAttribute("data-rendered")).isEqualTo("18");
		assertThat(ttftRatios.getAttribute("data-greyed")).isEqualTo("1");
		// throughput: all 20 cells have a ratio; the two against cancelled requests are
		// drawn greyed.
		WebElement throughputRatios = ratioCharts.get(3);
		assertThat(throughputRatios.getAttribute("data-rendered")).isEqualTo("20");
		assertThat(throughputRatios.getAttribute("data-greyed")).isEqualTo("2");
	}

	@Test
	void firstReadGreysEveryCellWithItsReason() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String a = TestUploads.upload(mvc, "run-a-thinking-max.json");
		browser.get("http://localhost:" + port + "/compare/" + reference + "..." + a);

		for (WebElement headline : browser.findElements(By.cssSelector(".headlines li"))) {
			assertThat(headline.getText()).contains("no comparable cells");
		}
		assertThat(browser.findElement(By.cssSelector(".comparison-flags")).getText()).contains("checkpoint-differs");
		WebElement runaway = browser.findElement(By.id("cell-concurrency-2--prompt_tokens-65536"));
		WebElement decode = runaway.findElement(By.cssSelector("td[data-metric=decode_tps]"));
		assertThat(decode.getAttribute("class")).contains("greyed");
		// Other weights grey every cell: said once, above the table; the cell keeps what
		// is its own.
		assertThat(browser.findElement(By.cssSelector(".greyed-everywhere")).getText())
			.contains("other weights: 4f2a9c1 vs d81e07c")
			.contains("greys every cell");
		assertThat(reasons(decode)).doesNotContain("other weights").contains("1,015,784 vs median 4,011 tokens");
		assertThat(runaway.findElement(By.cssSelector("td.cell-flags")).getAttribute("textContent")).contains("runaway")
			.contains("unstable");
		WebElement cancelled = browser.findElement(By.id("cell-concurrency-4--prompt_tokens-131072"))
			.findElement(By.cssSelector("td[data-metric=throughput_tps]"));
		assertThat(cancelled.getText()).contains("+4,323 %").contains("greyed:");
		assertThat(reasons(cancelled)).contains("4 of 4 cancelled");
		screenshot("compare-run-a");
	}

	@Test
	void effortOffKeepsTtftComparableBesideAGreyedDecode() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String d = TestUploads.upload(mvc, "run-d-effort-off.json");
		browser.get("http://localhost:" + port + "/compare/" + reference + "..." + d
				+ "#cell-concurrency-1--prompt_tokens-8192");
		WebElement row = browser.findElement(By.id("cell-concurrency-1--prompt_tokens-8192"));
		WebElement ttft = row.findElement(By.cssSelector("td[data-metric=ttft_s]"));
		WebElement decode = row.findElement(By.cssSelector("td[data-metric=decode_tps]"));
		assertThat(ttft.getAttribute("class")).contains("comparable");
		assertThat(ttft.findElements(By.cssSelector(".grey-reason"))).isEmpty();
		assertThat(decode.getAttribute("class")).contains("greyed");
		assertThat(reasons(decode)).matches("greyed: 5\\d\\d vs 4,\\d{3} tokens/request");
		assertThat(browser.findElement(By.cssSelector(".provenance-diff")).getText())
			.contains("workload.request_params");
	}

	/**
	 * A greyed cell's reasons in words: those said in the cell, else the row's line its
	 * number links to (a reason that greys several metrics of a row is said once there),
	 * e.g. "greyed: 8 of 8 cancelled".
	 */
	private static String reasons(WebElement cell) {
		WebElement own = cell.findElement(By.cssSelector(".grey-reason"));
		List<WebElement> inRow = own.findElements(By.cssSelector("a.in-row"));
		if (inRow.isEmpty()) {
			return own.getText();
		}
		List<String> numbers = List.of(inRow.get(0).getText().split(","));
		List<String> said = rowLine(inRow.get(0)).getText()
			.lines()
			.filter(line -> numbers.contains(line.substring(0, line.indexOf(' '))))
			.map(line -> line.substring(line.indexOf("greyed: ") + "greyed: ".length()))
			.toList();
		String rest = own.getText().replaceFirst("^greyed: [\\d,]+\\s*", "");
		return "greyed: " + String.join("; ", said) + (rest.isEmpty() ? "" : "; " + rest);
	}

	/**
	 * The link of a greyed cell to its note of this rule: in the cell, or in the row's
	 * line the cell links to.
	 */
	private static WebElement reason(WebElement cell, String rule) {
		List<WebElement> own = cell.findElements(By.cssSelector("a.reason[data-rule=" + rule + "]"));
		if (!own.isEmpty()) {
			return own.get(0);
		}
		return rowLine(cell.findElement(By.cssSelector("a.in-row")))
			.findElement(By.cssSelector("a.reason[data-rule=" + rule + "]"));
	}

	private static WebElement rowLine(WebElement inRow) {
		String href = inRow.getAttribute("href");
		return browser.findElement(By.id(href.substring(href.indexOf('#') + 1)));
	}

}
