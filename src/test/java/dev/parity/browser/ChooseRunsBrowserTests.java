package dev.parity.browser;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Choosing runs by name in a browser: the picker's search, the run list's checkboxes,
 * columns headed by titles.
 */
@ParityTest
class ChooseRunsBrowserTests extends BrowserTest {

	@Autowired
	MockMvc mvc;

	@Test
	void checkThreeRunsInTheListAndCompareThemUnderTheirTitles() throws Exception {
		String reference = TestUploads.upload(mvc, TestUploads.fresh("reference.json"));
		String a = TestUploads.upload(mvc, TestUploads.fresh("run-a-thinking-max.json"));
		String e = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		browser.manage().window().setSize(new Dimension(1440, 900));
		browser.get(base() + "/runs");
		for (String id : List.of(a, reference, e)) {
			browser.findElement(By.id("compare-" + id)).click();
		}
		browser.findElement(By.cssSelector("form.compare-checked button[type=submit]")).click();
		Browser.waitUpTo(browser, 15).until(d -> d.getCurrentUrl().contains("/compare/" + reference + "..."));
		assertThat(browser.getCurrentUrl()).contains(a).contains(e);
		List<WebElement> columns = browser.findElements(By.cssSelector("th.contender-col"));
		assertThat(columns).isNotEmpty();
		String first = columns.get(0).getText();
		// Headed by the run's title (the id below it), the same title as the contender's
		// card.
		String cardTitle = browser.findElement(By.cssSelector(".contender-side h3")).getText();
		assertThat(first).startsWith("#1 " + cardTitle);
		assertThat(browser.findElement(By.cssSelector("th.baseline-col")).getText()).startsWith("baseline: ");
		screenshot("compare-checked-runs-1440");
	}

	@Test
	void findARunByATitleWordAndCompareIt() throws Exception {
		String word = "osprey" + UUID.randomUUID().toString().substring(0, 6);
		String reference = TestUploads.upload(mvc, TestUploads.fresh("reference.json"));
		ObjectNode document = (ObjectNode) TestUploads.tree(TestUploads.fresh("run-e-control.json"));
		document.put("title", "Control " + word);
		String control = TestUploads.upload(mvc, document.toString().getBytes(StandardCharsets.UTF_8));
		for (int width : new int[] { 390, 1440 }) {
			browser.manage().window().setSize(new Dimension(width, 900));
			browser.get(base() + "/compare?baseline=" + reference);
			WebElement search = browser.findElement(By.cssSelector("form.compare-search input[name=q]"));
			search.sendKeys(word);
			browser.findElement(By.cssSelector("form.compare-search button[type=submit]")).click();
			Browser.waitUpTo(browser, 10).until(d -> d.getCurrentUrl().contains("q=" + word));
			assertThat(browser.findElements(By.cssSelector("table.pick-runs tbody tr"))).hasSizeGreaterThanOrEqualTo(2);
			assertThat(browser.findElement(By.id("baseline-" + reference)).isSelected()).isTrue();
			long scrollWidth = (Long) browser.executeScript("return document.documentElement.scrollWidth");
			long innerWidth = (Long) browser.executeScript("return window.innerWidth");
			assertThat(scrollWidth).as("picker width at %d px", width).isLessThanOrEqualTo(innerWidth);
			screenshot("compare-picker-" + width);
		}
		browser.findElement(By.id("contender-" + control)).click();
		browser.findElement(By.cssSelector("form.compare-pick button[type=submit]")).click();
		Browser.waitUpTo(browser, 15).until(d -> d.getCurrentUrl().contains("/compare/" + reference + "..." + control));
		assertThat(browser.findElement(By.cssSelector(".sides")).getText()).contains("Control " + word);
	}

}
