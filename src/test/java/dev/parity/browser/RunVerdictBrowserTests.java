package dev.parity.browser;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.history.NightlyRunsAccess;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run with a verdict says it on the first screen of its page, in the verdict's own
 * word, with its comparison.
 */
@ParityTest
class RunVerdictBrowserTests extends BrowserTest {

	@Autowired
	MockMvc mvc;

	@Test
	void aNightlySaysItsVerdictAgainstThePreviousNightOnTheFirstScreen() throws Exception {
		List<String> ids = new ArrayList<>();
		for (ObjectNode night : NightlyRunsAccess.series("nightly-box-verdict").subList(0, 4)) {
			ids.add(TestUploads.upload(mvc, night.toString().getBytes(StandardCharsets.UTF_8)));
		}
		browser.manage().window().setSize(new Dimension(390, 844));
		browser.get(base() + "/runs/" + ids.get(3));
		WebElement verdict = Browser.waitUpTo(browser, 20)
			.until(d -> d.findElements(By.cssSelector("#run-verdict:not([hidden])")).stream().findFirst().orElse(null));
		assertThat(verdict.getText()).matches("Verdict: (pass|regression|inconclusive|not comparable) — .*\\.");
		assertThat(verdict.findElement(By.tagName("a")).getAttribute("href"))
			.contains("/compare/" + ids.get(2) + "..." + ids.get(3));
		long bottom = ((Number) browser.executeScript("return arguments[0].getBoundingClientRect().bottom", verdict))
			.longValue();
		assertThat(bottom).as("on the first screen").isLessThanOrEqualTo(844);
		screenshot("run-verdict-390");

		// The first night has nothing to be compared with: nothing is said.
		browser.get(base() + "/runs/" + ids.get(0));
		Browser.waitUpTo(browser, 20).until(d -> d.findElements(By.id("run-verdict")).isEmpty());
	}

}
