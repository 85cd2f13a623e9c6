package dev.parity.site;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.parity.compare.ComparisonSnapshot;
import dev.parity.snapshots.ComparisonService;
import dev.parity.run.Run;
import dev.parity.run.RunId;
import dev.parity.run.RunNotFoundException;
import dev.parity.run.RunRepository;

import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The pictures that link previews of live comparisons and of runs show: the ratio chart
 * of a comparison, a run's values per cell, greyed bars grey and the notices drawn above
 * them. (A publication's are served with its embeds.)
 */
@Controller
class ChartImageController {

	/**
	 * Kept a minute by anybody (when anybody may read): a retraction shows in previews
	 * drawn after that.
	 */
	private static final String CACHE = "public, max-age=60";

	private final ComparisonService comparisons;

	private final ComparisonViews comparisonPages;

	private final RecordNotices notices;

	private final RunRepository runs;

	private final RunFlagging flagging;

	private final SiteUrls siteUrls;

	private final SharedCaching caching;

	ChartImageController(ComparisonService comparisons, ComparisonViews comparisonPages, RecordNotices notices,
			RunRepository runs, RunFlagging flagging, SiteUrls siteUrls, SharedCaching caching) {
		this.caching = caching;
		this.comparisons = comparisons;
		this.comparisonPages = comparisonPages;
		this.notices = notices;
		this.runs = runs;
		this.flagging = flagging;
		this.siteUrls = siteUrls;
	}

	@GetMapping("/compare/{pair:.+}/chart.png")
	ResponseEntity<byte[]> comparisonChart(@PathVariable String pair, @RequestParam Map<String, String> query) {
		ComparisonService.Pair runPair = ComparisonService.Pair.parse(pair);
		Map<String, String> settings = new LinkedHashMap<>(query);
		String metric = settings.remove("metric");
		ComparisonSnapshot snapshot = comparisons.snapshot(runPair, comparisons.settings(settings));
		ComparisonPage page = comparisonPages.page(snapshot, runPair);
		String link = siteUrls.link("/compare/" + runPair.path()) + QueryStrings.of(settings);
		List<String> lines = notices.forComparison(snapshot, page, siteUrls.link("")).lines();
		CellChart chart = CellChart.ratios(page, metric, page.baseline().title() + " → " + page.contender().title(),
				lines, link);
		return png(chart);
	}

	@GetMapping("/runs/{id}/chart.png")
	ResponseEntity<byte[]> runChart(@PathVariable String id) {
		if (!RunId.isValid(id)) {
			throw new RunNotFoundException(id);
		}
		Run run = runs.find(new RunId(id)).orElseThrow(() -> new RunNotFoundException(id));
		RunFlagging.Flags flags = flagging.check(run);
		RunPage page = RunPage.of(run, flags.run(), flags.cells());
		List<String> lines = new ArrayList<>(notices.forRun(id, siteUrls.link("")).lines());
		page.runFlags()
			.stream()
			.filter(RunPage.PageFlag::greying)
			.forEach(f -> lines.add(f.rule() + ": " + f.message()));
		return png(CellChart.values(page, LinkPreviews.greyedValues(page) + " · " + LinkPreviews.whatRan(page), lines,
				siteUrls.link(run.url())));
	}

	private ResponseEntity<byte[]> png(CellChart chart) {
		String cacheControl = caching.forEverybody(CACHE);
		var answer = ResponseEntity.ok()
			.contentType(MediaType.IMAGE_PNG)
			.header(HttpHeaders.CACHE_CONTROL, cacheControl);
		if (!caching.anonymousMayRead()) {
			answer.header(HttpHeaders.VARY, SharedCaching.CREDENTIALS);
		}
		return answer.body(chart.png(CellChart.PREVIEW_HEIGHT));
	}

	/** Lets link previews read every page's model before its template draws it. */
	@Configuration(proxyBeanMethods = false)
	static class Previews implements WebMvcConfigurer {

		private final LinkPreviews previews;

		Previews(LinkPreviews previews) {
			this.previews = previews;
		}

		@Override
		public void addInterceptors(InterceptorRegistry registry) {
			registry.addInterceptor(previews);
		}

	}

}
