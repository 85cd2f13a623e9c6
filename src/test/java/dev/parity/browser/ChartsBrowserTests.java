package dev.parity.browser;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import com.deque.html.axecore.results.Results;
import com.deque.html.axecore.selenium.AxeBuilder;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.history.NightlyRunsAccess;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Charts never let a greyed value count: a series line breaks at a greyed run (null in
 * its line dataset, the point drawn hollow by a point-only dataset), and an axis is set
 * by the comparable values, a greyed value beyond it drawn clipped at the edge. Read from
 * the Chart.js instances themselves.
 */
@ParityTest
class ChartsBrowserTests extends BrowserTest {

	/**
	 * Each dataset of a canvas's chart: its data's y values, whether it is greyed, its
	 * anchor, its line settings.
	 */
	static final String DATASETS = """
			const chart = Chart.getChart(arguments[0]);
			return chart.data.datasets.map(d => ({ greyed: !!d.greyed, anchor: d.anchor || null, label: d.label,
			  xs: d.data.map(p => p.x), ys: d.data.map(p => p.y), reals: d.data.map(p => p.real == null ? null : p.real),
			  showLine: d.showLine === undefined ? null : d.showLine, spanGaps: !!d.spanGaps,
			  background: String(d.backgroundColor), visible: chart.isDatasetVisible(chart.data.datasets.indexOf(d)) }));
			""";

	static final String Y_RANGE = "const y = Chart.getChart(arguments[0]).scales.y; return [y.min, y.max];";

	@Autowired
	MockMvc mvc;

	@Test
	@SuppressWarnings("unchecked")
	void aSeriesLineBreaksAtAGreyedRunWhoseValueIsAHollowPointOutsideTheAxisRange() throws Exception {
		String first = null;
		for (ObjectNode night : NightlyRunsAccess.series("nightly-box-browser")) {
			String id = TestUploads.upload(mvc, night.toString().getBytes(StandardCharsets.UTF_8));
			first = first == null ? id : first;
		}
		browser.manage().window().setSize(new Dimension(1440, 1000));
		Browser.signIn(browser, base());
		browser.get(base() + "/runs/" + first);
		browser.findElement(By.cssSelector("a.history-link")).click();
		Browser.waitUpTo(browser, 15).until(d -> d.getCurrentUrl().contains("/series/"));
		Browser.waitUpTo(browser, 15)
			.until(d -> !d.findElements(By.cssSelector("#series-charts canvas[data-rendered]")).isEmpty());
		int charts = browser.findElements(By.cssSelector("#series-charts canvas")).size();
		browser.executeScript("document.querySelectorAll('#series-charts figure').forEach(f => f.scrollIntoView())");
		Browser.waitUpTo(browser, 15)
			.until(d -> d.findElements(By.cssSelector("#series-charts canvas[data-rendered]")).size() == charts);

		// Show every cell, so that every greyed point is drawn.
		browser.executeScript("document.querySelectorAll('.cell-picker input:not(:checked)').forEach(b => b.click())");
		int checked = 0;
		for (WebElement canvas : browser.findElements(By.cssSelector("#series-charts canvas"))) {
			if (Integer.parseInt(canvas.getAttribute("data-greyed")) == 0) {
				continue;
			}
			List<Map<String, Object>> datasets = (List<Map<String, Object>>) browser.executeScript(DATASETS, canvas);
			List<Map<String, Object>> greyed = datasets.stream().filter(d -> (Boolean) d.get("greyed")).toList();
			assertThat(greyed).isNotEmpty();
			double low = Double.MAX_VALUE;
			double high = -Double.MAX_VALUE;
			for (Map<String, Object> line : datasets) {
				if (!(Boolean) line.get("greyed")) {
					assertThat(line.get("spanGaps")).isEqualTo(false);
					for (Object y : (List<Object>) line.get("ys")) {
						if (y != null) {
							low = Math.min(low, ((Number) y).doubleValue());
							high = Math.max(high, ((Number) y).doubleValue());
						}
					}
				}
			}
			for (Map<String, Object> points : greyed) {
				// A point-only dataset, hollow.
				assertThat(points.get("showLine")).isEqualTo(false);
				assertThat(points.get("background")).isEqualTo("rgba(0, 0, 0, 0)");
				Map<String, Object> line = datasets.stream()
					.filter(d -> !(Boolean) d.get("greyed") && d.get("anchor").equals(points.get("anchor")))
					.findFirst()
					.orElseThrow();
				List<Object> xs = (List<Object>) line.get("xs");
				List<Object> ys = (List<Object>) line.get("ys");
				for (Object x : (List<Object>) points.get("xs")) {
					int at = xs.indexOf(x);
					assertThat(at).as("the greyed run %s is in the line's data", x).isNotNegative();
					assertThat(ys.get(at)).as("the line holds null at greyed run %s", x).isNull();
					checked++;
				}
			}
			// The axis is set by the comparable values only: a tenth of their span beyond
			// them at most.
			List<Number> range = (List<Number>) browser.executeScript(Y_RANGE, canvas);
			double span = Math.max(high - low, Math.abs(high));
			assertThat(range.get(1).doubleValue()).isLessThanOrEqualTo(high + span * 0.1 + 1e-9);
			assertThat(range.get(0).doubleValue()).isGreaterThanOrEqualTo(Math.min(0, low) - span * 0.1 - 1e-9);
			for (Map<String, Object> points : greyed) {
				List<Object> ys = (List<Object>) points.get("ys");
				List<Object> reals = (List<Object>) points.get("reals");
				for (int i = 0; i < ys.size(); i++) {
					double drawn = ((Number) ys.get(i)).doubleValue();
					assertThat(drawn).isBetween(range.get(0).doubleValue() - 1e-9, range.get(1).doubleValue() + 1e-9);
					assertThat(reals.get(i)).isNotNull();
				}
			}
		}
		assertThat(checked).as("greyed runs checked").isPositive();
		screenshot("series-greyed-1440");
		// The charts and their cell pickers (the alerts above them are another part of
		// the page).
		assertNoViolation("#series-charts");
		browser.manage().window().setSize(new Dimension(390, 844));
		screenshot("series-greyed-390");
	}

	@Test
	@SuppressWarnings("unchecked")
	void theRatioAxisIsSetByTheComparableCellsAndTheGreyedBarsAreClippedAtItsEdge() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		for (int width : new int[] { 1440, 390 }) {
			browser.manage().window().setSize(new Dimension(width, 1000));
			browser.get(base() + "/compare/" + reference + "..." + e);
			Browser.waitUpTo(browser, 10)
				.until(d -> !d.findElements(By.cssSelector("#compare-charts canvas[data-clipped]")).isEmpty());
			// throughput: 18 comparable ratios near 1, two greyed ones at +4,323 % and
			// +6,050 %
			WebElement throughput = browser.findElements(By.cssSelector("#compare-charts canvas[data-clipped]")).get(3);
			assertThat(throughput.getAttribute("data-greyed")).isEqualTo("2");
			assertThat(throughput.getAttribute("data-clipped")).isEqualTo("2");
			List<Number> range = (List<Number>) browser.executeScript(Y_RANGE, throughput);
			assertThat(range.get(1).doubleValue()).isLessThan(2);
			assertThat(range.get(0).doubleValue()).isGreaterThan(0.5);
			browser.executeScript("arguments[0].scrollIntoView()", throughput);
			screenshot("ratio-throughput-" + width);
			if (width == 1440) {
				assertNoViolation("#compare-charts");
			}
		}
	}

	private static void assertNoViolation(String region) {
		Results results = new AxeBuilder().withTags(List.of("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"))
			.include(region)
			.analyze(browser);
		assertThat(results.getViolations()).extracting(
				v -> v.getId() + ": " + v.getNodes().stream().limit(3).map(n -> String.valueOf(n.getTarget())).toList())
			.isEmpty();
	}

}
