package dev.parity.browser;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.deque.html.axecore.results.Results;
import com.deque.html.axecore.selenium.AxeBuilder;
import dev.parity.Fixtures;
import dev.parity.ParityTest;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A person uploads a harness's output, fills in the provenance, checks the preview and
 * lands on the run page. The preview opens without errors (what is still to fill in is
 * listed calmly), a file that is not a benchmark's output is named for what it is, and
 * another file can always be picked.
 */
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
		assertThat(browser.findElement(By.id("preview-cells")).getText()).contains("max_num_seqs=4")
			.contains("ttft_s (s)");
		// No error before the uploader acts: what is missing is a list of fields to fill
		// in, no field is marked invalid,
		// and the engine the importer named is not asked for.
		assertThat(browser.findElements(By.id("problems"))).isEmpty();
		assertThat(browser.findElements(By.cssSelector("[aria-invalid=true], .field-error"))).isEmpty();
		assertThat(browser.findElement(By.id("still-needed")).getText()).contains("Title")
			.contains("System name")
			.doesNotContain("Engine name");
		assertThat(browser.findElement(By.name("engineName")).getAttribute("value")).isEqualTo("vllm");
		assertThat(browser.findElement(By.id("store-run")).isEnabled()).isFalse();
		assertThat(browser.findElement(By.name("harnessName")).getAttribute("value")).isNotBlank();
		assertThat(browser.findElement(By.cssSelector("#another-file input[type=file]")).isDisplayed()).isTrue();
		checkAt("import-preview", 1440);
		checkAt("import-preview", 390);

		String title = "Sweep on our box " + UUID.randomUUID().toString().substring(0, 6);
		fill("title", title);
		fill("systemName", "1x L40S");
		fill("modelRepo", "example-org/chat-8b");
		fill("modelCommit", "4f2a9c1e7b3d5a0f8c6e2d1b9a7f5e3c1d0b8a6f");
		fill("engineName", "vllm");
		browser.findElement(By.name("engineFlags")).sendKeys("max-num-seqs=4");
		browser.findElement(By.cssSelector("button[value=preview]")).click();
		Browser.waitUpTo(browser, 15).until(d -> d.findElement(By.id("store-run")).isEnabled());

		assertThat(browser.findElement(By.id("preview-flags")).getText()).contains("skewed");
		Files.createDirectories(Path.of("target/screenshots"));
		screenshot("import-preview");

		browser.findElement(By.id("store-run")).click();
		Browser.waitUpTo(browser, 15).until(d -> d.getCurrentUrl().matches(".*/runs/[a-z0-9]{10}$"));
		assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo(title);
		assertThat(browser.findElement(By.cssSelector(".provenance")).getText()).contains("max-num-seqs")
			.contains("pinned")
			.contains("vllm-bench-sweep-run.json");
		Browser.waitUpTo(browser, 10)
			.until(d -> !d.findElements(By.cssSelector("#run-charts canvas[data-rendered]")).isEmpty()
					|| !d.findElements(By.cssSelector(".grid")).isEmpty());
	}

	@Test
	void anImageIsNamedForWhatItIsAndAnotherFileCanBePicked() throws Exception {
		String base = "http://localhost:" + port;
		Browser.signIn(browser, base);
		Path image = Files.createDirectories(Path.of("target/browser-uploads")).resolve("throughput-chart.png");
		Files.write(image,
				new byte[] { (byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 'I', 'H', 'D', 'R' });

		browser.get(base + "/upload");
		browser.findElement(By.name("file")).sendKeys(image.toAbsolutePath().toString());
		browser.findElement(By.cssSelector("form.upload button[type=submit]")).click();
		Browser.waitUpTo(browser, 15).until(d -> !d.findElements(By.id("not-a-benchmark")).isEmpty());
		assertThat(browser.findElement(By.id("not-a-benchmark")).getText())
			.contains("throughput-chart.png is a PNG image, not a benchmark's output");
		assertThat(browser.findElements(By.id("describe-format"))).as("no offer to describe an image's format")
			.isEmpty();
		checkAt("import-not-a-benchmark", 1440);
		checkAt("import-not-a-benchmark", 390);

		// Pick another file right there: the benchmark's output this time.
		browser.findElement(By.cssSelector("#another-file input[type=file]"))
			.sendKeys(Fixtures.sample("vllm-bench-sweep-run.json").toRealPath().toString());
		browser.findElement(By.cssSelector("#another-file button[type=submit]")).click();
		Browser.waitUpTo(browser, 15).until(d -> !d.findElements(By.id("read-as")).isEmpty());
		assertThat(browser.findElement(By.id("read-as")).getText()).isEqualTo("vllm-sweep");
		assertThat(browser.findElements(By.id("not-a-benchmark"))).isEmpty();
	}

	/**
	 * The page at this width: a screenshot of all of it, nothing wider than the window,
	 * and axe-core finds nothing.
	 */
	static void checkAt(String name, int width) throws Exception {
		browser.executeCdpCommand("Emulation.setDeviceMetricsOverride",
				Map.of("width", width, "height", 900, "deviceScaleFactor", 1, "mobile", width < 600));
		try {
			long height = Math.min(
					((Number) browser.executeScript("return document.documentElement.scrollHeight")).longValue(),
					16000);
			browser.executeCdpCommand("Emulation.setDeviceMetricsOverride",
					Map.of("width", width, "height", height, "deviceScaleFactor", 1, "mobile", width < 600));
			browser.executeAsyncScript("const done = arguments[arguments.length - 1];"
					+ " requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 50)));");
			screenshot(name + "-" + width);
			long scrollWidth = ((Number) browser.executeScript("return document.documentElement.scrollWidth"))
				.longValue();
			assertThat(scrollWidth).as(name + " at " + width + " px: nothing wider than the window")
				.isLessThanOrEqualTo(width);
			Results results = new AxeBuilder().withTags(List.of("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"))
				.analyze(browser);
			assertThat(results.getViolations()).as(name + " at " + width + " px: axe-core violations").isEmpty();
		}
		finally {
			browser.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
		}
	}

	private static void fill(String name, String value) {
		WebElement input = browser.findElement(By.name(name));
		input.clear();
		input.sendKeys(value);
	}

}
