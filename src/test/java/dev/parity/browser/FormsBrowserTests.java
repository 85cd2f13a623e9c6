package dev.parity.browser;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12, item 7, as a person meets it: a wrong password at sign-in still leads back to
 * the page they came from, and a refused publication says what is wrong next to the
 * field, keeping what they typed.
 */
@ParityTest
class FormsBrowserTests extends BrowserTest {

	@Autowired
	MockMvc mvc;

	@Test
	void aWrongPasswordThenTheRightOneLeadsBackAndARefusedPublicationKeepsWhatWasTyped() throws Exception {
		String base = "http://localhost:" + port;
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, "run-c-effort-high.json");
		String comparison = "/compare/" + reference + "..." + c + "?vary=checkpoint&output_tolerance=10";

		browser.get(base + comparison);
		browser.findElement(By.linkText("Sign in")).click();
		Browser.waitUpTo(browser, 10).until(d -> d.getCurrentUrl().contains("/login"));
		browser.findElement(By.name("username")).sendKeys(TestUploads.USER);
		browser.findElement(By.name("password")).sendKeys("not-the-password");
		browser.findElement(By.cssSelector("form.stacked button[type=submit]")).click();
		Browser.waitUpTo(browser, 10).until(d -> d.getCurrentUrl().contains("/login?error"));
		assertThat(browser.findElement(By.cssSelector("p.error")).getText()).isEqualTo("Wrong user name or password.");
		browser.findElement(By.name("username")).sendKeys(TestUploads.USER);
		browser.findElement(By.name("password")).sendKeys(TestUploads.PASSWORD);
		browser.findElement(By.cssSelector("form.stacked button[type=submit]")).click();
		Browser.waitUpTo(browser, 10).until(d -> !d.getCurrentUrl().contains("/login"));
		assertThat(browser.getCurrentUrl()).isEqualTo(base + comparison);

		// Only spaces pass the browser's own check; the server refuses them next to the
		// field.
		// The form waits folded near the top of the comparison.
		browser.findElement(By.cssSelector("section.publish summary")).click();
		browser.findElement(By.cssSelector("section.publish input[name=title]")).sendKeys("   ");
		browser.findElement(By.cssSelector("section.publish textarea[name=caption]")).sendKeys("the caption I typed");
		browser.findElement(By.cssSelector("section.publish textarea[name=reason]")).sendKeys("to show longer outputs");
		browser.findElement(By.cssSelector("section.publish button")).click();
		Browser.waitUpTo(browser, 10).until(d -> !d.findElements(By.id("publish-errors")).isEmpty());

		WebElement title = browser.findElement(By.cssSelector("section.publish input[name=title]"));
		assertThat(title.getDomAttribute("aria-invalid")).isEqualTo("true");
		WebElement message = browser.findElement(By.id(title.getDomAttribute("aria-describedby")));
		assertThat(message.getText()).isEqualTo("a published comparison needs a title");
		assertThat(message.isDisplayed()).isTrue();
		assertThat(
				browser.findElement(By.cssSelector("section.publish textarea[name=caption]")).getDomProperty("value"))
			.isEqualTo("the caption I typed");
		assertThat(browser.findElement(By.cssSelector("section.publish textarea[name=reason]")).getDomProperty("value"))
			.isEqualTo("to show longer outputs");
		screenshot("publish-refused-title");
	}

}
