package dev.parity.browser;

import java.util.List;

import com.deque.html.axecore.results.Results;
import com.deque.html.axecore.selenium.AxeBuilder;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;

/** The several-contenders page in a real browser, from a phone to a wide screen. */
@ParityTest
class ContendersBrowserTests extends BrowserTest {

	@Autowired
	MockMvc mvc;

	@Test
	void referenceAgainstThreeRunsShowsEachContendersOwnGreyingAndHeadlines() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String a = TestUploads.upload(mvc, "run-a-thinking-max.json");
		String c = TestUploads.upload(mvc, "run-c-effort-high.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");

		for (int width : new int[] { 1440, 390 }) {
			browser.manage().window().setSize(new Dimension(width, 1600));
			browser.get(base() + "/compare/" + reference + "..." + a + "," + c + "," + e);

			List<WebElement> contenders = browser.findElements(By.cssSelector(".contender-side"));
			assertThat(contenders).extracting(side -> side.getAttribute("data-contender")).containsExactly(a, c, e);
			// One set of headlines per contender, each against the baseline.
			WebElement control = contenders.get(2);
			assertThat(control.findElement(By.cssSelector(".contender-headlines li[data-metric=decode_tps] .sentence"))
				.getText()).isEqualTo(
						"decode_tps — 18 of 18 comparable cells within ±10 %, median ratio 1.011; 2 excluded (failures ×2)");
			assertThat(contenders.get(0)
				.findElement(By.cssSelector(".contender-headlines li[data-metric=decode_tps]"))
				.getText()).contains("no comparable cells");

			// The same cell and metric: greyed for A (other weights), comparable for E,
			// each with its own ratio.
			WebElement row = browser.findElement(By.id("cell-concurrency-1--prompt_tokens-32768"));
			WebElement ofA = row.findElement(By.cssSelector("td[data-metric=ttft_s][data-contender='" + a + "']"));
			WebElement ofE = row.findElement(By.cssSelector("td[data-metric=ttft_s][data-contender='" + e + "']"));
			assertThat(ofA.getAttribute("class")).contains("greyed");
			assertThat(ofA.findElement(By.cssSelector("a.reason")).getAttribute("data-rule"))
				.isEqualTo("checkpoint-differs");
			assertThat(ofE.getAttribute("class")).contains("comparable");
			assertThat(ofE.getText()).contains("16.73").contains("−27 % (1.37× faster)");
			assertThat(row.findElement(By.cssSelector("td.baseline-value[data-metric=ttft_s]")).getText())
				.isEqualTo("22.96");
			assertThat(ofA.getCssValue("background-color")).isNotEqualTo(ofE.getCssValue("background-color"));

			// A greyed value's reason leads to that contender's note, not another's.
			String href = ofA.findElement(By.cssSelector("a.reason")).getAttribute("href");
			String noteId = href.substring(href.indexOf('#') + 1);
			assertThat(noteId).startsWith("vs1-");
			assertThat(browser.findElement(By.id(noteId)).getText()).contains("4f2a9c1");

			// The page fits the screen: only the table scrolls, inside its box.
			Object overflow = browser.executeScript("return document.documentElement.scrollWidth - window.innerWidth;");
			assertThat(((Number) overflow).intValue()).as("horizontal overflow at %d px", width).isLessThanOrEqualTo(0);
			screenshot("contenders-" + width);
		}
		Results results = new AxeBuilder().withTags(List.of("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"))
			.analyze(browser);
		assertThat(results.getViolations())
			.extracting(
					v -> v.getId() + ": " + v.getNodes().stream().map(n -> n.getTarget() + " " + n.getHtml()).toList())
			.isEmpty();
	}

	@Test
	void theRunPageLinksItsSettingsComparedWithinTheRun() throws Exception {
		String probe = TestUploads.upload(mvc, "probe-reasoning-levers.json");
		browser.manage().window().setSize(new Dimension(1440, 1600));
		browser.get(base() + "/runs/" + probe);

		browser.findElement(By.cssSelector(".within-run li[data-param=setting] a")).click();

		assertThat(browser.getCurrentUrl()).contains("/compare/" + probe + "@setting=default..." + probe + "@setting=");
		assertThat(browser.findElements(By.cssSelector(".contender-side"))).hasSize(4);
		assertThat(browser.findElements(By.cssSelector(
				"td.value[data-contender='" + probe + "@setting=reasoning_effort=low'] a.reason[data-rule=unstable]")))
			.isNotEmpty();
	}

}
