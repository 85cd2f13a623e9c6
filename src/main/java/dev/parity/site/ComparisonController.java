package dev.parity.site;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.parity.comparisons.RenderedComparisons;
import dev.parity.comparisons.ComparisonService;
import dev.parity.comparisons.ComparisonsBusy;
import dev.parity.caveat.Caveat;
import dev.parity.caveat.Caveats;
import dev.parity.caveat.DecidingPlan;
import dev.parity.compare.CompareSettings;
import dev.parity.compare.ComparisonSnapshot;
import dev.parity.record.Publication;
import dev.parity.record.Publications;
import dev.parity.record.Retraction;
import dev.parity.run.RunSummaries;
import dev.parity.run.RunSummary;
import dev.parity.web.ApiProblems;
import dev.parity.web.Problem;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.util.StringUtils;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.servlet.View;
import org.springframework.web.servlet.ViewResolver;

/**
 * The side-by-side comparison of a baseline and a contender, live or as published, and
 * the forms that add caveats to it and publish it.
 */
@Controller
class ComparisonController {

	/**
	 * A comparison of more matched cells than this is shown light: these first cells (and
	 * Pareto points) are written into the page, the others and the charts' data are
	 * fetched by the browser once it shows ({@code frontend/js/compare-more.js}), and
	 * {@code ?cells=all} writes everything at once. A 400-cell comparison's page was 2.9
	 * MB of HTML, most of it the cells' rows and the charts' data.
	 */
	static final int LIGHT_ROWS = 100;

	private final ComparisonService comparisons;

	private final Caveats caveats;

	private final Publications publications;

	private final RunSummaries summaries;

	private final JsonMapper json;

	private final ViewResolver views;

	private final RecordNotices notices;

	private final SiteUrls siteUrls;

	private final ContenderComparisons contenders;

	/**
	 * Comparison pages as a visitor who is not signed in sees them, by everything they
	 * show.
	 */
	private final RenderedComparisons renderedPages;

	private final ControlSections controlSections;

	ComparisonController(ComparisonService comparisons, Caveats caveats, Publications publications,
			RunSummaries summaries, JsonMapper json, @Qualifier("thymeleafViewResolver") ViewResolver views,
			RecordNotices notices, SiteUrls siteUrls, RenderedComparisons renderedPages,
			ContenderComparisons contenders, ControlSections controlSections) {
		this.controlSections = controlSections;
		this.renderedPages = renderedPages;
		this.siteUrls = siteUrls;
		this.contenders = contenders;
		this.views = views;
		this.notices = notices;
		this.comparisons = comparisons;
		this.caveats = caveats;
		this.publications = publications;
		this.summaries = summaries;
		this.json = json;
	}

	@GetMapping("/compare/{pair:.+}")
	ModelAndView showComparison(@PathVariable String pair, @RequestParam Map<String, String> query, Model model,
			HttpServletRequest request, Locale locale) throws Exception {
		if (Contenders.areSeveral(pair)) {
			return contenders.showPage(Contenders.parse(pair), query, model, this);
		}
		ComparisonService.Pair runs = ComparisonService.Pair.parse(pair);
		CompareSettings settings = comparisons.settings(query);
		// The record versions before anything read from the record: see
		// ComparisonService.recordVersions.
		long[] versions = comparisons.recordVersions(runs);
		long baselineVersion = versions[0];
		long contenderVersion = versions[1];
		List<Publication> publishedBefore = publishedBefore(runs, versions);
		// Only a visitor who is not signed in (and has no session) sees the page
		// everybody else sees.
		boolean shared = request.getUserPrincipal() == null && request.getSession(false) == null;
		// A publication of the pair taken back changes how the page marks it: its mark is
		// part of the key.
		Map<String, Retraction> publicationMarks = notices.publicationMarks(publishedBefore);
		RenderedComparisons.Key key = new RenderedComparisons.Key(runs.path(), queryString(query), settings.asMap(),
				publishedBefore.stream()
					.map(p -> p.id()
							+ (publicationMarks.containsKey(p.id()) ? ":" + publicationMarks.get(p.id()).kind() : ""))
					.toList(),
				baselineVersion, contenderVersion);
		if (shared) {
			byte[] html = renderedPages.kept(key);
			if (html != null) {
				return new ModelAndView(KeptPages.kept(html));
			}
		}
		ComparisonSnapshot snapshot = comparisons.snapshot(runs, settings);
		live(runs, query, snapshot, publishedBefore, publicationMarks, model);
		if (!shared) {
			return new ModelAndView("compare/table");
		}
		View template = views.resolveViewName("compare/table", locale);
		return new ModelAndView(KeptPages.keeping(template, html -> renderedPages.keep(key, html)));
	}

	/**
	 * The pairs found without a publication, under their runs' record versions: a
	 * publication (or its retraction) is part of the record and moves them on, so a pair
	 * read as unpublished under these versions still is. Most pairs are never published:
	 * their kept pages are then served after one query, the versions'.
	 */
	private final Cache<String, Boolean> unpublished = Caffeine.newBuilder().maximumSize(10_000).build();

	private List<Publication> publishedBefore(ComparisonService.Pair runs, long[] versions) {
		String key = runs.baselineId() + "..." + runs.contenderId() + "@" + versions[0] + "," + versions[1];
		if (unpublished.getIfPresent(key) != null) {
			return List.of();
		}
		List<Publication> found = publications.ofPair(runs.baselineId(), runs.contenderId());
		if (found.isEmpty()) {
			unpublished.put(key, Boolean.TRUE);
		}
		return found;
	}

	/** What the live comparison page shows of this snapshot, the publish form empty. */
	private void live(ComparisonService.Pair runs, Map<String, String> query, ComparisonSnapshot snapshot,
			List<Publication> publishedBefore, Map<String, Retraction> publicationMarks, Model model) {
		model.addAttribute("pageTitle", "Compare " + runs.path());
		ComparisonPage page = page(snapshot, runs);
		model.addAttribute("page", page);
		model.addAttribute("pair", runs.path());
		model.addAttribute("query", queryString(query));
		model.addAttribute("settingsJson", json.writeValueAsString(snapshot.settings()));
		model.addAttribute("publishedBefore", publishedBefore);
		model.addAttribute("publicationMarks", publicationMarks);
		model.addAttribute("notices", notices.forComparison(snapshot, page, ""));
		model.addAttribute("replacementTitles", notices.replacementTitles(page));
		model.addAttribute("noComparable", page.headlines().stream().allMatch(h -> h.comparable() == 0));
		// A comparison with fixed parameters is not filed as its runs' comparison: no
		// caveat or publication of its own.
		model.addAttribute("live", !runs.fixesParams());
		model.addAttribute("fixedParams", runs.fixesParams() ? FixedParamsNote.of(runs) : null);
		model.addAttribute("publishErrors", Map.of());
		model.addAttribute("publishForm", Map.of());
		model.addAttribute("sweepAction", "/compare/" + runs.path());
		model.addAttribute("control", controlSections.of(runs, query));
		model.addAttribute("sweep",
				light(model, page, SweepPage.of(snapshot, query, json), "/compare/" + runs.path(), query));
		chartsInPage(model, page, json, "/compare/" + runs.path(), query);
	}

	/**
	 * The most cells {@code ?cells=all} writes on one page: beyond, it writes them this
	 * many at a time ({@code &from=1000}, …) with links to the pages before and after.
	 * Every cell of a 10,000-cell comparison on one page was tens of megabytes of HTML,
	 * more than the template engine's expression limits allow.
	 */
	static final int ALL_ROWS = 1000;

	/**
	 * A page of more than {@link #LIGHT_ROWS} cells, unless {@code ?cells=all}: the first
	 * cells and points written, the rest and the charts' data fetched from under
	 * {@code base} once it shows (with the same URL parameters). With {@code ?cells=all},
	 * every cell, or {@link #ALL_ROWS} of them from {@code from} on when there are more.
	 * @return the sweep views as the page shows them
	 * @throws org.springframework.web.server.ResponseStatusException 400 when
	 * {@code from} is not a whole number of cells to skip
	 */
	static SweepPage light(Model model, ComparisonPage page, SweepPage sweep, String base, Map<String, String> query) {
		int cells = page.rows().size();
		boolean all = "all".equals(query.get("cells"));
		if (cells <= LIGHT_ROWS || (all && cells <= ALL_ROWS)) {
			return sweep;
		}
		model.addAttribute("chartsSrc", base + "/charts.json" + queryString(without(query, "cells", "from")));
		if (all) {
			CellPages pages = CellPages.of(base, query, cells, ALL_ROWS);
			List<ComparisonPage.Row> rows = page.rows().subList(pages.from(), pages.to());
			model.addAttribute("cellRows", rows);
			model.addAttribute("cellPages", pages);
			java.util.Set<String> anchors = rows.stream()
				.map(ComparisonPage.Row::anchor)
				.collect(Collectors.toUnmodifiableSet());
			return sweep.ofCells(anchors, base + "/pareto.json" + queryString(without(query, "cells", "from")));
		}
		model.addAttribute("cellRows", page.rows().subList(0, LIGHT_ROWS));
		model.addAttribute("moreCellsSrc", base + "/cells" + with(query, "from", String.valueOf(LIGHT_ROWS)));
		model.addAttribute("allCellsUrl", base + with(query, "cells", "all"));
		return sweep.light(LIGHT_ROWS, base + "/pareto.json" + queryString(query),
				base + "/points" + with(query, "from", String.valueOf(LIGHT_ROWS)));
	}

	/** The URL's query without these parameters. */
	static Map<String, String> without(Map<String, String> query, String... names) {
		Map<String, String> less = new LinkedHashMap<>(query);
		for (String name : names) {
			less.remove(name);
		}
		return less;
	}

	/**
	 * The charts' data written into the page, unless {@link #light} has the page fetch
	 * it. When no value of the comparison is comparable (every matched value greyed), the
	 * charts would draw nothing that counts: the page says so once ({@code chartsFolded},
	 * the rules that grey them) and draws them, hollow grey, only when asked, fetching
	 * their data (and the Pareto chart's) from under {@code base} then.
	 */
	static void chartsInPage(Model model, ComparisonPage page, JsonMapper json, String base,
			Map<String, String> query) {
		List<String> folded = nothingToDraw(page);
		if (!folded.isEmpty()) {
			model.addAttribute("chartsFolded", folded);
			String rest = queryString(without(query, "cells", "from"));
			if (!model.containsAttribute("chartsSrc")) {
				model.addAttribute("chartsSrc", base + "/charts.json" + rest);
			}
			if (model.getAttribute("sweep") instanceof SweepPage sweep && sweep.paretoSrc() == null) {
				model.addAttribute("sweep", sweep.fetched(base + "/pareto.json" + rest));
			}
		}
		if (!model.containsAttribute("chartsSrc")) {
			model.addAttribute("chartJson", json.writeValueAsString(page.chartData()));
		}
	}

	/**
	 * The rules that grey every value when no matched value is comparable (the ones said
	 * once at the top when there are, else every rule that greys a value); empty when
	 * some value is comparable or none is greyed.
	 */
	static List<String> nothingToDraw(ComparisonPage page) {
		List<ComparisonPage.Value> values = page.rows().stream().flatMap(r -> r.values().stream()).toList();
		if (values.stream().anyMatch(ComparisonPage.Value::comparable)
				|| values.stream().noneMatch(ComparisonPage.Value::greyed)) {
			return List.of();
		}
		List<String> rules = page.everywhere().stream().map(e -> e.note().rule()).distinct().toList();
		if (!rules.isEmpty()) {
			return rules;
		}
		return values.stream().flatMap(v -> v.reasons().stream()).map(ComparisonPage.Note::rule).distinct().toList();
	}

	/** The URL's query with one more parameter (or this one's value replaced). */
	static String with(Map<String, String> query, String name, String value) {
		Map<String, String> more = new LinkedHashMap<>(query);
		more.put(name, value);
		return queryString(more);
	}

	@Operation(
			summary = "A comparison: both runs, settings, flags, headlines, cells with every flag next to every number; "
					+ "with several contenders ({baseline}...{c1},{c2}, up to 8), {\"baseline\", \"path\", \"comparisons\", \"contenders\": [the body of each pairwise comparison, in URL order]}")
	@ApiResponse(responseCode = "200",
			content = @Content(mediaType = "application/json", schema = @Schema(type = "object")))
	@GetMapping(path = "/api/compare/{pair:.+}", produces = "application/json")
	ResponseEntity<?> showComparisonJson(@PathVariable String pair, @RequestParam Map<String, String> query) {
		if (Contenders.areSeveral(pair)) {
			return ResponseEntity.ok()
				.contentType(org.springframework.http.MediaType.APPLICATION_JSON)
				.body(contenders.json(Contenders.parse(pair), query, this));
		}
		ComparisonService.Pair runs = ComparisonService.Pair.parse(pair);
		byte[] snapshot = comparisons.snapshotJson(runs, comparisons.settings(query));
		byte[] caveatList = json
			.writeValueAsBytes(CaveatJson.list(caveats.forComparison(runs.baselineId(), runs.contenderId()), json));
		// The kept snapshot's text written as it is, the caveats (read now) as its last
		// field: nothing copied.
		int end = objectEnd(snapshot);
		org.springframework.core.io.Resource body = new org.springframework.core.io.AbstractResource() {
			@Override
			public String getDescription() {
				return "the comparison " + runs.path();
			}

			@Override
			public long contentLength() {
				return end + CAVEATS_FIELD.length + caveatList.length + 1;
			}

			@Override
			public java.io.InputStream getInputStream() {
				return new java.io.SequenceInputStream(java.util.Collections.enumeration(List.of(
						new java.io.ByteArrayInputStream(snapshot, 0, end),
						new java.io.ByteArrayInputStream(CAVEATS_FIELD), new java.io.ByteArrayInputStream(caveatList),
						new java.io.ByteArrayInputStream(new byte[] { '}' }))));
			}
		};
		return ResponseEntity.ok().contentType(org.springframework.http.MediaType.APPLICATION_JSON).body(body);
	}

	private static final byte[] CAVEATS_FIELD = ",\"caveats\":".getBytes(StandardCharsets.UTF_8);

	/** Where a JSON object's closing brace is. */
	private static int objectEnd(byte[] object) {
		int end = object.length - 1;
		while (object[end] != '}') {
			end--;
		}
		return end;
	}

	/**
	 * The body of {@code /api/compare/{baseline}...{contender}}: the snapshot with the
	 * comparison's caveats last.
	 */
	byte[] comparisonJson(ComparisonService.Pair runs, Map<String, String> query) {
		byte[] snapshot = comparisons.snapshotJson(runs, comparisons.settings(query));
		byte[] caveatList = json
			.writeValueAsBytes(CaveatJson.list(caveats.forComparison(runs.baselineId(), runs.contenderId()), json));
		// The kept snapshot as text with the caveats, read now, as its last field: no
		// tree is built.
		int end = objectEnd(snapshot);
		byte[] body = new byte[end + CAVEATS_FIELD.length + caveatList.length + 1];
		System.arraycopy(snapshot, 0, body, 0, end);
		System.arraycopy(CAVEATS_FIELD, 0, body, end, CAVEATS_FIELD.length);
		System.arraycopy(caveatList, 0, body, end + CAVEATS_FIELD.length, caveatList.length);
		body[body.length - 1] = '}';
		return body;
	}

	@PostMapping("/compare/{pair:.+}/caveats")
	String addCaveat(@PathVariable String pair, @RequestParam String text,
			@RequestParam(required = false) @Nullable String cell,
			@RequestParam(required = false) @Nullable String metric,
			@RequestParam(name = "deciding_experiment", required = false) @Nullable String decidingExperiment,
			@RequestParam(name = "deciding_plan", required = false) @Nullable String decidingPlan,
			@RequestParam(required = false, defaultValue = "") String query, Principal principal, Model model,
			jakarta.servlet.http.HttpServletResponse response) {
		refuseSeveral(pair, "a caveat");
		ComparisonService.Pair runs = ComparisonService.Pair.parse(pair);
		refuseFixed(runs, "a caveat");
		Caveat added;
		try {
			added = caveats.add(
					Caveat.Target.comparison(runs.baselineId(), runs.contenderId(), blank(cell), blank(metric)), text,
					decidingExperiment, DecidingPlan.parse(decidingPlan, json), principal.getName());
		}
		catch (dev.parity.caveat.CaveatRejected rejected) {
			return CaveatRejectedPage.show(model, response, rejected, "/compare/" + runs.path() + "/caveats",
					"/compare/" + runs.path() + safeQuery(query), text, cell, metric, decidingExperiment, decidingPlan,
					query, true);
		}
		return "redirect:/compare/" + runs.path() + safeQuery(query) + "#caveat-" + added.id();
	}

	/**
	 * Publishes the comparison as computed now. With settings other than the defaults it
	 * needs a {@code reason}; with no comparable cell,
	 * {@code confirm_no_comparable=true}. Refused, it answers 400 with the comparison
	 * page, every problem next to the field it concerns and the typed values kept.
	 */
	@PostMapping("/compare/{pair:.+}/publish")
	String publish(@PathVariable String pair, @RequestParam(defaultValue = "") String title,
			@RequestParam(defaultValue = "") String caption,
			@RequestParam(required = false, defaultValue = "") String query,
			@RequestParam(required = false) @Nullable String reason,
			@RequestParam(name = "confirm_no_comparable", defaultValue = "false") boolean confirmNoComparable,
			@RequestParam(name = "chart_metric", required = false) @Nullable String chartMetric, Principal principal,
			Model model, HttpServletResponse response) {
		if (Contenders.areSeveral(pair)) {
			Contenders several = Contenders.parse(pair);
			several.pairs().forEach(one -> refuseFixed(one, "a publication"));
			String url = contenders.publish(several, parseQuery(query), title, caption, reason, confirmNoComparable,
					principal.getName(), model, this);
			if (url == null) {
				response.setStatus(HttpStatus.BAD_REQUEST.value());
				return "compare/contenders";
			}
			return "redirect:" + url;
		}
		ComparisonService.Pair runs = ComparisonService.Pair.parse(pair);
		refuseFixed(runs, "a publication");
		Map<String, String> settingsQuery = parseQuery(query);
		CompareSettings settings = comparisons.settings(settingsQuery);
		ComparisonSnapshot snapshot = comparisons.freshSnapshot(runs, settings);
		JsonNode frozen = json.valueToTree(snapshot);
		Map<String, String> problems = new LinkedHashMap<>(
				Publications.problems(title, caption, frozen, reason, confirmNoComparable));
		String unknownMetric = Publications.chartMetricProblem(frozen, chartMetric);
		if (unknownMetric != null) {
			problems.put("chart_metric", unknownMetric);
		}
		if (!problems.isEmpty()) {
			List<Publication> publishedBefore = publications.ofPair(runs.baselineId(), runs.contenderId());
			live(runs, settingsQuery, snapshot, publishedBefore, notices.publicationMarks(publishedBefore), model);
			Map<String, String> typed = new java.util.HashMap<>();
			typed.put("title", title);
			typed.put("caption", caption);
			typed.put("reason", reason == null ? "" : reason);
			typed.put("confirm_no_comparable", String.valueOf(confirmNoComparable));
			typed.put("chart_metric", chartMetric == null ? "" : chartMetric);
			model.addAttribute("publishErrors", problems);
			model.addAttribute("publishForm", typed);
			response.setStatus(HttpStatus.BAD_REQUEST.value());
			return "compare/table";
		}
		Publication publication = publications.publish(runs.baselineId(), List.of(runs.contenderId()),
				frozen.get("settings"), title, caption, frozen, snapshot.rulesVersion(), reason, confirmNoComparable,
				chartMetric, principal.getName());
		return "redirect:" + publication.url();
	}

	@GetMapping("/compare/{pair:.+}/export.{format}")
	ResponseEntity<String> exportComparison(@PathVariable String pair, @PathVariable String format,
			@RequestParam Map<String, String> query) {
		if (Contenders.areSeveral(pair)) {
			return contenders.export(Contenders.parse(pair), format, query, this);
		}
		ComparisonService.Pair runs = ComparisonService.Pair.parse(pair);
		ComparisonSnapshot snapshot = comparisons.snapshot(runs, comparisons.settings(query));
		String permalink = siteUrls.link("/compare/" + runs.path()) + queryString(query);
		ComparisonPage page = page(snapshot, runs);
		return export(page, snapshot, null, format, "Comparison " + runs.path(), permalink, "comparison-" + runs.path(),
				notices.forComparison(snapshot, page, ComparisonExport.absolute(permalink, "")), null,
				controlSections.of(runs, query));
	}

	/**
	 * A comparison as Markdown, CSV or JSON, each starting with its notices.
	 * @param stored for a published comparison, the snapshot as it was stored, written as
	 * it is in the JSON; {@code null} for a live one
	 * @param publication for a published comparison, its own fields (title, reason, …),
	 * first in the JSON
	 * @param control the controls declared for the comparison, carried beside the claim
	 * (never part of it); {@code null} for groups and several contenders
	 */
	ResponseEntity<String> export(ComparisonPage page, ComparisonSnapshot snapshot, @Nullable JsonNode stored,
			String format, String title, String permalink, String fileName, Notices notices,
			@Nullable ObjectNode publication, @Nullable ControlSection control) {
		return switch (format) {
			case "md" -> download(
					ComparisonExport.markdown(page, title, permalink, notices, control)
							+ SweepExport.markdown(SweepPage.views(snapshot, json), json),
					"text/markdown", fileName + ".md");
			case "csv" ->
				download(ComparisonExport.csv(page, permalink, notices, control), "text/csv", fileName + ".csv");
			case "json" -> {
				ObjectNode body = json.createObjectNode();
				notices.writeJson(body);
				if (publication != null) {
					body.setAll(publication);
				}
				body.setAll((ObjectNode) (stored != null ? stored : json.valueToTree(snapshot)));
				if (control != null) {
					body.set("controls", controlsJson(control, permalink));
				}
				body.put("permalink", permalink);
				yield download(json.writeValueAsString(body), "application/json", fileName + ".json");
			}
			default -> throw new dev.parity.run.RunNotFoundException("export." + format);
		};
	}

	/**
	 * The controls declared for a comparison as its JSON export carries them:
	 * {@code [{"run", "title", "url",
	 * "comparison", "tested": ["Tested by control run “…” (id): …"], "missed": ["field: expected …, measured …"],
	 * "contradicts"}]}.
	 */
	private ArrayNode controlsJson(ControlSection control, String permalink) {
		ArrayNode controls = json.createArrayNode();
		for (ControlSection.Control tested : control.controls()) {
			ObjectNode node = controls.addObject();
			node.put("run", tested.run());
			node.put("title", tested.title());
			node.put("url", ComparisonExport.absolute(permalink, tested.url()));
			node.put("comparison", tested.comparisonPath());
			tested.sentences().forEach(node.putArray("tested")::add);
			tested.missed().forEach(node.putArray("missed")::add);
			node.put("contradicts", tested.contradicts());
		}
		return controls;
	}

	private static ResponseEntity<String> download(String body, String mediaType, String fileName) {
		return ResponseEntity.ok()
			.contentType(org.springframework.http.MediaType.parseMediaType(mediaType + ";charset=UTF-8"))
			.header(org.springframework.http.HttpHeaders.CONTENT_DISPOSITION,
					"inline; filename=\"" + fileName.replace("...", "--") + "\"")
			.body(body);
	}

	/** The notices of a live comparison: its settings and its runs' retractions. */
	Notices notices(ComparisonSnapshot snapshot, ComparisonPage page, String base) {
		return notices.forComparison(snapshot, page, base);
	}

	/**
	 * A published comparison's snapshot, read back from what it stored in any format it
	 * was ever stored in.
	 */
	ComparisonSnapshot published(Publication publication) {
		return comparisons.published(publication);
	}

	/** The page of a published comparison. */
	ComparisonPage page(Publication publication, ComparisonSnapshot snapshot) {
		return page(snapshot, ComparisonService.Pair.of(publication, snapshot));
	}

	ComparisonPage page(ComparisonSnapshot snapshot, ComparisonService.Pair runs) {
		List<Caveat> onRuns = new java.util.ArrayList<>(caveats.forRun(runs.baselineId()));
		onRuns.addAll(caveats.forRun(runs.contenderId()));
		// The caveats of the runs' comparison concern all their cells, not one slice of
		// each.
		List<Caveat> onComparison = runs.fixesParams() ? List.of()
				: caveats.forComparison(runs.baselineId(), runs.contenderId());
		return ComparisonPage.of(snapshot, onComparison, onRuns,
				publications.retractionOf("run", runs.baselineId()).orElse(null),
				publications.retractionOf("run", runs.contenderId()).orElse(null), comparisons.defaultSettings());
	}

	/**
	 * Caveats and publications of several contenders are written on each pairwise
	 * comparison.
	 */
	private static void refuseSeveral(String path, String what) {
		if (Contenders.areSeveral(path)) {
			throw new Contenders.Rejected(what + " is written on one contender's comparison with the baseline, "
					+ "/compare/{baseline}...{contender}, not on several contenders at once");
		}
	}

	/**
	 * Caveats and publications are filed under the runs' comparison: one with fixed
	 * parameters has none of its own.
	 */
	private static void refuseFixed(ComparisonService.Pair runs, String what) {
		if (runs.fixesParams()) {
			throw new ComparisonService.FixedParamsRejected(
					what + " is filed under the comparison of whole runs: add it on /compare/"
							+ String.join("+", runs.baselineIds()) + "..." + String.join("+", runs.contenderIds())
							+ " (a comparison with fixed parameters has none of its own)");
		}
	}

	@ExceptionHandler({ ComparisonService.FixedParamsRejected.class, Contenders.Rejected.class })
	ResponseEntity<String> rejectPath(RuntimeException ex) {
		return ResponseEntity.status(HttpStatus.BAD_REQUEST)
			.contentType(org.springframework.http.MediaType.TEXT_PLAIN)
			.body(ex.getMessage());
	}

	@ExceptionHandler(ComparisonService.NotReplicates.class)
	ResponseEntity<String> rejectGroup(ComparisonService.NotReplicates ex) {
		return ResponseEntity.status(HttpStatus.BAD_REQUEST)
			.contentType(org.springframework.http.MediaType.TEXT_PLAIN)
			.body(ex.getMessage());
	}

	/**
	 * 503 with {@code Retry-After}: a page for a browser, the usual {@code errors} body
	 * for the API and scripts.
	 */
	@ExceptionHandler(ComparisonsBusy.class)
	Object busy(ComparisonsBusy busy, HttpServletRequest request, HttpServletResponse response) {
		response.setHeader(org.springframework.http.HttpHeaders.RETRY_AFTER,
				String.valueOf(ComparisonsBusy.RETRY_AFTER_SECONDS));
		String accept = request.getHeader(org.springframework.http.HttpHeaders.ACCEPT);
		if (!request.getRequestURI().startsWith("/api/") && accept != null && accept.contains("text/html")) {
			return new ModelAndView("error/busy", Map.of("pageTitle", "Busy", "message", busy.getMessage()),
					HttpStatus.SERVICE_UNAVAILABLE);
		}
		return ApiProblems.status(HttpStatus.SERVICE_UNAVAILABLE)
			.body(ApiProblems.detail(HttpStatus.SERVICE_UNAVAILABLE,
					List.of(new Problem("$", String.valueOf(busy.getMessage())))));
	}

	@ExceptionHandler(IllegalArgumentException.class)
	ResponseEntity<String> rejectSettings(IllegalArgumentException ex) {
		return ResponseEntity.status(HttpStatus.BAD_REQUEST)
			.contentType(org.springframework.http.MediaType.TEXT_PLAIN)
			.body("Bad comparison setting: " + ex.getMessage());
	}

	static String queryString(Map<String, String> query) {
		if (query.isEmpty()) {
			return "";
		}
		return "?" + query.entrySet()
			.stream()
			.filter(e -> StringUtils.hasText(e.getValue()))
			.map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
					+ URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
			.collect(Collectors.joining("&"));
	}

	/**
	 * A query string carried through a form, re-encoded so nothing but parameters comes
	 * back.
	 */
	static String safeQuery(String query) {
		String encoded = queryString(parseQuery(query));
		return encoded.equals("?") ? "" : encoded;
	}

	static Map<String, String> parseQuery(String query) {
		Map<String, String> map = new LinkedHashMap<>();
		String text = query.startsWith("?") ? query.substring(1) : query;
		for (String part : text.split("&")) {
			if (part.isBlank()) {
				continue;
			}
			int eq = part.indexOf('=');
			String name = java.net.URLDecoder.decode(eq < 0 ? part : part.substring(0, eq), StandardCharsets.UTF_8);
			String value = eq < 0 ? "" : java.net.URLDecoder.decode(part.substring(eq + 1), StandardCharsets.UTF_8);
			map.put(name, value);
		}
		return map;
	}

	private static @Nullable String blank(@Nullable String text) {
		return StringUtils.hasText(text) ? text : null;
	}

}
