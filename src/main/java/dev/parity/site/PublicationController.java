package dev.parity.site;

import java.security.Principal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.parity.snapshots.ComparisonService;
import dev.parity.snapshots.FrozenResult;
import dev.parity.record.Publication;
import dev.parity.record.PublicationNotFoundException;
import dev.parity.record.Publications;
import dev.parity.record.Retraction;
import dev.parity.run.RunId;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.jspecify.annotations.Nullable;
import dev.parity.compare.ComparisonSnapshot;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.servlet.View;
import org.springframework.web.servlet.ViewResolver;

/**
 * Published comparisons: the frozen claim under its permalink, with the caveats added
 * since beside it, and banners when it was superseded or when the live comparison now
 * says something else.
 */
@Controller
class PublicationController {

	private final Publications publications;

	private final ComparisonViews comparisonPages;

	private final JsonMapper json;

	private final RecordNotices notices;

	private final SiteUrls siteUrls;

	private final LiveDifferences liveDifferences;

	private final PublishedFreshness freshness;

	private final KeptPages keptPages;

	private final ViewResolver views;

	private final ContenderComparisons contenderExports;

	private final ControlSections controlSections;

	PublicationController(Publications publications, ComparisonViews comparisonPages, JsonMapper json,
			RecordNotices notices, SiteUrls siteUrls, LiveDifferences liveDifferences, PublishedFreshness freshness,
			KeptPages keptPages, @Qualifier("thymeleafViewResolver") ViewResolver views,
			ContenderComparisons contenderExports, ControlSections controlSections) {
		this.controlSections = controlSections;
		this.contenderExports = contenderExports;
		this.keptPages = keptPages;
		this.views = views;
		this.liveDifferences = liveDifferences;
		this.freshness = freshness;
		this.notices = notices;
		this.siteUrls = siteUrls;
		this.publications = publications;
		this.comparisonPages = comparisonPages;
		this.json = json;
	}

	/**
	 * The query of a page of every cell: {@code cells=all}, and from which cell when it
	 * is not the first page.
	 */
	private static Map<String, String> allCells(@Nullable String from) {
		Map<String, String> query = new LinkedHashMap<>();
		query.put("cells", "all");
		if (from != null) {
			query.put("from", from);
		}
		return query;
	}

	@GetMapping("/published/{id}")
	@Nullable ModelAndView showPublication(@PathVariable String id, Model model, ServletWebRequest request, Locale locale)
			throws Exception {
		if (!RunId.isValid(id)) {
			throw new PublicationNotFoundException(id);
		}
		// Every cell written at once is another representation of the page (a light page
		// fetches the rest).
		boolean allCells = "all".equals(request.getParameter("cells"));
		String from = allCells && request.getParameter("from") != null
				? String.valueOf(CellPages.from(request.getParameter("from"))) : null;
		if (freshness.notModified(id, allCells ? "page-all-cells" + (from == null ? "" : "-from-" + from) : "page",
				true, request, () -> load(id))) {
			return null;
		}
		// A page everybody sees alike is kept by its tag, which changes with anything it
		// shows.
		String shared = (String) request.getRequest().getAttribute(PublishedFreshness.SHARED_TAG);
		View kept = shared == null ? null : keptPages.kept(shared);
		if (kept != null) {
			return new ModelAndView(kept);
		}
		Publication publication = load(id);
		if (publication.several()) {
			return showSeveral(publication, model, shared, locale);
		}
		ComparisonSnapshot snapshot = comparisonPages.published(publication);
		ComparisonService.Pair pair = ComparisonService.Pair.of(publication, snapshot);
		ComparisonPage page = comparisonPages.page(snapshot, pair);
		Map<String, String> settings = settingsQuery(publication.settings());
		model.addAttribute("page", page);
		model.addAttribute("pair", pair.path());
		model.addAttribute("query", QueryStrings.of(settings));
		model.addAttribute("notices", notices.forPublication(publication, snapshot, page, ""));
		model.addAttribute("replacementTitles", notices.replacementTitles(page));
		model.addAttribute("live", false);
		// The Pareto fronts and goodput as frozen at publication, under the SLOs it was
		// published with.
		model.addAttribute("sweep", ComparisonViews.light(model, page, SweepPage.of(snapshot, settings, json),
				"/published/" + id, allCells ? allCells(from) : Map.of()));
		ComparisonViews.chartsInPage(model, page, json, "/published/" + id, Map.of());
		// The chart its images and embeds draw comes first among the page's own.
		model.addAttribute("publishedChart",
				CellChart.chosenMetric(page, publications.chartMetricOf(id).orElse(null), publication.title()));
		model.addAttribute("sweepAction", "/compare/" + pair.path());
		// The controls declared for the comparison, beside the published claim (never
		// part of what it compares).
		model.addAttribute("control", controlSections.of(pair, settings));
		String liveUrl = "/compare/" + pair.path() + QueryStrings.of(settings);
		return render(publication, liveUrl, "compare/table", model, shared, locale);
	}

	/** The banners every published page shows above its numbers, and the page. */
	private ModelAndView render(Publication publication, String liveUrl, String view, Model model,
			@Nullable String shared, Locale locale) throws Exception {
		String id = publication.id();
		Retraction retraction = publications.retractionOf("publication", id).orElse(null);
		model.addAttribute("pageTitle", publication.title());
		model.addAttribute("publication", publication);
		// The metric its chart (preview, images, embeds) draws, as its publisher chose
		// it.
		model.addAttribute("chartMetric", publications.chartMetricOf(id).orElse(null));
		model.addAttribute("publicationRetraction", retraction);
		model.addAttribute("replacementTitle",
				retraction == null || retraction.replacementId() == null ? null
						: publications.find(retraction.replacementId())
							.map(Publication::title)
							.orElse(retraction.replacementId()));
		List<Retraction> supersedes = publications.superseded("publication", id);
		model.addAttribute("supersedes", supersedes);
		Map<String, String> supersededTitles = new HashMap<>();
		supersedes.forEach(r -> supersededTitles.put(r.subjectId(),
				publications.find(r.subjectId()).map(Publication::title).orElse(r.subjectId())));
		model.addAttribute("supersededTitles", supersededTitles);
		model.addAttribute("liveUrl", liveUrl);
		String differs = liveDifferences.of(publication);
		differs = LiveDifferences.UNKNOWN.equals(differs) ? null : differs;
		model.addAttribute("liveDiffers", differs != null);
		model.addAttribute("liveReason", differs == null ? "" : "(" + differs + ")");
		if (shared == null) {
			return new ModelAndView(view);
		}
		return new ModelAndView(keptPages.keeping(views.resolveViewName(view, locale), shared));
	}

	/**
	 * A publication of several contenders: the N-way table of each contender's frozen
	 * comparison with the baseline.
	 */
	private ModelAndView showSeveral(Publication publication, Model model, @Nullable String shared, Locale locale)
			throws Exception {
		ComparisonViews.Several several = comparisonPages.several(publication, "");
		Map<String, String> settings = settingsQuery(publication.settings());
		String query = QueryStrings.of(settings);
		model.addAttribute("page", ContendersPage.of(several.pages()));
		model.addAttribute("path", several.contenders().path());
		model.addAttribute("baselinePath", several.contenders().baseline());
		model.addAttribute("query", query.equals("?") ? "" : query);
		model.addAttribute("notices", several.notices());
		model.addAttribute("noticeLines", several.notices().others());
		return render(publication, "/compare/" + several.contenders().path() + query, "compare/contenders", model,
				shared, locale);
	}

	@Operation(
			summary = "A published comparison: the result as computed at publication, with title, caption and record")
	@ApiResponse(responseCode = "200",
			content = @Content(mediaType = "application/json",
					schema = @Schema(implementation = PublicationAnswers.Published.class)))
	@GetMapping("/api/published/{id}")
	@ResponseBody
	PublicationAnswers.@Nullable Published showPublicationJson(@PathVariable String id, ServletWebRequest request) {
		if (!RunId.isValid(id)) {
			throw new PublicationNotFoundException(id);
		}
		if (freshness.notModified(id, "api", false, request, () -> load(id))) {
			return null;
		}
		Publication publication = load(id);
		String base = siteUrls.link("");
		Notices said;
		if (publication.several()) {
			said = comparisonPages.several(publication, base).notices();
		}
		else {
			ComparisonSnapshot snapshot = comparisonPages.published(publication);
			said = notices.forPublication(publication, snapshot, comparisonPages.page(publication, snapshot), base);
		}
		return PublicationAnswers.Published.of(publication, publications.chartMetricOf(publication.id()).orElse(null),
				said, publications.retractionOf("publication", id).orElse(null));
	}

	@GetMapping("/published/{id}/export.{format}")
	@Nullable ResponseEntity<String> exportPublication(@PathVariable String id, @PathVariable String format,
			ServletWebRequest request) {
		if (!RunId.isValid(id) || !Set.of("md", "csv", "json").contains(format)) {
			throw new PublicationNotFoundException(id);
		}
		if (freshness.notModified(id, "export." + format, false, request, () -> load(id))) {
			return null;
		}
		Publication publication = load(id);
		String permalink = siteUrls.link(publication.url());
		ObjectNode fields = json.createObjectNode();
		fields.put("title", publication.title());
		fields.put("caption", publication.caption());
		fields.put("published_at", publication.createdAt().toString());
		fields.put("published_by", publication.createdBy());
		fields.put("settings_reason", publication.settingsReason());
		fields.put("no_comparable_confirmed", publication.noComparableConfirmed());
		if (publication.several()) {
			return exportSeveral(publication, format, permalink, fields);
		}
		ComparisonSnapshot snapshot = comparisonPages.published(publication);
		ComparisonPage page = comparisonPages.page(publication, snapshot);
		// The controls declared for the comparison, beside the frozen claim (never part
		// of what it compares).
		ControlSection control = controlSections.of(ComparisonService.Pair.of(publication, snapshot),
				settingsQuery(publication.settings()));
		return comparisonPages.export(page, snapshot, publication.result(), format, publication.title(), permalink,
				"published-" + id,
				notices.forPublication(publication, snapshot, page, ComparisonExport.absolute(permalink, "")), fields,
				control);
	}

	/**
	 * Each contender's frozen comparison exported as its pairwise publication would be
	 * (with the publication's notices), put together as the live view of several
	 * contenders puts them.
	 */
	private ResponseEntity<String> exportSeveral(Publication publication, String format, String permalink,
			ObjectNode fields) {
		String base = ComparisonExport.absolute(permalink, "");
		ComparisonViews.Several several = comparisonPages.several(publication, base);
		List<String> bodies = new ArrayList<>();
		for (int i = 0; i < several.each().size(); i++) {
			Publication one = several.each().get(i);
			ComparisonPage page = several.comparisonPages().get(i);
			ComparisonSnapshot snapshot = several.snapshots().get(i);
			bodies.add(comparisonPages
				.export(page, snapshot, one.result(), format,
						publication.title() + " — contender " + (i + 1) + " of " + several.each().size() + ", "
								+ several.pages().get(i).path(),
						permalink, "published-" + publication.id(), notices.forPublication(one, snapshot, page, base),
						fields,
						controlSections.of(ComparisonService.Pair.of(one, snapshot), settingsQuery(one.settings())))
				.getBody());
		}
		ObjectNode head = json.createObjectNode();
		several.notices().writeJson(head);
		head.setAll(fields);
		return contenderExports.export(several.contenders(), format, bodies, publication.title(), permalink,
				"published-" + publication.id(), head);
	}

	@PostMapping("/published/{id}/retract")
	String retractPublication(@PathVariable String id, @RequestParam String reason,
			@RequestParam(required = false) @Nullable String replacement, Principal principal) {
		load(id);
		publications.retract("publication", id, reason, replacement, principal.getName());
		return "redirect:/published/" + id;
	}

	@PostMapping("/runs/{id}/retract")
	String retractRun(@PathVariable String id, @RequestParam String reason,
			@RequestParam(required = false) @Nullable String replacement, Principal principal) {
		publications.retract("run", id, reason, replacement, principal.getName());
		return "redirect:/runs/" + id;
	}

	/** The URL parameters that recompute a comparison with these settings. */
	static Map<String, String> settingsQuery(JsonNode settings) {
		Map<String, String> query = new LinkedHashMap<>();
		settings.forEachEntry((name, value) -> {
			if (value.isArray()) {
				List<String> items = value.valueStream().map(JsonNode::asString).toList();
				query.put(name, items.isEmpty() ? "none" : String.join(",", items));
			}
			else {
				query.put(name, value.asString());
			}
		});
		return query;
	}

	private Publication load(String id) {
		if (!RunId.isValid(id)) {
			throw new PublicationNotFoundException(id);
		}
		return publications.find(id).orElseThrow(() -> new PublicationNotFoundException(id));
	}

}
