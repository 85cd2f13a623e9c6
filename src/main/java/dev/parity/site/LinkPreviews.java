package dev.parity.site;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.parity.record.Publication;
import dev.parity.record.Retraction;
import dev.parity.run.Provenance;
import dev.parity.run.Run;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.ModelAndView;

/**
 * Open Graph and Twitter card meta for run, comparison and publication pages, so that a
 * link pasted into a blog, a chat or a social post shows a truthful preview: the title,
 * the headline sentence (after any retraction or supersession) and a picture of the chart
 * with its greyed bars grey. Read from what the page already shows, after its controller
 * ran and before the template draws it. Links are absolute from {@code parity.base-url}
 * only (never from the request's {@code Host}); without it there is no absolute address,
 * and only title and description are given.
 */
@Component
class LinkPreviews implements HandlerInterceptor {

	private final SiteUrls siteUrls;

	LinkPreviews(SiteUrls siteUrls) {
		this.siteUrls = siteUrls;
	}

	/**
	 * What a link's preview shows.
	 *
	 * @param title the item's title
	 * @param description the headline sentence
	 * @param url the page's absolute address, {@code null} without a base URL
	 * @param image the chart's absolute address (a PNG, {@link CellChart#WIDTH} ×
	 * {@link CellChart#PREVIEW_HEIGHT})
	 * @param imageAlt the chart in words
	 */
	record LinkPreview(String title, String description, @Nullable String url, @Nullable String image,
			String imageAlt) {
	}

	@Override
	public void postHandle(HttpServletRequest request, HttpServletResponse response, Object handler,
			@Nullable ModelAndView view) {
		if (view == null || view.getModelMap().containsAttribute("linkPreview")) {
			return;
		}
		Map<String, Object> model = view.getModelMap();
		LinkPreview preview = null;
		if (model.get("page") instanceof ComparisonPage page
				&& model.get("publication") instanceof Publication publication) {
			Retraction retraction = model.get("publicationRetraction") instanceof Retraction r ? r : null;
			preview = comparison(page, publication.title(), taken(retraction), publication.url(),
					publication.url() + "/chart.png", model.get("chartMetric") instanceof String m ? m : null);
		}
		else if (model.get("page") instanceof ContendersPage several
				&& model.get("publication") instanceof Publication publication && !several.contenders().isEmpty()) {
			Retraction retraction = model.get("publicationRetraction") instanceof Retraction r ? r : null;
			preview = contenders(several, publication, taken(retraction),
					model.get("chartMetric") instanceof String m ? m : null);
		}
		else if (model.get("page") instanceof ComparisonPage page && model.get("pair") instanceof String pair) {
			String query = model.get("query") instanceof String q ? q : "";
			preview = comparison(page, "Comparison: " + page.baseline().title() + " → " + page.contender().title(),
					sidesTaken(page), "/compare/" + pair + query, "/compare/" + pair + "/chart.png" + query, null);
		}
		else if (model.get("page") instanceof RunPage page) {
			Retraction retraction = model.get("retraction") instanceof Retraction r ? r : null;
			preview = new LinkPreview(page.run().title(), taken(retraction) + runSentence(page),
					absolute(page.run().url()), absolute(page.run().url() + "/chart.png"),
					"Chart of this run's cells; grey bars are greyed values.");
		}
		if (preview != null) {
			view.addObject("linkPreview", preview);
		}
	}

	/**
	 * A publication of several contenders: each contender's headline on one metric; the
	 * chart of the first.
	 */
	private LinkPreview contenders(ContendersPage several, Publication publication, String prefix,
			@Nullable String chartMetric) {
		ComparisonPage first = several.contenders().get(0).page();
		String metric = CellChart.chosenMetric(first, chartMetric, publication.title());
		List<String> sentences = new ArrayList<>();
		for (ContendersPage.Contender contender : several.contenders()) {
			sentences.add("#" + contender.number() + " " + contender.path() + ": "
					+ contender.page()
						.headlines()
						.stream()
						.filter(h -> h.metric().equals(metric))
						.map(ComparisonPage.HeadlineView::sentence)
						.findFirst()
						.orElse("no " + metric + " in common"));
		}
		return new LinkPreview(publication.title(), prefix + String.join("; ", sentences), absolute(publication.url()),
				absolute(publication.url() + "/chart.png"),
				"Ratio per cell of " + metric + " for contender 1 of " + several.contenders().size()
						+ " (contender / baseline); grey bars are greyed cells, not comparable.");
	}

	private LinkPreview comparison(ComparisonPage page, String title, String prefix, String path, String image,
			@Nullable String chartMetric) {
		String metric = CellChart.chosenMetric(page, chartMetric, title);
		String sentence = page.headlines()
			.stream()
			.filter(h -> h.metric().equals(metric))
			.map(ComparisonPage.HeadlineView::sentence)
			.findFirst()
			.orElse("no metric in common");
		return new LinkPreview(title, prefix + sentence, absolute(path), absolute(image),
				"Ratio per cell of " + metric + " (contender / baseline); grey bars are greyed cells, not comparable.");
	}

	/**
	 * What a run says of itself in one sentence: what ran where, and how many of its
	 * values are greyed.
	 */
	static String runSentence(RunPage page) {
		return whatRan(page) + " — " + greyedValues(page);
	}

	/** "measured run: org/model @ abc1234 on 1x L40S, vllm 0.11.2". */
	static String whatRan(RunPage page) {
		Run run = page.run();
		Provenance p = run.provenance();
		String commit = p.model().commit() == null ? "unpinned" : "@ " + p.model().commit().value().substring(0, 7);
		return run.role().id() + " run: " + p.model().repo() + " " + commit + " on " + p.system().name() + ", "
				+ p.engine().name() + (p.engine().version() == null ? "" : " " + p.engine().version());
	}

	/** "20 cells, 3 of 100 values greyed". */
	static String greyedValues(RunPage page) {
		long values = page.rows().stream().mapToLong(row -> row.values().size()).sum();
		long greyed = page.rows().stream().flatMap(row -> row.values().stream()).filter(RunPage.Value::greyed).count();
		return page.rows().size() + (page.rows().size() == 1 ? " cell, " : " cells, ") + greyed + " of " + values
				+ " values greyed";
	}

	private static String taken(@Nullable Retraction retraction) {
		if (retraction == null) {
			return "";
		}
		return (retraction.superseded() ? "[Superseded] " : "[Retracted] ");
	}

	private static String sidesTaken(ComparisonPage page) {
		List<String> taken = new ArrayList<>();
		if (page.baseline().retraction() != null) {
			taken.add("baseline " + page.baseline().retraction().kind());
		}
		if (page.contender().retraction() != null) {
			taken.add("contender " + page.contender().retraction().kind());
		}
		return taken.isEmpty() ? "" : "[" + String.join(", ", taken) + "] ";
	}

	private @Nullable String absolute(String path) {
		String link = siteUrls.link(path);
		return link.startsWith("http://") || link.startsWith("https://") ? link : null;
	}

}
