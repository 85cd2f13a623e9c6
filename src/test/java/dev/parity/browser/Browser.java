package dev.parity.browser;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

import dev.parity.TestUploads;

/**
 * A real headless Chromium (Debian's chromium and chromium-driver), never one that downloads itself.
 */
final class Browser {

	private Browser() {
	}

	static ChromeDriver start() throws Exception {
		Assumptions.assumeFalse(Boolean.getBoolean("parity.skipBrowserTests"), "browser tests skipped by -DskipBrowserTests");
		File driver = new File(System.getProperty("parity.chromedriver", "/usr/bin/chromedriver"));
		File chromium = new File(System.getProperty("parity.chromium", "/usr/bin/chromium"));
		if (!driver.canExecute() || !chromium.canExecute()) {
			throw new IllegalStateException("Browser tests need Debian's chromium and chromium-driver ("
					+ chromium + ", " + driver + "): apt-get install -y chromium chromium-driver, or -DskipBrowserTests");
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

	static WebDriverWait waitUpTo(WebDriver driver, int seconds) {
		WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(seconds));
		// A condition that finds an element of the page being replaced (a form posted, a redirect) tries again.
		wait.ignoring(org.openqa.selenium.StaleElementReferenceException.class);
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
