package dev.parity.browser;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;

/** A person opens a nightly series: its charts with hollow greyed points and the segment break, and sets an alert's status. */
@ParityTest
class SeriesBrowserTests extends BrowserTest {

	@Autowired
	MockMvc mvc;

	@Test
	void theSeriesPageShowsBreaksGreyedPointsAndAnAlertWithItsStatusForm() throws Exception {
		String first = null;
		for (ObjectNode night : dev.parity.history.NightlyRunsAccess.series("nightly-box-browser")) {
			String id = TestUploads.upload(mvc, night.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
			first = first == null ? id : first;
		}
		String base = "http://localhost:" + port;
		Browser.signIn(browser, base);
		browser.get(base + "/runs/" + first);
		browser.findElement(By.cssSelector("a.history-link")).click();
		Browser.waitUpTo(browser, 15).until(d -> d.getCurrentUrl().contains("/series/"));
		Browser.waitUpTo(browser, 15).until(d -> !d.findElements(By.cssSelector("#series-charts canvas[data-rendered]")).isEmpty());

		// The first metric's chart comes with the page; the others load as they scroll near.
		int charts = browser.findElements(By.cssSelector("#series-charts canvas")).size();
		assertThat(charts).isGreaterThan(1);
		((org.openqa.selenium.JavascriptExecutor) browser).executeScript(
				"document.querySelectorAll('#series-charts figure').forEach(f => f.scrollIntoView())");
		Browser.waitUpTo(browser, 15).until(d -> d.findElements(By.cssSelector("#series-charts canvas[data-rendered]")).size() == charts);
		WebElement decode = browser.findElements(By.cssSelector("#series-charts canvas")).get(0);
		assertThat(Integer.parseInt(decode.getAttribute("data-rendered"))).isEqualTo(4);
		assertThat(browser.findElements(By.cssSelector("#series-charts canvas")).stream()
			.mapToInt(c -> Integer.parseInt(c.getAttribute("data-greyed"))).sum()).isGreaterThan(0);
		assertThat(decode.getAttribute("data-breaks")).isEqualTo("1");
		assertThat(browser.findElements(By.cssSelector(".cell-picker input[type=checkbox]"))).isNotEmpty();
		assertThat(browser.findElement(By.cssSelector(".break-reason")).getText()).isEqualTo("kv-cache-dtype auto → fp8");
		Files.createDirectories(Path.of("target/screenshots"));
		Files.write(Path.of("target/screenshots/series.png"), browser.getScreenshotAs(OutputType.BYTES));

		WebElement form = browser.findElement(By.cssSelector("form.alert-status"));
		new Select(form.findElement(By.name("status"))).selectByValue("explained");
		form.findElement(By.name("reason")).sendKeys("fp8 decode kernels regressed, see caveat");
		form.findElement(By.cssSelector("button[type=submit]")).click();
		Browser.waitUpTo(browser, 15).until(d -> d.findElement(By.cssSelector(".alert .status")).getText().equals("explained"));
		assertThat(browser.findElement(By.cssSelector(".alert .history")).getAttribute("textContent"))
			.contains("fp8 decode kernels regressed");
	}

}
