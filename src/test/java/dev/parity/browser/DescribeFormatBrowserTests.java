package dev.parity.browser;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.function.Function;

import dev.parity.ParityTest;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A file no format reads (an in-house harness's JSON, of our own making) is described in
 * the import flow: its structure as a tree, a list clicked to be the cells, fields given
 * roles, a live preview, the format saved — then the usual preview and provenance form,
 * and the run stored with the version of the format that read it.
 */
@ParityTest
class DescribeFormatBrowserTests extends BrowserTest {

	@Test
	void anInHouseFileIsDescribedSavedAsAFormatAndImported() throws Exception {
		String suffix = UUID.randomUUID().toString().substring(0, 8);
		String name = "lab-bench-" + suffix;
		// The cells' list has a name of this test's own, so no other test's saved format
		// detects this file.
		String cases = "cases_" + suffix;
		String text = Files.readString(Path.of("src/test/resources/mapping/lab-bench-run.json"))
			.replace("\"cases\":", "\"" + cases + "\":");
		Path file = Files.createTempFile("lab-bench-", ".json");
		Files.writeString(file, text, StandardCharsets.UTF_8);

		Browser.signIn(browser, base());
		browser.get(base() + "/upload");
		browser.findElement(By.name("file")).sendKeys(file.toString());
		browser.findElement(By.cssSelector("form.upload button[type=submit]")).click();
		until(d -> !d.findElements(By.id("describe-format")).isEmpty());
		browser.findElement(By.id("describe-format")).click();

		until(d -> !d.findElements(By.cssSelector("button.choose-cells")).isEmpty());
		assertThat(browser.findElement(By.id("structure")).getText()).contains("base_url")
			.contains("\"http://10.0.0.7:8000/v1\"")
			.contains("list of 4");
		click("button.choose-cells[data-path='$." + cases + "[*]']");
		role("cell", "$.target_prompt_tokens", "param");
		// The param is renamed to match other runs' grids.
		WebElement paramName = browser
			.findElement(By.cssSelector("input[data-param-name-for='$.target_prompt_tokens']"));
		assertThat(paramName.getAttribute("value")).isEqualTo("target_prompt_tokens");
		paramName.clear();
		paramName.sendKeys("prompt_tokens");
		role("cell", "$.concurrency", "param");
		// A top-level field outside the cells gives the run's model.
		new Select(browser.findElement(By.cssSelector("select[data-level='document'][data-path='$.model']")))
			.selectByValue("model");
		role("cell", "$.median_ttft_s", "metric");
		role("cell", "$.median_output_tok_s", "metric");
		// Each role re-reads the cells: wait for the read that has both metrics.
		until(d -> {
			String read = d.findElement(By.id("describe-cells")).getText();
			return read.contains("concurrency=4") && read.contains("decode_tps");
		});
		String cells = browser.findElement(By.id("describe-cells")).getText();
		assertThat(cells).contains("Cells read (4)").contains("ttft_s (s) 0.0522").contains("decode_tps");

		// a unit the metric cannot be in: the problem names the key, live
		WebElement unit = browser.findElement(By.cssSelector("input[data-unit-for='$.median_ttft_s']"));
		unit.clear();
		unit.sendKeys("tokens/s");
		until(d -> d.findElement(By.id("describe-problems")).getText().contains("metrics.ttft_s.unit"));
		unit = browser.findElement(By.cssSelector("input[data-unit-for='$.median_ttft_s']"));
		unit.clear();
		unit.sendKeys("s");

		click("button.choose-samples[data-path='$.requests[*]']");
		role("sample", "$.cancelled", "status-cancelled");
		role("sample", "$.output_tokens", "output_tokens");
		role("sample", "$.ttft_s", "metric");
		role("sample", "$.output_tok_s", "metric");
		until(d -> d.findElement(By.id("mapping-json")).getText().contains("from_samples"));
		until(d -> d.findElement(By.id("describe-cells")).getText().contains("prompt_tokens=8192")
				&& d.findElement(By.cssSelector("#describe-cell-table")).getText().contains("4 0 2"));
		assertThat(browser.findElement(By.id("describe-problems")).isDisplayed()).isFalse();
		assertThat(browser.findElement(By.id("mapping-json")).getText())
			.contains("\"prompt_tokens\": \"$.target_prompt_tokens\"")
			.contains("\"provenance\"")
			.contains("\"model\": \"$.model\"");
		assertThat(browser.findElement(By.id("describe-cells")).getText()).doesNotContain("target_prompt_tokens");
		// The preview reads with a format not saved yet, and says so: no version is
		// claimed.
		assertThat(browser.findElement(By.id("describe-notes")).getText()).contains("not saved yet")
			.doesNotContain("@");
		assertThat(browser.findElement(By.id("pick-another")).getAttribute("href")).endsWith("/upload");
		ImportBrowserTests.checkAt("describe-format", 1440);
		ImportBrowserTests.checkAt("describe-format", 390);

		browser.findElement(By.id("format-name")).sendKeys(name);
		click("#save-format");
		until(d -> !d.findElements(By.id("read-as")).isEmpty());
		assertThat(browser.findElement(By.id("read-as")).getText()).isEqualTo(name + "@1");
		assertThat(browser.findElement(By.id("read-by")).getText())
			.contains("the saved format " + name + ", version 1");
		assertThat(browser.findElement(By.id("format-saved")).getText())
			.contains("You saved this format just now as " + name + ", version 1");
		assertThat(browser.findElement(By.id("preview-cells")).getText()).contains("Cells understood (4)")
			.contains("prompt_tokens=8192")
			.doesNotContain("target_prompt_tokens");
		assertThat(browser.findElements(By.id("problems"))).as("no error before the uploader acts").isEmpty();
		assertThat(browser.findElement(By.name("modelRepo")).getAttribute("value")).isEqualTo("our-org/chat-8b");
		assertThat(browser.findElement(By.id("still-needed")).getText()).contains("Title").doesNotContain("Model repo");
		ImportBrowserTests.checkAt("import-after-saving-a-format", 1440);
		ImportBrowserTests.checkAt("import-after-saving-a-format", 390);

		String title = "Lab bench " + suffix;
		fill("title", title);
		fill("systemName", "1x L40S");
		fill("modelCommit", "4f2a9c1e7b3d5a0f8c6e2d1b9a7f5e3c1d0b8a6f");
		fill("engineName", "vllm");
		browser.findElement(By.cssSelector("button[value=preview]")).click();
		until(d -> d.findElement(By.id("store-run")).isEnabled());
		browser.findElement(By.id("store-run")).click();
		until(d -> d.getCurrentUrl().matches(".*/runs/[a-z0-9]{10}$"));
		assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo(title);
		assertThat(browser.findElement(By.cssSelector(".provenance")).getText())
			.contains("parity-format-" + name + "@1.json");
	}

	/**
	 * Waits for the page; when it does not come, says what the page shows and what the
	 * browser logged.
	 */
	private static void until(Function<WebDriver, Boolean> condition) {
		try {
			Browser.waitUpTo(browser, 15).until(condition);
		}
		catch (TimeoutException ex) {
			StringBuilder seen = new StringBuilder(browser.findElement(By.tagName("main")).getText());
			try {
				browser.manage().logs().get("browser").forEach(entry -> seen.append('\n').append(entry));
			}
			catch (RuntimeException ignored) {
				// not every driver keeps the console
			}
			throw new AssertionError("the page did not come; it shows:\n" + seen, ex);
		}
	}

	private static void role(String level, String path, String role) {
		new Select(browser.findElement(By.cssSelector("select[data-level='" + level + "'][data-path='" + path + "']")))
			.selectByValue(role);
	}

	private static void click(String css) {
		browser.findElement(By.cssSelector(css)).click();
	}

	private static void fill(String name, String value) {
		WebElement input = browser.findElement(By.name(name));
		input.clear();
		input.sendKeys(value);
	}

}
