package dev.parity.browser;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.history.NightlyRunsAccess;
import dev.parity.history.SeriesUpdates;
import dev.parity.run.RunId;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A person opens a nightly series: its charts with hollow greyed points and the segment
 * break, and sets an alert's status.
 */
@ParityTest
class SeriesBrowserTests extends BrowserTest {

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	SeriesUpdates updates;

	@Test
	void theSeriesPageShowsBreaksGreyedPointsAndAnAlertWithItsStatusForm() throws Exception {
		String first = null;
		for (ObjectNode night : NightlyRunsAccess.series("nightly-box-browser")) {
			String id = TestUploads.upload(mvc, night.toString().getBytes(StandardCharsets.UTF_8));
			first = first == null ? id : first;
		}
		String base = "http://localhost:" + port;
		Browser.signIn(browser, base);
		browser.get(base + "/runs/" + first);
		browser.findElement(By.cssSelector("a.history-link")).click();
		Browser.waitUpTo(browser, 15).until(d -> d.getCurrentUrl().contains("/series/"));
		Browser.waitUpTo(browser, 15)
			.until(d -> !d.findElements(By.cssSelector("#series-charts canvas[data-rendered]")).isEmpty());

		// The first metric's chart comes with the page; the others load as they scroll
		// near.
		int charts = browser.findElements(By.cssSelector("#series-charts canvas")).size();
		assertThat(charts).isGreaterThan(1);
		((JavascriptExecutor) browser)
			.executeScript("document.querySelectorAll('#series-charts figure').forEach(f => f.scrollIntoView())");
		Browser.waitUpTo(browser, 15)
			.until(d -> d.findElements(By.cssSelector("#series-charts canvas[data-rendered]")).size() == charts);
		WebElement decode = browser.findElements(By.cssSelector("#series-charts canvas")).get(0);
		assertThat(Integer.parseInt(decode.getAttribute("data-rendered"))).isEqualTo(4);
		assertThat(browser.findElements(By.cssSelector("#series-charts canvas"))
			.stream()
			.mapToInt(c -> Integer.parseInt(c.getAttribute("data-greyed")))
			.sum()).isGreaterThan(0);
		assertThat(decode.getAttribute("data-breaks")).isEqualTo("1");
		assertThat(browser.findElements(By.cssSelector(".cell-picker input[type=checkbox]"))).isNotEmpty();
		assertThat(browser.findElement(By.cssSelector(".break-reason")).getText())
			.isEqualTo("kv-cache-dtype auto → fp8");
		Files.createDirectories(Path.of("target/screenshots"));
		Files.write(Path.of("target/screenshots/series.png"), browser.getScreenshotAs(OutputType.BYTES));

		WebElement form = browser.findElement(By.cssSelector("form.alert-status"));
		new Select(form.findElement(By.name("status"))).selectByValue("explained");
		form.findElement(By.name("reason")).sendKeys("fp8 decode kernels regressed, see caveat");
		form.findElement(By.cssSelector("button[type=submit]")).click();
		Browser.waitUpTo(browser, 15)
			.until(d -> d.findElement(By.cssSelector(".alert .status")).getText().equals("explained"));
		assertThat(browser.findElement(By.cssSelector(".alert .history")).getAttribute("textContent"))
			.contains("fp8 decode kernels regressed");
	}

	@Test
	void aSeriesWithNothingToDrawSaysSoOnce() throws Exception {
		// Every request of this run failed: its series has no value to draw.
		String b = TestUploads.upload(mvc, TestUploads.fresh("run-b-effort-low.json"));
		String seriesId = jdbc.sql("select series_id from series_run where run_id = ?")
			.param(b)
			.query(String.class)
			.single();
		browser.get(base() + "/series/" + seriesId);
		WebElement none = Browser.waitUpTo(browser, 10)
			.until(d -> d.findElements(By.cssSelector("#series-charts .no-chart")).stream().findFirst().orElse(null));
		assertThat(none.getText())
			.isEqualTo("No chart: no run of this series has a value to draw; the runs below say why.");
		assertThat(browser.findElements(By.cssSelector("#series-charts figure"))).isEmpty();
	}

	@Test
	void aLinkToAnOlderRunOfALongSeriesOpensTheListOfAllRuns() throws Exception {
		List<String> ids = new ArrayList<>();
		for (ObjectNode night : NightlyRunsAccess.series("nightly-box-long").subList(0, 3)) {
			ids.add(TestUploads.upload(mvc, night.toString().getBytes(StandardCharsets.UTF_8)));
		}
		String seriesId = jdbc.sql("select series_id from series_run where run_id = ?")
			.param(ids.get(0))
			.query(String.class)
			.single();
		// 100 more runs after them, copies of the last made in SQL: the page lists the
		// latest 100 of 103.
		String prefix = RunId.random().value().substring(0, 7);
		String id = "'" + prefix + "' || lpad(g::text, 3, '0')";
		jdbc.sql(copy("run",
				Map.of("id", id, "upload_sha256", TestUploads.copiedSha256(id), "recorded_at",
						"recorded_at + g * interval '1 day'", "title", "'copy ' || g"),
				"from run, generate_series(1, 100) g where id = ?"))
			.param(ids.get(2))
			.update();
		jdbc.sql(copy("cell", Map.of("run_id", id), "from cell, generate_series(1, 100) g where run_id = ?"))
			.param(ids.get(2))
			.update();
		TestUploads.copyFiles(jdbc, id, "from generate_series(1, 100) g");
		jdbc.sql("insert into series_run (series_id, run_id) select ?, " + id + " from generate_series(1, 100) g")
			.param(seriesId)
			.update();
		updates.update(new RunId(ids.get(2)));

		// The run page's link to the first run in its history: not among the latest 100,
		// so the full list opens there.
		browser.get("http://localhost:" + port + "/series/" + seriesId + "#run-" + ids.get(0));
		Browser.waitUpTo(browser, 15).until(d -> d.getCurrentUrl().contains("runs=all"));
		assertThat(browser.getCurrentUrl()).endsWith("#run-" + ids.get(0));
		Browser.waitUpTo(browser, 15).until(d -> !d.findElements(By.id("run-" + ids.get(0))).isEmpty());
		assertThat(browser.findElements(By.cssSelector("ol.series-runs li"))).hasSize(103);

		// The latest 100, saying so (looked at on a phone and a desktop).
		browser.get("http://localhost:" + port + "/series/" + seriesId + "#runs-heading");
		assertThat(browser.findElement(By.cssSelector(".runs-listed")).getText())
			.isEqualTo("The latest 100 of 103 runs; list all 103 runs.");
		Files.createDirectories(Path.of("target/screenshots"));
		for (int width : new int[] { 390, 1440 }) {
			browser.manage().window().setSize(new Dimension(width, 900));
			((JavascriptExecutor) browser).executeScript("document.getElementById('runs-heading').scrollIntoView()");
			Files.write(Path.of("target/screenshots/series-runs-" + width + ".png"),
					browser.getScreenshotAs(OutputType.BYTES));
		}
	}

	/**
	 * insert into {@code table} (its columns but generated ones) select (each column, or
	 * its override) {@code from}.
	 */
	private String copy(String table, Map<String, String> overrides, String from) {
		List<String> columns = jdbc.sql("""
				select column_name from information_schema.columns
				where table_schema = current_schema() and table_name = ? and is_generated = 'NEVER'
				  and coalesce(column_default, '') not like 'nextval%' and is_identity = 'NO'
				order by ordinal_position""").param(table).query(String.class).list();
		return "insert into " + table + " (" + String.join(", ", columns) + ") select "
				+ String.join(", ", columns.stream().map(c -> overrides.getOrDefault(c, c)).toList()) + " " + from;
	}

}
