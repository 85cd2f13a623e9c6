package dev.parity.browser;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

import dev.parity.Fixtures;
import dev.parity.ParityTest;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;


import static org.assertj.core.api.Assertions.assertThat;

/** A person uploads a harness's output, fills in the provenance, checks the preview and lands on the run page. */
@ParityTest
class ImportBrowserTests extends BrowserTest {

	@Test
	void importsAVllmSweepFileThroughThePreview() throws Exception {
		String base = "http://localhost:" + port;
		Browser.signIn(browser, base);
		Path sample = Fixtures.sample("vllm-bench-sweep-run.json").toRealPath();

		browser.get(base + "/upload");
		browser.findElement(By.name("file")).sendKeys(sample.toString());
		browser.findElement(By.cssSelector("form.upload button[type=submit]")).click();
		Browser.waitUpTo(browser, 15).until(d -> !d.findElements(By.id("read-as")).isEmpty());

		assertThat(browser.findElement(By.id("read-as")).getText()).isEqualTo("vllm-sweep");
		assertThat(browser.findElement(By.id("preview-cells")).getText()).contains("max_num_seqs=4").contains("ttft_s (s)");
		assertThat(browser.findElement(By.id("problems")).getText()).contains("$.title").contains("$.system");
		assertThat(browser.findElement(By.id("store-run")).isEnabled()).isFalse();
		assertThat(browser.findElement(By.name("harnessName")).getAttribute("value")).isNotBlank();

		String title = "Sweep on our box " + UUID.randomUUID().toString().substring(0, 6);
		browser.findElement(By.name("title")).sendKeys(title);
		browser.findElement(By.name("systemName")).sendKeys("1x L40S");
		fill("modelRepo", "example-org/chat-8b");
		fill("modelCommit", "4f2a9c1e7b3d5a0f8c6e2d1b9a7f5e3c1d0b8a6f");
		fill("engineName", "vllm");
		browser.findElement(By.name("engineFlags")).sendKeys("max-num-seqs=4");
		browser.findElement(By.cssSelector("button[value=preview]")).click();
		Browser.waitUpTo(browser, 15).until(d -> d.findElement(By.id("store-run")).isEnabled());

		assertThat(browser.findElement(By.id("preview-flags")).getText()).contains("skewed");
		Files.createDirectories(Path.of("target/screenshots"));
		Files.write(Path.of("target/screenshots/import-preview.png"), browser.getScreenshotAs(OutputType.BYTES));

		browser.findElement(By.id("store-run")).click();
		Browser.waitUpTo(browser, 15).until(d -> d.getCurrentUrl().matches(".*/runs/[a-z0-9]{10}$"));
		assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo(title);
		assertThat(browser.findElement(By.cssSelector(".provenance")).getText()).contains("max-num-seqs").contains("pinned")
			.contains("vllm-bench-sweep-run.json");
		Browser.waitUpTo(browser, 10).until(d -> !d.findElements(By.cssSelector("#run-charts canvas[data-rendered]")).isEmpty()
				|| !d.findElements(By.cssSelector(".grid")).isEmpty());
	}

	private static void fill(String name, String value) {
		WebElement input = browser.findElement(By.name(name));
		input.clear();
		input.sendKeys(value);
	}

}
