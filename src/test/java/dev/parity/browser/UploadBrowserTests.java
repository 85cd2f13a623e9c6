package dev.parity.browser;

import dev.parity.ParityTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A person signs in, uploads a run document through the form, and sees its run page with
 * its charts drawn.
 */
@ParityTest
class UploadBrowserTests extends BrowserTest {

	@Test
	void uploadsAFixtureThroughTheFormAndSeesItsRunPageWithCharts() throws Exception {
		String base = "http://localhost:" + port;
		Browser.signIn(browser, base);
		Path file = Files.createDirectories(Path.of("target/browser-uploads"))
			.resolve("control-" + System.nanoTime() + ".json");
		Files.write(file, TestUploads.fresh("run-e-control.json"));

		browser.get(base + "/upload");
		browser.findElement(By.name("file")).sendKeys(file.toAbsolutePath().toString());
		browser.findElement(By.cssSelector("form.upload button[type=submit]")).click();
		Browser.waitUpTo(browser, 15).until(d -> d.getCurrentUrl().matches(".*/runs/[a-z0-9]{10}$"));

		assertThat(browser.findElement(By.tagName("h1")).getText())
			.startsWith("Control run: pinned checkpoint, thinking off, warmed");
		WebElement cell = browser.findElement(By.id("cell-concurrency-1--prompt_tokens-32768"));
		assertThat(cell.findElement(By.cssSelector("td[data-metric=ttft_s]")).getText()).isEqualTo("16.73");
		assertThat(browser.findElement(By.cssSelector(".provenance")).getText())
			.contains("4f2a9c1e7b3d5a0f8c6e2d1b9a7f5e3c1d0b8a6f")
			.contains("pinned")
			.contains("kv-cache-dtype");

		Browser.waitUpTo(browser, 10)
			.until(d -> !d.findElements(By.cssSelector("#run-charts canvas[data-rendered]")).isEmpty());
		List<WebElement> charts = browser
			.findElements(By.cssSelector("#run-charts canvas[data-rendered]:not(.distribution)"));
		// The control run keeps its requests' samples: their distributions are drawn too,
		// one CDF per metric.
		assertThat(browser.findElements(By.cssSelector("#run-charts canvas.distribution[data-rendered]"))).isNotEmpty();
		assertThat(charts).hasSize(5);
		assertThat(charts.get(0).getAttribute("data-rendered")).isEqualTo("4");
		Object drawn = ((JavascriptExecutor) browser).executeScript(
				"const c = Chart.getChart(arguments[0]); return c ? c.data.datasets[0].data.length : -1;",
				charts.get(0));
		assertThat(((Number) drawn).intValue()).isEqualTo(5);
	}

	@Test
	void showsEveryProblemAndKeepsTheInputWhenTheDocumentIsInvalid() {
		String base = "http://localhost:" + port;
		Browser.signIn(browser, base);
		browser.get(base + "/upload");
		String invalid = "{\"format\": \"benchmark-run/1\", \"title\": \"half a run\", \"role\": \"measured\"}";
		browser.findElement(By.name("document")).sendKeys(invalid);
		browser.findElement(By.cssSelector("form.upload button[type=submit]")).click();
		Browser.waitUpTo(browser, 10).until(d -> !d.findElements(By.id("problems")).isEmpty());
		String problems = browser.findElement(By.id("problems")).getText();
		assertThat(problems).contains("nothing was stored")
			.contains("$.system")
			.contains("$.cells")
			.contains("$.harness");
		assertThat(browser.findElement(By.name("document")).getAttribute("value")).isEqualTo(invalid);
	}

}
