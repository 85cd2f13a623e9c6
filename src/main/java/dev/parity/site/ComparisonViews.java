package dev.parity.site;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.parity.caveat.web.CaveatJson;
import dev.parity.caveat.Caveat;
import dev.parity.caveat.Caveats;
import dev.parity.compare.CompareSettings;
import dev.parity.compare.ComparisonSnapshot;
import dev.parity.snapshots.FrozenResult;
import dev.parity.snapshots.ComparisonService;
import dev.parity.snapshots.RenderedComparisons;
import dev.parity.record.Publication;
import dev.parity.record.Publications;
import dev.parity.record.Retraction;
import dev.parity.run.RunNotFoundException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.core.io.AbstractResource;
import org.springframework.core.io.Resource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.ui.Model;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.servlet.View;
import org.springframework.web.servlet.ViewResolver;

/**
 * What a comparison of a baseline and a contender shows, live or as published, whoever
 * asks for it (the comparison's pages and API, a publication's page, embeds and exports,
 * the CI verdict): its page model, its JSON, its exports, and the pages kept for visitors
 * who are not signed in.
 */
@Component
class ComparisonViews {

	/**
	 * A comparison of more matched cells than this is shown light: these first cells (and
	 * Pareto points) are written into the page, the others and the charts' data are
	 * fetched by the browser once it shows ({@code frontend/js/compare-more.js}), and
	 * {@code ?cells=all} writes everything at once. A 400-cell comparison's page was 2.9
	 * MB of HTML, most of it the cells' rows and the charts' data.
	 */
	static final int LIGHT_ROWS = 100;

	/**
	 * The most cells {@code ?cells=all} writes on one page: beyond, it writes them this
	 * many at a time ({@code &from=1000}, …) with links to the pages before and after.
	 * Every cell of a 10,000-cell comparison on one page was tens of megabytes of HTML,
	 * more than the template engine's expression limits allow.
	 */
	static final int ALL_ROWS = 1000;

	private final ComparisonService comparisons;

	private final Caveats caveats;

	private final Publications publications;

	private final JsonMapper json;

	private final ViewResolver views;

	private final RecordNotices notices;

	private final SiteUrls siteUrls;

	/**
	 * Comparison pages as a visitor who is not signed in sees them, by everything they
	 * show.
	 */
	private final RenderedComparisons renderedPages;

	private final ControlSections controlSections;

	private final PublishedFreshness freshness;

	ComparisonViews(ComparisonService comparisons, Caveats caveats, Publications publications, JsonMapper json,
			@Qualifier("thymeleafViewResolver") ViewResolver views, RecordNotices notices, SiteUrls siteUrls,
			RenderedComparisons renderedPages, ControlSections controlSections, PublishedFreshness freshness) {
		this.freshness = freshness;
		this.controlSections = controlSections;
		this.renderedPages = renderedPages;
		this.siteUrls = siteUrls;
		this.views = views;
		this.notices = notices;
		this.comparisons = comparisons;
		this.caveats = caveats;
		this.publications = publications;
		this.json = json;
	}

	/**
	 * The live comparison page of a pair: kept as rendered for a visitor who is not
	 * signed in ({@code shared}), and served from there while nothing it shows changed.
	 */
	@Nullable ModelAndView livePage(ComparisonService.Pair runs, Map<String, String> query, Model model, boolean shared,
			ServletWebRequest request, Locale locale) throws Exception {
		CompareSettings settings = comparisons.settings(query);
		// The record versions before anything read from the record: see
		// ComparisonService.recordVersions.
		long[] versions = comparisons.recordVersions(runs);
		long baselineVersion = versions[0];
		long contenderVersion = versions[1];
		List<Publication> publishedBefore = publishedBefore(runs, versions);
		// A publication of the pair taken back changes how the page marks it: its mark is
		// part of the key.
		Map<String, Retraction> publicationMarks = notices.publicationMarks(publishedBefore);
		RenderedComparisons.Key key = new RenderedComparisons.Key(runs.path(), QueryStrings.of(query), settings.asMap(),
				publishedBefore.stream()
					.map(p -> p.id()
							+ (publicationMarks.containsKey(p.id()) ? ":" + publicationMarks.get(p.id()).kind() : ""))
					.toList(),
				baselineVersion, contenderVersion);
		if (shared) {
			// The key is everything the kept page shows: its tag. A client holding it
			// gets a 304 after the one query of the record versions, nothing rendered.
			if (freshness.notModifiedKept(key.toString(), request)) {
				return null;
			}
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

	/**
	 * What the live comparison page shows of this snapshot, the publish form empty; the
	 * publications of the pair are read now.
	 */
	void live(ComparisonService.Pair runs, Map<String, String> query, ComparisonSnapshot snapshot, Model model) {
		List<Publication> publishedBefore = publications.ofPair(runs.baselineId(), runs.contenderId());
		live(runs, query, snapshot, publishedBefore, notices.publicationMarks(publishedBefore), model);
	}

	/** What the live comparison page shows of this snapshot, the publish form empty. */
	private void live(ComparisonService.Pair runs, Map<String, String> query, ComparisonSnapshot snapshot,
			List<Publication> publishedBefore, Map<String, Retraction> publicationMarks, Model model) {
		model.addAttribute("pageTitle", "Compare " + runs.path());
		ComparisonPage page = page(snapshot, runs);
		model.addAttribute("page", page);
		model.addAttribute("pair", runs.path());
		model.addAttribute("query", QueryStrings.of(query));
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
		model.addAttribute("chartsSrc",
				base + "/charts.json" + QueryStrings.of(QueryStrings.without(query, "cells", "from")));
		if (all) {
			CellPages pages = CellPages.of(base, query, cells, ALL_ROWS);
			List<ComparisonPage.Row> rows = page.rows().subList(pages.from(), pages.to());
			model.addAttribute("cellRows", rows);
			model.addAttribute("cellPages", pages);
			Set<String> anchors = rows.stream().map(ComparisonPage.Row::anchor).collect(Collectors.toUnmodifiableSet());
			return sweep.ofCells(anchors,
					base + "/pareto.json" + QueryStrings.of(QueryStrings.without(query, "cells", "from")));
		}
		model.addAttribute("cellRows", page.rows().subList(0, LIGHT_ROWS));
		model.addAttribute("moreCellsSrc",
				base + "/cells" + QueryStrings.with(query, "from", String.valueOf(LIGHT_ROWS)));
		model.addAttribute("allCellsUrl", base + QueryStrings.with(query, "cells", "all"));
		return sweep.light(LIGHT_ROWS, base + "/pareto.json" + QueryStrings.of(query),
				base + "/points" + QueryStrings.with(query, "from", String.valueOf(LIGHT_ROWS)));
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
			String rest = QueryStrings.of(QueryStrings.without(query, "cells", "from"));
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

	/**
	 * The body of {@code /api/compare/{baseline}...{contender}}: the snapshot with the
	 * comparison's caveats last.
	 */
	ComparisonJson comparisonJson(ComparisonService.Pair runs, Map<String, String> query) {
		byte[] snapshot = comparisons.snapshotJson(runs, comparisons.settings(query));
		byte[] caveatList = json
			.writeValueAsBytes(CaveatJson.list(caveats.forComparison(runs.baselineId(), runs.contenderId()), json));
		return new ComparisonJson(runs.path(), snapshot, objectEnd(snapshot), caveatList);
	}

	/**
	 * A comparison's JSON: the kept snapshot's text written as it is, the caveats (read
	 * now) as its last field. No tree is built, and served, nothing is copied.
	 *
	 * @param end where the snapshot's closing brace is
	 */
	record ComparisonJson(String path, byte[] snapshot, int end, byte[] caveatList) {

		private static final byte[] CAVEATS_FIELD = ",\"caveats\":".getBytes(StandardCharsets.UTF_8);

		long length() {
			return end + CAVEATS_FIELD.length + caveatList.length + 1;
		}

		InputStream stream() {
			return new SequenceInputStream(Collections.enumeration(
					List.of(new ByteArrayInputStream(snapshot, 0, end), new ByteArrayInputStream(CAVEATS_FIELD),
							new ByteArrayInputStream(caveatList), new ByteArrayInputStream(new byte[] { '}' }))));
		}

		/** The body as a response streams it. */
		Resource resource() {
			return new AbstractResource() {
				@Override
				public String getDescription() {
					return "the comparison " + path;
				}

				@Override
				public long contentLength() {
					return length();
				}

				@Override
				public InputStream getInputStream() {
					return stream();
				}
			};
		}

		/** Writes the body where another is put together. */
		void writeTo(ByteArrayOutputStream out) {
			try {
				stream().transferTo(out);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

	}

	/** Where a JSON object's closing brace is. */
	private static int objectEnd(byte[] object) {
		int end = object.length - 1;
		while (object[end] != '}') {
			end--;
		}
		return end;
	}

	/** A live comparison as Markdown, CSV or JSON. */
	ResponseEntity<String> export(ComparisonService.Pair runs, String format, Map<String, String> query) {
		return export(runs, comparisons.snapshot(runs, comparisons.settings(query)), format, query);
	}

	/**
	 * A live comparison as Markdown, CSV or JSON, from its snapshot in hand (the CI
	 * verdict's, computed after waiting for its turn: the export then asks for no turn
	 * but its optional control plan's).
	 */
	ResponseEntity<String> export(ComparisonService.Pair runs, ComparisonSnapshot snapshot, String format,
			Map<String, String> query) {
		String permalink = siteUrls.link("/compare/" + runs.path()) + QueryStrings.of(query);
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
			default -> throw new RunNotFoundException("export." + format);
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
			.contentType(MediaType.parseMediaType(mediaType + ";charset=UTF-8"))
			.header(HttpHeaders.CONTENT_DISPOSITION, "inline; filename=\"" + fileName.replace("...", "--") + "\"")
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
		List<Caveat> onRuns = new ArrayList<>(caveats.forRun(runs.baselineId()));
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
	 * A publication of several contenders read back: each contender's frozen pairwise
	 * page, and its notices.
	 */
	record Several(Contenders contenders, List<ContendersPage.Contender> pages, List<Publication> each,
			List<ComparisonSnapshot> snapshots, List<ComparisonPage> comparisonPages, Notices notices) {
	}

	/**
	 * Reads a publication of several contenders; the notices of its runs are each
	 * prefixed with their contender.
	 */
	Several several(Publication publication, String base) {
		List<Publication> each = FrozenResult.eachContender(publication);
		List<ComparisonService.Pair> pairs = new ArrayList<>();
		List<ContendersPage.Contender> pages = new ArrayList<>();
		List<ComparisonPage> comparisons = new ArrayList<>();
		List<String> others = new ArrayList<>();
		List<ComparisonSnapshot> snapshots = new ArrayList<>();
		Notices first = null;
		for (int i = 0; i < each.size(); i++) {
			ComparisonSnapshot snapshot = published(each.get(i));
			ComparisonService.Pair pair = ComparisonService.Pair.of(each.get(i), snapshot);
			ComparisonPage page = page(snapshot, pair);
			snapshots.add(snapshot);
			pairs.add(pair);
			comparisons.add(page);
			String contender = Contenders.contenderPath(pair);
			pages.add(new ContendersPage.Contender("vs" + (i + 1), i + 1, contender, pair.path(), page));
			Notices one = notices.forPublication(each.get(i), snapshot, page, base);
			first = first == null ? one : first;
			one.others().forEach(line -> others.add("vs " + contender + ": " + line));
		}
		Contenders contenders = new Contenders(FrozenResult.baselineOf(publication), pairs);
		Notices all = new Notices(first.retraction(), first.replacementTitle(), first.replacementUrl(),
				first.settings(), first.settingsReason(), first.noComparable(), others.stream().distinct().toList());
		return new Several(contenders, pages, each, snapshots, comparisons, all);
	}

}
