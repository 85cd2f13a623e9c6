package dev.parity.browser;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import com.deque.html.axecore.results.Results;
import com.deque.html.axecore.results.Rule;
import com.deque.html.axecore.selenium.AxeBuilder;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.history.NightlyRunsAccess;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * History said in words: a person reads the alerts list, a series, the start page and a
 * pull-request run's history, and sees names, titles, cells and signed changes — never
 * the ids the pages used to show.
 */
@ParityTest
class HistoryInWordsBrowserTests extends BrowserTest {

	private static final List<String> WCAG_AA = List.of("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa");

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	static List<String> nights;

	static String pullRequest;

	@BeforeEach
	void nightlySeriesAndAPullRequest() throws Exception {
		if (nights != null && jdbc.sql("select count(*) from run where id = ?")
			.param(nights.get(0))
			.query(Integer.class)
			.single() == 1) {
			return;
		}
		nights = new ArrayList<>();
		List<ObjectNode> documents = NightlyRunsAccess.series("words-box");
		for (ObjectNode night : documents) {
			nights.add(TestUploads.upload(mvc, night.toString().getBytes(StandardCharsets.UTF_8)));
		}
		// A pull-request run after the last night: its own branch, judged against the
		// nightly series.
		ObjectNode pr = documents.get(documents.size() - 1).deepCopy();
		pr.put("title", "PR 42: fuse the decode kernels");
		pr.put("recorded_at", "2026-02-10T02:00:00Z");
		((ObjectNode) pr.get("engine")).put("commit", "feedface00000000000000000000000000000042");
		pr.putObject("context").put("branch", "fuse-decode").put("pull_request", "42");
		pullRequest = TestUploads.upload(mvc, pr.toString().getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void theAlertsListSaysSeriesRunCellAndSignedChangeWithStatusButtons() throws Exception {
		browser.manage().deleteAllCookies();
		browser.manage().window().setSize(new Dimension(1440, 900));
		browser.get(base() + "/alerts");
		String text = browser.findElement(By.tagName("main")).getText();
		String seriesId = jdbc.sql("select series_id from series_run where run_id = ?")
			.param(nights.get(0))
			.query(String.class)
			.single();
		assertThat(text).doesNotContain(seriesId)
			.contains("words-box / org/model-7b / vllm")
			.contains("nightly words-box #30")
			.contains("vllm 0.11.30");
		assertThat(text).containsPattern("decode −\\d+(\\.\\d)?( to −\\d+(\\.\\d)?)? % in \\d cells")
			.containsPattern("TTFT \\+\\d+");
		String alertId = jdbc.sql("select id from alert where series_id = ?")
			.param(seriesId)
			.query(String.class)
			.single();
		assertThat(text).doesNotContain(alertId).doesNotContain("decode_tps");
		// The cells in words, behind the alert's details.
		assertThat(browser.findElement(By.cssSelector("table.alerts .alert-changes")).getAttribute("textContent"))
			.contains("c=1 × 1,024 tokens")
			.contains("c=8 × 4,096 tokens");
		// The time said relative, the exact time on hover.
		WebElement raised = browser.findElement(By.cssSelector("table.alerts time[datetime]"));
		assertThat(raised.getText()).matches(".*(ago|now|seconds?|minutes?).*");
		assertThat(raised.getAttribute("title")).contains(raised.getAttribute("datetime").substring(0, 16));
		// No status buttons for a reader who is not signed in.
		assertThat(browser.findElements(By.cssSelector("form.alert-actions"))).isEmpty();
		List<String> problems = new ArrayList<>(violations("alerts"));

		Browser.signIn(browser, base());
		browser.get(base() + "/alerts");
		WebElement row = browser.findElement(By.id("alert-" + alertId));
		assertThat(row.findElements(By.cssSelector("form.alert-actions button"))
			.stream()
			.map(WebElement::getText)
			.toList()).containsExactly("Acknowledge", "Explained", "False positive");
		problems.addAll(violations("alerts-signed-in"));
		looks("alerts");
		row.findElement(By.name("reason")).sendKeys("the fp8 path regressed");
		row.findElement(By.cssSelector("button[value=acknowledged]")).click();
		Browser.waitUpTo(browser, 15)
			.until(d -> d.findElement(By.cssSelector("#alert-" + alertId + " .status"))
				.getText()
				.equals("acknowledged"));
		assertThat(browser.getCurrentUrl()).endsWith("/alerts");
		assertThat(browser.findElement(By.id("alert-" + alertId))
			.findElements(By.cssSelector("form.alert-actions button"))
			.stream()
			.map(WebElement::getText)
			.toList()).contains("Reopen").doesNotContain("Acknowledge");
		assertThat(jdbc.sql("select reason from alert_status where alert_id = ? order by id desc limit 1")
			.param(alertId)
			.query(String.class)
			.single()).isEqualTo("the fp8 path regressed");
		browser.findElement(By.cssSelector("#alert-" + alertId + " button[value=open]")).click();
		Browser.waitUpTo(browser, 15)
			.until(d -> d.findElement(By.cssSelector("#alert-" + alertId + " .status")).getText().equals("open"));
		assertThat(problems).isEmpty();
	}

	@Test
	void theSeriesPageSaysChangePointsAndFoldsTheVersionEvents() throws Exception {
		browser.manage().deleteAllCookies();
		String seriesId = jdbc.sql("select series_id from series_run where run_id = ?")
			.param(nights.get(0))
			.query(String.class)
			.single();
		browser.manage().window().setSize(new Dimension(1440, 900));
		browser.get(base() + "/series/" + seriesId);
		assertThat(browser.findElement(By.tagName("h1")).getText()).startsWith("words-box / org/model-7b / vllm");
		String changes = browser.findElement(By.cssSelector("table.change-points")).getText();
		assertThat(changes).contains("nightly words-box #30")
			.containsPattern("c=\\d × [\\d,]+ tokens")
			.containsPattern("decode −\\d")
			.containsPattern("p (<|=) 0\\.\\d");
		// 39 engine versions, one a night: one line, not 39.
		List<WebElement> events = browser.findElements(By.cssSelector("ul.events > li"));
		assertThat(events.stream()
			.filter(e -> e.getText().startsWith("engine version changed at 39 runs: 0.11.0 → 0.11.1 → … → 0.11.39")))
			.hasSize(1);
		assertThat(events).hasSizeLessThan(5);
		assertThat(events.stream().map(WebElement::getText)).anyMatch(t -> t.contains("max-num-seqs 64 → 128"));
		List<String> problems = new ArrayList<>(violations("series"));
		looks("series");
		assertThat(problems).isEmpty();
	}

	@Test
	void theStartPageListsOpenAlertsAndTheLatestVerdicts() throws Exception {
		browser.manage().deleteAllCookies();
		browser.manage().window().setSize(new Dimension(1440, 900));
		browser.get(base());
		WebElement alerts = browser.findElement(By.cssSelector(".open-alerts"));
		assertThat(alerts.getText()).containsPattern("regression: decode −")
			.contains("words-box / org/model-7b / vllm")
			.contains("nightly words-box #30");
		WebElement verdicts = browser.findElement(By.cssSelector(".latest-verdicts"));
		assertThat(verdicts.getText()).contains("PR 42: fuse the decode kernels").contains("nightly words-box #39");
		assertThat(verdicts.findElement(By.linkText("nightly words-box #39")).getAttribute("href"))
			.contains("/compare/" + nights.get(39) + "..." + pullRequest);
		List<String> problems = new ArrayList<>(violations("start"));
		looks("start");
		assertThat(problems).isEmpty();
	}

	@Test
	void aPullRequestRunsHistoryIsItsBaseBranchSeriesWithTheRunMarked() throws Exception {
		browser.manage().deleteAllCookies();
		browser.manage().window().setSize(new Dimension(1440, 900));
		browser.get(base() + "/runs/" + pullRequest);
		WebElement verdict = Browser.waitUpTo(browser, 20)
			.until(d -> d.findElements(By.cssSelector("#run-verdict:not([hidden])")).stream().findFirst().orElse(null));
		assertThat(verdict.getText()).isEqualTo("Verdict: pass — no comparable cell worse by 5 % or more. "
				+ "See the comparison with “nightly words-box #39”.");
		browser.findElement(By.cssSelector("a.history-link")).click();
		Browser.waitUpTo(browser, 15).until(d -> d.getCurrentUrl().contains("mark=" + pullRequest));
		String seriesId = jdbc.sql("select series_id from series_run where run_id = ?")
			.param(nights.get(0))
			.query(String.class)
			.single();
		assertThat(browser.getCurrentUrl()).contains("/series/" + seriesId);
		WebElement marked = browser.findElement(By.id("marked-run"));
		assertThat(marked.getText()).contains("PR 42: fuse the decode kernels")
			.contains("fuse-decode")
			.containsPattern("Verdict against “nightly words-box #39”: (pass|regression|inconclusive|not comparable)");
		assertThat(marked.findElement(By.linkText("the comparison")).getAttribute("href"))
			.contains("/compare/" + nights.get(39) + "..." + pullRequest);
		List<String> problems = new ArrayList<>(violations("series-marked"));
		looks("series-marked");
		assertThat(problems).isEmpty();
	}

	/** Screenshots at 390 and 1,440 px, light and dark, and axe in dark too. */
	private void looks(String name) throws Exception {
		List<String> problems = new ArrayList<>();
		try {
			for (String scheme : List.of("light", "dark")) {
				browser.executeCdpCommand("Emulation.setEmulatedMedia",
						Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", scheme))));
				for (int width : new int[] { 390, 1440 }) {
					browser.manage().window().setSize(new Dimension(width, 900));
					// The charts follow the window on the next frames: measure once they
					// have.
					browser.executeAsyncScript("const done = arguments[arguments.length - 1];"
							+ " requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 300)));");
					long scrollWidth = ((Number) browser.executeScript("return document.documentElement.scrollWidth"))
						.longValue();
					long innerWidth = ((Number) browser.executeScript("return window.innerWidth")).longValue();
					assertThat(scrollWidth).as("%s at %d px, wider: %s", name, width, widerThanTheWindow())
						.isLessThanOrEqualTo(innerWidth);
					fullPageScreenshot("words-" + name + "-" + width + "-" + scheme);
				}
				if (scheme.equals("dark")) {
					problems.addAll(violations(name + "-dark"));
				}
			}
		}
		finally {
			browser.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features", List.of()));
			browser.manage().window().setSize(new Dimension(1440, 900));
		}
		assertThat(problems).isEmpty();
	}

	/**
	 * The elements that reach past the window's right edge and are not inside a scrolling
	 * box.
	 */
	private static Object widerThanTheWindow() {
		return browser.executeScript("const out = [];" + " for (const el of document.body.querySelectorAll('*')) {"
				+ "  const r = el.getBoundingClientRect(); if (r.right <= window.innerWidth + 1) continue;"
				+ "  let p = el.parentElement, scrolled = false;"
				+ "  while (p) { const o = getComputedStyle(p).overflowX; if (o === 'auto' || o === 'scroll' || o === 'hidden') { scrolled = true; break; } p = p.parentElement; }"
				+ "  if (!scrolled) out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' ' + Math.round(r.right));"
				+ "  if (out.length >= 5) break; }" + " return out.join(', ');");
	}

	private List<String> violations(String page) {
		Results results = new AxeBuilder().withTags(WCAG_AA).analyze(browser);
		List<String> found = new ArrayList<>();
		for (Rule rule : results.getViolations()) {
			found
				.add(page + ": " + rule.getId() + " (" + rule.getNodes().size() + " elements) " + rule.getHelp() + " — "
						+ rule.getNodes()
							.stream()
							.limit(2)
							.map(node -> node.getHtml() + " " + node.getFailureSummary())
							.collect(Collectors.joining(" | ")));
		}
		return found;
	}

	private static void fullPageScreenshot(String name) throws Exception {
		Dimension window = browser.manage().window().getSize();
		long height = Math
			.min(((Number) browser.executeScript("return document.documentElement.scrollHeight")).longValue(), 16000);
		long inner = ((Number) browser.executeScript("return window.innerHeight")).longValue();
		browser.manage()
			.window()
			.setSize(new Dimension(window.getWidth(), (int) height + (window.getHeight() - (int) inner)));
		browser.executeAsyncScript("const done = arguments[arguments.length - 1];"
				+ " requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 50)));");
		Path dir = Files.createDirectories(Path.of("target/screenshots"));
		Files.write(dir.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
		browser.manage().window().setSize(window);
	}

}
