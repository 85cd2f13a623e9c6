package dev.parity.browser;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.openqa.selenium.chrome.ChromeDriver;

import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A browser test: one headless Chromium per test class, against the application on its random port.
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

}
