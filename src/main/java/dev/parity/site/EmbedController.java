package dev.parity.site;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.parity.record.Publication;
import dev.parity.record.PublicationNotFoundException;
import dev.parity.record.Publications;
import dev.parity.record.Retraction;
import dev.parity.run.RunId;
import org.jspecify.annotations.Nullable;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.context.request.ServletWebRequest;

/**
 * A published comparison for other sites: embeds that a blog may frame ({@code /embed/…}, the only pages any site
 * may frame), the whole table or the chart alone, and the ratio chart as an SVG or PNG image to paste where frames
 * are not allowed. Each shows the frozen numbers with their greying, the caveat footnotes and any supersession,
 * retraction or live-comparison banner inside itself, so a copy never drops them.
 */
@Controller
class EmbedController {

	private final Publications publications;

	private final ComparisonController comparisonPages;

	private final RecordNotices notices;

	private final LiveDifferences liveDifferences;

	private final PublishedFreshness freshness;

	private final SiteUrls siteUrls;

	EmbedController(Publications publications, ComparisonController comparisonPages, RecordNotices notices,
			LiveDifferences liveDifferences, PublishedFreshness freshness, SiteUrls siteUrls) {
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
			String permalink) {

		/** Every banner as one line, the publication's own retraction first: what an image draws above its bars. */
		List<String> bannerLines() {
			List<String> lines = new ArrayList<>();
			if (liveDiffers != null) {
				lines.add("The live comparison now says something else (" + liveDiffers + "): see the link.");
			}
			lines.addAll(notices.lines());
			return lines;
		}
	}

	@GetMapping("/embed/published/{id}")
	@Nullable String embedPublication(@PathVariable String id, ServletWebRequest request, Model model) {
		return show(id, "embed", "embed/publication", request, model);
	}

	@GetMapping("/embed/published/{id}/chart")
	@Nullable String embedChart(@PathVariable String id, ServletWebRequest request, Model model) {
		return show(id, "embed-chart", "embed/chart", request, model);
	}

	@GetMapping("/published/{id}/chart.svg")
	@Nullable ResponseEntity<byte[]> chartSvg(@PathVariable String id, @RequestParam(required = false) @Nullable String metric,
			ServletWebRequest request) {
		checkId(id);
		if (freshness.notModified(id, "chart.svg|" + metric, false, request, () -> load(id))) {
			return null;
		}
		CellChart chart = chart(embedded(load(id)), metric);
		return ResponseEntity.ok().contentType(MediaType.parseMediaType("image/svg+xml;charset=UTF-8"))
			.body(chart.svg(chart.naturalHeight()).getBytes(StandardCharsets.UTF_8));
	}

	@GetMapping("/published/{id}/chart.png")
	@Nullable ResponseEntity<byte[]> chartPng(@PathVariable String id, @RequestParam(required = false) @Nullable String metric,
			ServletWebRequest request) {
		checkId(id);
		if (freshness.notModified(id, "chart.png|" + metric, false, request, () -> load(id))) {
			return null;
		}
		CellChart chart = chart(embedded(load(id)), metric);
		return ResponseEntity.ok().contentType(MediaType.IMAGE_PNG)
			.body(chart.png(Math.max(CellChart.PREVIEW_HEIGHT, chart.naturalHeight())));
	}

	private @Nullable String show(String id, String representation, String view, ServletWebRequest request, Model model) {
		checkId(id);
		if (freshness.notModified(id, representation, false, request, () -> load(id))) {
			return null;
		}
		Embedded embedded = embedded(load(id));
		model.addAttribute("pageTitle", embedded.publication().title());
		model.addAttribute("e", embedded);
		model.addAttribute("page", embedded.page());
		model.addAttribute("publication", embedded.publication());
		model.addAttribute("chartSentence", chart(embedded, null).subtitle());
		return view;
	}

	private Embedded embedded(Publication publication) {
		ComparisonService.Pair pair = ComparisonService.Pair.of(publication);
		ComparisonPage page = comparisonPages.page(publication.result(), pair);
		String base = siteUrls.link("");
		Retraction retraction = publications.retractionOf("publication", publication.id()).orElse(null);
		String differs = liveDifferences.of(publication);
		return new Embedded(publication, page, notices.forPublication(publication, page, base), retraction,
				notices.replacementTitle(retraction), publications.superseded("publication", publication.id()),
				LiveDifferences.UNKNOWN.equals(differs) ? null : differs, siteUrls.link(publication.url()));
	}

	private static CellChart chart(Embedded embedded, @Nullable String metric) {
		return CellChart.ratios(embedded.page(), metric, embedded.publication().title(), embedded.bannerLines(),
				embedded.permalink());
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
