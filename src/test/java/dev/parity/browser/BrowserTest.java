package dev.parity.browser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;

import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A browser test: one headless Chromium per test class, against the application on its
 * random port.
 */
abstract class BrowserTest {

	static ChromeDriver browser;

	@LocalServerPort
	int port;

	@BeforeAll
	static void startBrowser() throws Exception {
		browser = Browser.start();
	}

	@AfterAll
	static void stopBrowser() {
		if (browser != null) {
			browser.quit();
			browser = null;
		}
	}

	String base() {
		return "http://localhost:" + port;
	}

	/**
	 * Keeps what the page looks like in {@code target/screenshots/}, for people reviewing
	 * a change.
	 */
	static void screenshot(String name) throws IOException {
		Path dir = Files.createDirectories(Path.of("target/screenshots"));
		Files.write(dir.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
	}

}
