package dev.parity.browser;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A person publishes C's comparison, then E's, supersedes the first by the second, and
 * follows the links.
 */
@ParityTest
class RecordBrowserTests extends BrowserTest {

	@Autowired
	MockMvc mvc;

	@Test
	void publishesSupersedesAndBothPermalinksResolveWithBanners() throws Exception {
		String base = "http://localhost:" + port;
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, "run-c-effort-high.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		Browser.signIn(browser, base);

		String cPublished = publish(base, reference, c, "Spark is +101 % faster at decode");
		assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Spark is +101 % faster at decode");
		String ePublished = publish(base, reference, e, "Spark matches the reference at decode");

		browser.get(base + "/published/" + cPublished);
		browser.findElement(By.cssSelector("section.retract input[name=reason]"))
			.sendKeys("checkpoint and workload matched: "
					+ "the +101 % came from longer outputs (801 vs 512 tokens per request) and other weights");
		browser.findElement(By.cssSelector("section.retract input[name=replacement]")).sendKeys(ePublished);
		browser.findElement(By.cssSelector("section.retract button")).click();
		Browser.waitUpTo(browser, 10).until(d -> !d.findElements(By.id("retraction-banner")).isEmpty());

		String banner = browser.findElement(By.id("retraction-banner")).getText();
		assertThat(banner).startsWith("Superseded on")
			.contains("by Spark matches the reference at decode")
			.contains("the +101 % came from longer outputs (801 vs 512 tokens per request) and other weights");
		assertThat(browser.findElement(By.cssSelector(".headlines")).getText())
			.contains("decode_tps — no comparable cells");
		screenshot("published-superseded");
		browser.findElement(By.cssSelector("#retraction-banner a")).click();
		Browser.waitUpTo(browser, 10).until(d -> d.getCurrentUrl().endsWith("/published/" + ePublished));
		assertThat(browser.findElement(By.id("supersedes-banner")).getText())
			.contains("This publication supersedes “Spark is +101 % faster at decode” (" + cPublished + ")");
		assertThat(browser.findElement(By.cssSelector(".headlines li[data-metric=decode_tps]")).getText())
			.contains("18 of 18 comparable cells within ±10 %, median ratio 1.011");
		browser.findElement(By.cssSelector("#supersedes-banner a")).click();
		Browser.waitUpTo(browser, 10).until(d -> d.getCurrentUrl().endsWith("/published/" + cPublished));
		assertThat(browser.findElement(By.id("retraction-banner")).isDisplayed()).isTrue();
	}

	@Test
	void loosenedThresholdsShowABannerAndThePublicationAsksForAReasonAndKeepsIt() throws Exception {
		String base = "http://localhost:" + port;
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, "run-c-effort-high.json");
		Browser.signIn(browser, base);

		browser.get(base + "/compare/" + reference + "..." + c + "?vary=checkpoint&output_tolerance=10");
		String banner = browser.findElement(By.id("settings-banner")).getText();
		assertThat(banner)
			.contains("Thresholds loosened: output_tolerance 10 (default 0.1), vary checkpoint (default system)")
			.containsPattern("— \\d+ cell × metric values that the defaults grey are shown as comparable");
		screenshot("compare-loosened-banner");

		browser.findElement(By.cssSelector("section.publish summary")).click();
		browser.findElement(By.cssSelector("section.publish input[name=title]")).sendKeys("Decode +101 %");
		WebElement reason = browser.findElement(By.cssSelector("section.publish textarea[name=reason]"));
		browser.findElement(By.cssSelector("section.publish button")).click();
		// The browser refuses to send the form without the reason: still the live
		// comparison.
		assertThat(browser.getCurrentUrl()).contains("/compare/");
		assertThat(browser.executeScript("return arguments[0].validity.valueMissing", reason)).isEqualTo(true);
		reason.sendKeys("what longer outputs look like when they are not greyed");
		browser.findElement(By.cssSelector("section.publish button")).click();
		Browser.waitUpTo(browser, 10).until(d -> d.getCurrentUrl().matches(".*/published/[a-z0-9]{10}$"));

		assertThat(browser.findElement(By.id("settings-banner")).getText())
			.contains("Thresholds loosened: output_tolerance 10");
		assertThat(browser.findElement(By.id("settings-reason")).getText())
			.contains("what longer outputs look like when they are not greyed");
		screenshot("published-loosened-banner");
	}

	private String publish(String base, String baseline, String contender, String title) {
		browser.get(base + "/compare/" + baseline + "..." + contender);
		browser.findElement(By.cssSelector("section.publish summary")).click();
		browser.findElement(By.cssSelector("section.publish input[name=title]")).sendKeys(title);
		// A comparison with no comparable cell is published only when that is confirmed.
		browser.findElements(By.cssSelector("section.publish input[name=confirm_no_comparable]"))
			.forEach(box -> box.click());
		browser.findElement(By.cssSelector("section.publish button")).click();
		Browser.waitUpTo(browser, 10).until(d -> d.getCurrentUrl().matches(".*/published/[a-z0-9]{10}$"));
		String url = browser.getCurrentUrl();
		return url.substring(url.lastIndexOf('/') + 1);
	}

}
