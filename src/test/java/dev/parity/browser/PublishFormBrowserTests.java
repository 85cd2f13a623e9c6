package dev.parity.browser;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 25, item 8: the publish form waits folded right under the headlines of the
 * comparison; its publisher picks the metric whose chart the publication draws, and the
 * publication's embed fits a phone.
 */
@ParityTest
class PublishFormBrowserTests extends BrowserTest {

	@Autowired
	MockMvc mvc;

	@Test
	void theFoldedFormUnderTheHeadlinesPublishesTheChartOfTheChosenMetricAndTheEmbedFitsAPhone() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		browser.manage().deleteAllCookies();
		browser.manage().window().setSize(new Dimension(1440, 1000));
		String comparison = base() + "/compare/" + reference + "..." + e;
		browser.get(comparison);
		// Nobody signed in: no form to publish with.
		assertThat(browser.findElements(By.cssSelector("section.publish"))).isEmpty();

		Browser.signIn(browser, base());
		browser.get(comparison);
		WebElement details = browser.findElement(By.cssSelector("section.publish details"));
		assertThat(details.getDomProperty("open")).isEqualTo("false");
		assertThat(browser.findElement(By.cssSelector("section.publish input[name=title]")).isDisplayed()).isFalse();
		// Right under the headlines, above the runs and the table.
		int form = details.getRect().getY();
		assertThat(form).isGreaterThan(browser.findElement(By.cssSelector("section.headlines")).getRect().getY())
			.isLessThan(browser.findElement(By.cssSelector("section.sides")).getRect().getY())
			.isLessThan(browser.findElement(By.cssSelector("table.compare")).getRect().getY());
		// One form to publish with, not two.
		assertThat(browser.findElements(By.cssSelector("form[action$='/publish']"))).hasSize(1);

		browser.findElement(By.cssSelector("section.publish summary")).click();
		browser.findElement(By.cssSelector("section.publish input[name=title]"))
			.sendKeys("Spark matches the reference, end to end");
		new Select(browser.findElement(By.cssSelector("section.publish select[name=chart_metric]")))
			.selectByValue("e2e_latency_s");
		screenshot("publish-form-open");
		browser.findElement(By.cssSelector("section.publish button")).click();
		Browser.waitUpTo(browser, 10).until(d -> d.getCurrentUrl().matches(".*/published/[a-z0-9]{10}$"));
		String url = browser.getCurrentUrl();
		String id = url.substring(url.lastIndexOf('/') + 1);

		// The page's own charts start with the publication's chart, as its images and
		// embeds draw it.
		assertThat(browser.findElement(By.cssSelector("p.published-chart")).getText())
			.contains("the ratio of e2e_latency_s per cell");
		browser.executeScript("document.getElementById('compare-charts').scrollIntoView()");
		WebElement first = Browser.waitUpTo(browser, 15)
			.until(d -> d.findElements(By.cssSelector("#compare-charts figure")).stream().findFirst().orElse(null));
		assertThat(first.getAttribute("class")).contains("published-chart");
		assertThat(first.findElement(By.tagName("figcaption")).getText())
			.startsWith("The publication’s chart — e2e_latency_s: ratio contender / baseline");
		browser.findElement(By.cssSelector("#embed summary")).click();
		assertThat(browser.findElement(By.id("embed")).getText()).contains("(of e2e_latency_s, as published)");
		assertThat(browser.findElement(By.cssSelector("meta[property='og:image:alt']")).getDomAttribute("content"))
			.contains("e2e_latency_s");

		browser.get(base() + "/embed/published/" + id + "/chart");
		assertThat(browser.findElement(By.cssSelector(".headline-sentence")).getText()).startsWith("e2e_latency_s");
		browser.get(base() + "/published/" + id + "/chart.svg");
		assertThat(browser.getPageSource()).contains("e2e_latency_s").doesNotContain("decode_tps");

		// The embed on a phone: the page never scrolls sideways (the table scrolls in its
		// own box).
		browser.manage().window().setSize(new Dimension(390, 844));
		browser.get(base() + "/embed/published/" + id);
		long scrollWidth = (Long) browser.executeScript("return document.documentElement.scrollWidth");
		long width = (Long) browser.executeScript("return window.innerWidth");
		screenshot("embed-390");
		assertThat(scrollWidth).isLessThanOrEqualTo(width);
		browser.manage().window().setSize(new Dimension(1440, 1000));
	}

	@Test
	void severalContendersArePublishedFromTheFoldedFormAtTheTopWithTheChosenChart() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, TestUploads.fresh("run-c-effort-high.json"));
		String e = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		browser.manage().deleteAllCookies();
		browser.manage().window().setSize(new Dimension(1440, 1000));
		Browser.signIn(browser, base());
		browser.get(base() + "/compare/" + reference + "..." + c + "," + e);
		// Folded near the top: under the page's head, above the runs and the table.
		WebElement details = browser.findElement(By.cssSelector("section.publish details"));
		assertThat(details.getDomProperty("open")).isEqualTo("false");
		WebElement summary = details.findElement(By.tagName("summary"));
		assertThat(summary.getText()).isEqualTo("Publish this comparison");
		assertThat(summary.getRect().getY())
			.isGreaterThan(browser.findElement(By.cssSelector("header.contenders-header")).getRect().getY())
			.isLessThan(browser.findElement(By.cssSelector("section.contenders-sides")).getRect().getY())
			.isLessThan(browser.findElement(By.cssSelector("table.compare")).getRect().getY());
		assertThat(browser.findElements(By.cssSelector("form[action$='/publish']"))).hasSize(1);

		summary.click();
		browser.findElement(By.cssSelector("section.publish input[name=title]"))
			.sendKeys("Effort high and the control, end to end");
		Select metric = new Select(browser.findElement(By.cssSelector("section.publish select[name=chart_metric]")));
		assertThat(metric.getOptions()).extracting(WebElement::getText).contains("decode_tps", "e2e_latency_s");
		metric.selectByValue("e2e_latency_s");
		screenshot("publish-form-contenders-open");
		browser.findElement(By.cssSelector("section.publish button")).click();
		Browser.waitUpTo(browser, 10).until(d -> d.getCurrentUrl().matches(".*/published/[a-z0-9]{10}$"));
		String url = browser.getCurrentUrl();
		String id = url.substring(url.lastIndexOf('/') + 1);

		// The published page says which chart its images and embeds draw, per contender.
		browser.findElement(By.cssSelector("#embed summary")).click();
		WebElement embed = browser.findElement(By.id("embed"));
		assertThat(embed.getText()).contains("(of e2e_latency_s, as published)");
		assertThat(embed.findElements(By.cssSelector("ul.embed-links li"))).hasSize(2);
		assertThat(embed.findElement(By.cssSelector("pre.embed-snippet")).getText())
			.contains("/embed/published/" + id + "?vs=1\"");
		browser.get(base() + "/embed/published/" + id + "/chart?vs=2");
		assertThat(browser.findElement(By.cssSelector(".headline-sentence")).getText()).startsWith("e2e_latency_s");
		browser.get(base() + "/published/" + id + "/chart.svg?vs=2");
		assertThat(browser.getPageSource()).contains("e2e_latency_s").doesNotContain("decode_tps");
	}

}
