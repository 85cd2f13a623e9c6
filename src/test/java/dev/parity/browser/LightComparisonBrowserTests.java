package dev.parity.browser;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.site.LightComparisonPageTestsAccess;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A light comparison page in a real browser: the cells and charts it did not write
 * arrive, and links to them work.
 */
@ParityTest
class LightComparisonBrowserTests extends BrowserTest {

	@Autowired
	MockMvc mvc;

	@Test
	void theOtherCellsAndTheChartsArriveAndALinkToALateCellLandsOnIt() throws Exception {
		String a = TestUploads.upload(mvc, LightComparisonPageTestsAccess.grid(12, 12, "a", "browser"));
		String b = TestUploads.upload(mvc, LightComparisonPageTestsAccess.grid(12, 12, "b", "browser"));
		String path = base() + "/compare/" + a + "..." + b;
		for (int width : new int[] { 390, 1440 }) {
			browser.manage().window().setSize(new Dimension(width, 1000));
			browser.get(path);
			Browser.waitUpTo(browser, 15)
				.until(d -> d.findElements(By.cssSelector("table.compare tbody tr[id^=cell-]")).size() == 144);
			assertThat(browser.findElements(By.cssSelector("table.compare tr.more-rows"))).isEmpty();
			Browser.waitUpTo(browser, 15)
				.until(d -> d.findElements(By.cssSelector("table.pareto-table tbody tr[data-anchor]")).size() == 288);
			Browser.waitUpTo(browser, 15)
				.until(d -> !d.findElements(By.cssSelector("#compare-charts canvas[data-greyed]")).isEmpty());
			WebElement pareto = Browser.waitUpTo(browser, 15)
				.until(d -> d.findElements(By.cssSelector("#pareto-chart canvas[data-front-points]"))
					.stream()
					.findFirst()
					.orElse(null));
			assertThat(Integer.parseInt(pareto.getAttribute("data-front-points"))).isPositive();
			long scrollWidth = (Long) browser.executeScript("return document.documentElement.scrollWidth");
			long innerWidth = (Long) browser.executeScript("return window.innerWidth");
			assertThat(scrollWidth).as("page width at %d px", width).isLessThanOrEqualTo(innerWidth);
		}

		// A link from a blog post to the last cell, which the page did not write: the
		// browser lands on it once it is in.
		String last = "cell-concurrency-12--prompt_tokens-3072";
		browser.get("about:blank");
		browser.get(path + "#" + last);
		Browser.waitUpTo(browser, 15).until(d -> !d.findElements(By.id(last)).isEmpty());
		// Scrolled to its top, give or take the fraction of a pixel of the row's
		// position.
		Browser.waitUpTo(browser, 15)
			.until(d -> (Boolean) browser.executeScript(
					"const r = document.getElementById(arguments[0]).getBoundingClientRect(); return r.top > -1 && r.top < window.innerHeight;",
					last));
		screenshot("light-comparison-late-cell");
	}

}
