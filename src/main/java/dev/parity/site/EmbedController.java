package dev.parity.site;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.parity.compare.ComparisonSnapshot;
import dev.parity.snapshots.ComparisonService;
import dev.parity.record.Publication;
import dev.parity.record.PublicationNotFoundException;
import dev.parity.record.Publications;
import dev.parity.record.Retraction;
import dev.parity.run.RunId;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.server.ResponseStatusException;

/**
 * A published comparison for other sites: embeds that a blog may frame ({@code /embed/…},
 * the only pages any site may frame), the whole table or the chart alone, and the ratio
 * chart as an SVG or PNG image to paste where frames are not allowed. Each shows the
 * frozen numbers with their greying, the caveat footnotes and any supersession,
 * retraction or live-comparison banner inside itself, so a copy never drops them.
 */
@Controller
class EmbedController {

	private final Publications publications;

	private final ComparisonViews comparisonPages;

	private final RecordNotices notices;

	private final LiveDifferences liveDifferences;

	private final PublishedFreshness freshness;

	private final SiteUrls siteUrls;

	private final ControlSections controlSections;

	EmbedController(Publications publications, ComparisonViews comparisonPages, RecordNotices notices,
			LiveDifferences liveDifferences, PublishedFreshness freshness, SiteUrls siteUrls,
			ControlSections controlSections) {
		this.controlSections = controlSections;
		this.publications = publications;
		this.comparisonPages = comparisonPages;
		this.notices = notices;
		this.liveDifferences = liveDifferences;
		this.freshness = freshness;
		this.siteUrls = siteUrls;
	}

	/** What an embed or an image of a publication shows besides its numbers. */
	record Embedded(Publication publication, ComparisonPage page, Notices notices, @Nullable Retraction retraction,
			@Nullable String replacementTitle, List<Retraction> supersedes, @Nullable String liveDiffers,
			String permalink, @Nullable Shown shown, @Nullable ControlSection control) {

		/**
		 * Every banner as one line, the publication's own retraction first: what an image
		 * draws above its bars.
		 */
		List<String> bannerLines() {
			List<String> lines = new ArrayList<>();
			if (shown != null) {
				lines.add(shown.sentence());
			}
			if (liveDiffers != null) {
				lines.add("The live comparison now says something else (" + liveDiffers + "): see the link.");
			}
			lines.addAll(notices.lines());
			return lines;
		}
	}

	/**
	 * Which contender an embed of a publication of several contenders shows, contender by
	 * contender.
	 *
	 * @param number from 1
	 * @param total how many contenders the publication has
	 * @param path the contender as written in its comparison's path
	 * @param others the other contenders, by number, each with the query that shows it
	 */
	record Shown(int number, int total, String path, Map<Integer, String> others) {

		/** The line an embed and an image say it with. */
		public String sentence() {
			return "This publication compares its baseline with " + total + " contenders, each with the baseline only "
					+ "(never with each other), shown contender by contender: here contender " + number + " of " + total
					+ ", " + path + ".";
		}
	}

	@GetMapping("/embed/published/{id}")
	@Nullable String embedPublication(@PathVariable String id, @RequestParam(defaultValue = "1") int vs,
			ServletWebRequest request, Model model) {
		return show(id, vs, "embed", "embed/publication", request, model);
	}

	@GetMapping("/embed/published/{id}/chart")
	@Nullable String embedChart(@PathVariable String id, @RequestParam(defaultValue = "1") int vs, ServletWebRequest request,
			Model model) {
		return show(id, vs, "embed-chart", "embed/chart", request, model);
	}

	@GetMapping("/published/{id}/chart.svg")
	@Nullable ResponseEntity<byte[]> chartSvg(@PathVariable String id, @RequestParam(required = false) @Nullable String metric,
			@RequestParam(defaultValue = "1") int vs, ServletWebRequest request) {
		checkId(id);
		if (freshness.notModified(id, "chart.svg|" + metric + "|" + vs, false, request, () -> load(id))) {
			return null;
		}
		CellChart chart = chart(embedded(load(id), vs), metric == null ? chartMetric(id) : metric);
		return ResponseEntity.ok()
			.contentType(MediaType.parseMediaType("image/svg+xml;charset=UTF-8"))
			.body(chart.svg(chart.naturalHeight()).getBytes(StandardCharsets.UTF_8));
	}

	@GetMapping("/published/{id}/chart.png")
	@Nullable ResponseEntity<byte[]> chartPng(@PathVariable String id, @RequestParam(required = false) @Nullable String metric,
			@RequestParam(defaultValue = "1") int vs, ServletWebRequest request) {
		checkId(id);
		if (freshness.notModified(id, "chart.png|" + metric + "|" + vs, false, request, () -> load(id))) {
			return null;
		}
		CellChart chart = chart(embedded(load(id), vs), metric == null ? chartMetric(id) : metric);
		return ResponseEntity.ok()
			.contentType(MediaType.IMAGE_PNG)
			.body(chart.png(Math.max(CellChart.PREVIEW_HEIGHT, chart.naturalHeight())));
	}

	private @Nullable String show(String id, int vs, String representation, String view, ServletWebRequest request,
			Model model) {
		checkId(id);
		if (freshness.notModified(id, representation + "|" + vs, false, request, () -> load(id))) {
			return null;
		}
		Embedded embedded = embedded(load(id), vs);
		model.addAttribute("pageTitle", embedded.publication().title());
		model.addAttribute("e", embedded);
		model.addAttribute("page", embedded.page());
		model.addAttribute("publication", embedded.publication());
		model.addAttribute("chartSentence", chart(embedded, chartMetric(id)).subtitle());
		return view;
	}

	/**
	 * What an embed shows; of a publication of several contenders, contender {@code vs}
	 * (from 1) against the baseline.
	 */
	private Embedded embedded(Publication publication, int vs) {
		String base = siteUrls.link("");
		Retraction retraction = publications.retractionOf("publication", publication.id()).orElse(null);
		// The live banner of the whole publication, kept by its id: every contender's,
		// not the one shown.
		String differs = liveDifferences.of(publication);
		Publication shownPublication = publication;
		ComparisonPage page;
		Notices said;
		Shown shown = null;
		ControlSection control;
		if (publication.several()) {
			if (vs < 1 || vs > publication.contenders().size()) {
				throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
						"vs=" + vs + ": this publication has contenders 1 to " + publication.contenders().size());
			}
			ComparisonViews.Several several = comparisonPages.several(publication, base);
			shownPublication = several.each().get(vs - 1);
			page = several.comparisonPages().get(vs - 1);
			// The record of every contender's runs, not only the one shown.
			said = several.notices();
			Map<Integer, String> others = new LinkedHashMap<>();
			for (int i = 1; i <= several.pages().size(); i++) {
				if (i != vs) {
					others.put(i, several.pages().get(i - 1).path());
				}
			}
			shown = new Shown(vs, several.pages().size(), several.pages().get(vs - 1).path(), others);
			control = controlSections.of(ComparisonService.Pair.of(shownPublication, several.snapshots().get(vs - 1)),
					PublicationController.settingsQuery(shownPublication.settings()));
		}
		else {
			ComparisonSnapshot snapshot = comparisonPages.published(publication);
			page = comparisonPages.page(publication, snapshot);
			said = notices.forPublication(publication, snapshot, page, base);
			control = controlSections.of(ComparisonService.Pair.of(publication, snapshot),
					PublicationController.settingsQuery(publication.settings()));
		}
		return new Embedded(shownPublication, page, said, retraction, notices.replacementTitle(retraction),
				publications.superseded("publication", publication.id()),
				LiveDifferences.UNKNOWN.equals(differs) ? null : differs, siteUrls.link(publication.url()), shown,
				control);
	}

	private static CellChart chart(Embedded embedded, @Nullable String metric) {
		return CellChart.ratios(embedded.page(), metric, embedded.publication().title(), embedded.bannerLines(),
				embedded.permalink());
	}

	/**
	 * The metric its publisher chose for the publication's chart; {@code null} for the
	 * one chosen by default.
	 */
	private @Nullable String chartMetric(String id) {
		return publications.chartMetricOf(id).orElse(null);
	}

	private Publication load(String id) {
		return publications.find(id).orElseThrow(() -> new PublicationNotFoundException(id));
	}

	private static void checkId(String id) {
		if (!RunId.isValid(id)) {
			throw new PublicationNotFoundException(id);
		}
	}

}
