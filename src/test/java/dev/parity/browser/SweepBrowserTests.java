package dev.parity.browser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Pareto chart, the SLO inputs and the rerun commands of the seed story, in a real
 * browser.
 */
@ParityTest
class SweepBrowserTests extends BrowserTest {

	@Autowired
	MockMvc mvc;

	@Test
	void theRunPageDrawsItsFrontsWithoutTheGreyedCellAndCountsGoodputFromTheSloForm() throws Exception {
		String first = TestUploads.upload(mvc, "run-a-thinking-max.json");
		for (int width : new int[] { 390, 1440 }) {
			browser.manage().window().setSize(new Dimension(width, 1000));
			browser.get(base() + "/runs/" + first);

			WebElement canvas = Browser.waitUpTo(browser, 10)
				.until(d -> d.findElements(By.cssSelector("#pareto-chart canvas[data-front-points]"))
					.stream()
					.findFirst()
					.orElse(null));
			// fronts per prompt length: 4 + 4 + 4 + 3 (65536 without its greyed
			// concurrency 2) + 2 (131072 × {1, 2})
			assertThat(canvas.getAttribute("data-front-points")).isEqualTo("17");
			assertThat(canvas.getAttribute("data-greyed-points")).isEqualTo("1");
			WebElement greyedRow = browser
				.findElement(By.cssSelector(".pareto-table tr[data-anchor=cell-concurrency-2--prompt_tokens-65536]"));
			assertThat(greyedRow.getAttribute("data-on-front")).isEqualTo("false");
			assertThat(browser.findElement(By.name("slo_ttft_s")).isDisplayed()).isTrue();
			assertThat(browser.findElement(By.name("slo_share")).isDisplayed()).isTrue();
			long scrollWidth = (Long) browser.executeScript("return document.documentElement.scrollWidth");
			long innerWidth = (Long) browser.executeScript("return window.innerWidth");
			assertThat(scrollWidth).as("page width at %d px", width).isLessThanOrEqualTo(innerWidth);
			shoot("pareto-run-" + width, browser.findElement(By.id("pareto")));
			shoot("rerun-" + width, browser.findElement(By.id("rerun")));
		}

		browser.findElement(By.name("slo_ttft_s")).sendKeys("2");
		browser.findElement(By.cssSelector("form.slo-form button[type=submit]")).click();
		Browser.waitUpTo(browser, 10).until(d -> d.getCurrentUrl().contains("slo_ttft_s=2"));
		assertThat(browser.findElement(By.cssSelector("#slo .objectives")).getText())
			.isEqualTo("Objectives: TTFT ≤ 2 s for 90 % of requests");
		// One cell has samples (and is greyed); without per-request samples a cell's
		// goodput is unknown, never "no".
		assertThat(browser.findElement(By.cssSelector("#slo table.goodput")).getText())
			.contains("no per-request samples")
			.contains("unknown");
		assertThat(browser.findElement(By.id("slo")).getText()).contains("unknown (no per-request samples)")
			.doesNotContain("no concurrency meets");
		shoot("slo-run-1440", browser.findElement(By.id("slo")));
	}

	@Test
	void theRerunCommandsCopyWithTheirButtons() throws Exception {
		String control = TestUploads.upload(mvc, "run-e-control.json");
		browser.manage().window().setSize(new Dimension(1440, 1000));
		browser.get(base() + "/runs/" + control);
		// What the button hands to the clipboard, kept where the test can read it.
		browser.executeScript(
				"navigator.clipboard.writeText = (text) => { window.copied = text; return Promise.resolve(); };");

		WebElement button = browser.findElement(By.cssSelector("button.copy-command[data-target=rerun-serve]"));
		button.click();

		Browser.waitUpTo(browser, 5).until(d -> browser.executeScript("return window.copied") != null);
		String copied = (String) browser.executeScript("return window.copied");
		assertThat(copied).startsWith("# vllm 0.11.2\nvllm serve example-org/moe-284b \\\n")
			.contains("--kv-cache-dtype fp8")
			.isEqualTo(browser.findElement(By.id("rerun-serve")).getText());
		assertThat(button.getText()).isEqualTo("Copied");
	}

	@Test
	void aComparisonDrawsBothFrontsAndSaysTheRatioAtEqualInteractivity() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String control = TestUploads.upload(mvc, "run-e-control.json");
		for (int width : new int[] { 390, 1440 }) {
			browser.manage().window().setSize(new Dimension(width, 1000));
			browser.get(base() + "/compare/" + reference + "..." + control + "?slo_ttft_s=2");

			WebElement canvas = Browser.waitUpTo(browser, 10)
				.until(d -> d.findElements(By.cssSelector("#pareto-chart canvas[data-front-points]"))
					.stream()
					.findFirst()
					.orElse(null));
			assertThat(Integer.parseInt(canvas.getAttribute("data-front-points"))).isGreaterThan(0);
			assertThat(browser.findElement(By.cssSelector("#pareto .equal-interactivity")).getText())
				.contains("prompt_tokens=280: at equal interactivity, from ");
			assertThat(browser.findElement(By.cssSelector("#slo .objectives")).getText()).contains("TTFT ≤ 2 s");
			assertThat(browser.findElements(By.cssSelector("#slo .goodput-side"))).hasSize(2);
			long scrollWidth = (Long) browser.executeScript("return document.documentElement.scrollWidth");
			long innerWidth = (Long) browser.executeScript("return window.innerWidth");
			assertThat(scrollWidth).as("page width at %d px", width).isLessThanOrEqualTo(innerWidth);
			shoot("pareto-compare-" + width, browser.findElement(By.id("pareto")));
		}
	}

	/** Keeps one section as it looks, in {@code target/screenshots/}. */
	private static void shoot(String name, WebElement section) throws IOException {
		browser.executeScript("arguments[0].scrollIntoView()", section);
		Path dir = Files.createDirectories(Path.of("target/screenshots"));
		Files.write(dir.resolve(name + ".png"), section.getScreenshotAs(OutputType.BYTES));
	}

}
