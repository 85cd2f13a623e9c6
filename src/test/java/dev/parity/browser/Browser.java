package dev.parity.browser;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

import dev.parity.TestUploads;

/**
 * A real headless Chromium (Debian's chromium and chromium-driver), never one that
 * downloads itself.
 */
final class Browser {

	private Browser() {
	}

	static ChromeDriver start() throws Exception {
		boolean required = Boolean.getBoolean("parity.browser.required");
		File driver = new File(System.getProperty("parity.chromedriver", "/usr/bin/chromedriver"));
		File chromium = new File(System.getProperty("parity.chromium", "/usr/bin/chromium"));
		String missing = Boolean.getBoolean("parity.skipBrowserTests") ? "-DskipBrowserTests was given"
				: !chromium.canExecute() ? "no Chromium at " + chromium
						: !driver.canExecute() ? "no chromedriver at " + driver : null;
		if (missing != null && required) {
			throw new IllegalStateException("Browser tests are required (-Dparity.browser.required=true) but " + missing
					+ ": apt-get install -y chromium chromium-driver, or point -Dparity.chromium and -Dparity.chromedriver at them");
		}
		if (missing != null) {
			noticeOnce(missing);
			Assumptions.abort("browser tests skipped: " + missing);
		}
		Path profile = Files.createDirectories(Path.of("target/chromium")).resolve("profile-" + System.nanoTime());
		ChromeOptions options = new ChromeOptions();
		options.setBinary(chromium);
		options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
				"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
				"--window-size=1400,1000", "--user-data-dir=" + profile.toAbsolutePath());
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(driver)
			.usingAnyFreePort()
			.build();
		ChromeDriver chrome = new ChromeDriver(service, options);
		chrome.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
		return chrome;
	}

	/**
	 * Says once per test run, in the build's output, that the browser tests were skipped,
	 * why, and how to run them: a machine with only a JDK passes the rest of the suite.
	 */
	private static void noticeOnce(String why) {
		if (NOTICED.compareAndSet(false, true)) {
			System.out.println(
					"""

							*** Browser tests SKIPPED: %s. ***
							*** They drive Debian's Chromium: apt-get install -y chromium chromium-driver (or set -Dparity.chromium ***
							*** and -Dparity.chromedriver to their paths); -Dparity.browser.required=true makes a skip fail the build. ***
							"""
						.formatted(why));
		}
	}

	private static final AtomicBoolean NOTICED = new AtomicBoolean();

	static WebDriverWait waitUpTo(WebDriver driver, int seconds) {
		WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(seconds));
		// A condition that finds an element of the page being replaced (a form posted, a
		// redirect) tries again.
		wait.ignoring(StaleElementReferenceException.class);
		return wait;
	}

	static void signIn(WebDriver driver, String base) {
		driver.get(base + "/login");
		driver.findElement(By.name("username")).sendKeys(TestUploads.USER);
		driver.findElement(By.name("password")).sendKeys(TestUploads.PASSWORD);
		driver.findElement(By.cssSelector("form.stacked button[type=submit]")).click();
		waitUpTo(driver, 10).until(d -> !d.getCurrentUrl().contains("/login"));
	}

}
