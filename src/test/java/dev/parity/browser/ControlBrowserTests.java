package dev.parity.browser;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * The seed story's claim (reference…C) and its control (E) side by side, in a real
 * browser.
 */
@ParityTest
class ControlBrowserTests extends BrowserTest {

	@Autowired
	MockMvc mvc;

	@Test
	void theClaimShowsWhatWouldSettleItAndTheControlThatDid() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, TestUploads.fresh("run-c-effort-high.json"));
		String e = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		mvc.perform(post("/api/controls").with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content("{\"control\": \"%s\", \"of\": \"%s...%s\"}".formatted(e, reference, c)));

		browser.get("http://localhost:" + port + "/compare/" + reference + "..." + c);

		WebElement section = browser.findElement(By.id("settle"));
		assertThat(section.findElement(By.tagName("h2")).getText()).isEqualTo("What would settle it");
		WebElement line = section.findElement(By.cssSelector("li.control-line"));
		assertThat(line.isDisplayed()).isTrue();
		assertThat(line.getText())
			.startsWith("Tested by control run “Control run: pinned checkpoint, thinking off, warmed")
			.contains("(confounded) → 18 of 18 comparable within ±10 %, median 1.011");
		assertThat(line.findElement(By.tagName("a")).getAttribute("href")).endsWith("/runs/" + e);
		// Something is greyed: the plan says in one line what to rerun and what it would
		// settle; its changes and the commands are one click away.
		WebElement plan = section.findElement(By.cssSelector("details.settle-plan"));
		assertThat(plan.getAttribute("open")).isNull();
		WebElement summary = plan.findElement(By.tagName("summary"));
		assertThat(summary.isDisplayed()).isTrue();
		assertThat(summary.getText())
			.isEqualTo("Rerun the contender (" + c + ") with 2 changes: 18 cells would become comparable");
		summary.click();
		assertThat(plan.findElements(By.cssSelector("table.settle-changes tbody tr"))).hasSize(2);
		assertThat(plan.findElement(By.cssSelector("table.settle-changes tbody tr td code")).getText())
			.isEqualTo("model.commit");
		// The commands wait in a closed fold of the plan, one click away.
		WebElement more = plan.findElement(By.cssSelector("details.settle-more"));
		assertThat(more.getAttribute("open")).isNull();
		more.findElement(By.tagName("summary")).click();
		assertThat(plan.findElement(By.cssSelector("pre.command")).getText()).contains("--revision 4f2a9c1e");

		// The control's own comparison has nothing a rerun would settle: its plan is
		// collapsed.
		browser.get("http://localhost:" + port + "/compare/" + reference + "..." + e);
		WebElement settled = browser.findElement(By.cssSelector("#settle details.settle-plan"));
		assertThat(settled.findElement(By.tagName("summary")).getText()).startsWith("Nothing to settle");
	}

	@Test
	void aHypothesisTakesThePlanOfWhatWouldSettleIt() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, TestUploads.fresh("run-c-effort-high.json"));
		String base = "http://localhost:" + port;
		Browser.signIn(browser, base);
		try {
			browser.get(base + "/compare/" + reference + "..." + c);
			WebElement form = browser.findElement(By.cssSelector("form.caveat-form"));
			WebElement plan = form.findElement(By.name("deciding_plan"));
			assertThat(plan.getAttribute("value")).isEmpty();
			WebElement take = form.findElement(By.cssSelector("button.take-plan-button"));
			((JavascriptExecutor) browser).executeScript("arguments[0].scrollIntoView({block: 'center'})", take);
			assertThat(take.getText()).isEqualTo("Take the plan of what would settle it");
			take.click();
			Browser.waitUpTo(browser, 10).until(d -> !plan.getAttribute("value").isEmpty());
			assertThat(plan.getAttribute("value"))
				.startsWith("{\"changes\":[{\"rule\":\"checkpoint-differs\",\"field\":\"model.commit\"")
				.contains("workload.request_params");
			form.findElement(By.name("text")).sendKeys("The +101 % is the thinking tokens, not the engine");
			form.findElement(By.cssSelector("button[type=submit]")).click();
			Browser.waitUpTo(browser, 10).until(d -> d.getCurrentUrl().contains("#caveat-"));
			WebElement table = browser.findElement(By.cssSelector("table.hypothesis-plan"));
			assertThat(table.findElements(By.cssSelector("tbody tr"))).hasSize(2);
			assertThat(table.findElement(By.cssSelector("tbody tr td code")).getText()).isEqualTo("model.commit");
		}
		finally {
			browser.manage().deleteAllCookies();
		}
	}

}
