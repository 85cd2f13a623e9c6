package dev.parity.site;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import dev.parity.caveat.Caveat;
import dev.parity.run.RerunCommands;
import dev.parity.caveat.Caveats;
import dev.parity.history.RunHistoryLinks;
import dev.parity.history.SeriesRepository;
import dev.parity.record.Publications;
import dev.parity.record.Retraction;
import dev.parity.run.Run;
import dev.parity.run.RunId;
import dev.parity.run.RunNotFoundException;
import dev.parity.run.RunReplicates;
import dev.parity.run.RunRepository;
import dev.parity.run.RunSummaries;
import dev.parity.run.RunSummaries.RunFilter;
import dev.parity.run.RunSummary;
import dev.parity.web.RequestChecks;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.domain.Page;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The run list and the run pages, which blog posts link.
 */
@Controller
class RunPageController {

	static final int PAGE_SIZE = 25;

	/**
	 * A run of more cells than this has a light page, as a comparison does: these first
	 * cells written, the others fetched once the page shows ({@code /runs/{id}/cells}),
	 * the charts' and the Pareto view's data too. A 10,000-cell run's page was 9 to 24 MB
	 * of HTML.
	 */
	static final int LIGHT_ROWS = ComparisonViews.LIGHT_ROWS;

	/**
	 * The most cells {@code ?cells=all} writes on one page; beyond, a page at a time
	 * ({@code &from=1000}, …).
	 */
	static final int ALL_ROWS = ComparisonViews.ALL_ROWS;

	private final RunRepository runs;

	private final RunSummaries summaries;

	private final RunListing listing;

	private final RunFlagging flagging;

	private final JsonMapper json;

	private final Caveats caveats;

	private final Publications publications;

	private final RecordNotices notices;

	private final SeriesRepository series;

	private final SiteUrls siteUrls;

	private final RunReplicates replicates;

	private final SweepViewing sweeps;

	private final RunHistoryLinks historyLinks;

	RunPageController(RunRepository runs, RunSummaries summaries, RunListing listing, RunFlagging flagging,
			JsonMapper json, Caveats caveats, Publications publications, RecordNotices notices, SiteUrls siteUrls,
			SeriesRepository series, RunReplicates replicates, SweepViewing sweeps, RunHistoryLinks historyLinks) {
		this.historyLinks = historyLinks;
		this.sweeps = sweeps;
		this.series = series;
		this.replicates = replicates;
		this.notices = notices;
		this.siteUrls = siteUrls;
		this.caveats = caveats;
		this.publications = publications;
		this.runs = runs;
		this.summaries = summaries;
		this.listing = listing;
		this.flagging = flagging;
		this.json = json;
	}

	@GetMapping("/runs")
	String listRuns(@Nullable RunFilter filter, @RequestParam(defaultValue = "0") String page,
			@RequestParam(name = "hide_retracted", defaultValue = "false") boolean hideRetracted, Model model) {
		RunFilter applied = filter == null ? RunFilter.none() : filter;
		Page<RunSummary> found = listing.search(applied, hideRetracted ? publications.retractedRuns() : Set.of(),
				RequestChecks.page(page), PAGE_SIZE);
		model.addAttribute("hideRetracted", hideRetracted);
		model.addAttribute("pageTitle", "Runs");
		model.addAttribute("filter", applied);
		model.addAttribute("runs", found);
		model.addAttribute("runMarks", notices.runMarks(found.map(RunSummary::getId).getContent()));
		return "runs/list";
	}

	@GetMapping("/runs/{id}")
	String showRun(@PathVariable String id, @RequestParam Map<String, String> query, Model model) {
		Run run = load(id);
		// Pareto view, SLOs and goodput (slo_* in the URL), and the commands that would
		// run it again
		SweepPage sweep = sweeps.page(sweeps.ofRun(run, query), query);
		model.addAttribute("sweepAction", run.url());
		model.addAttribute("rerun", RerunCommands.of(run));
		RunFlagging.Flags flags = flagging.check(run);
		RunPage page = RunPage.of(run, flags.run(), flags.cells());
		model.addAttribute("pageTitle", run.title());
		model.addAttribute("page", page);
		model.addAttribute("sweep", light(model, page, sweep, run.url(), query));
		if (!model.containsAttribute("chartsSrc")) {
			model.addAttribute("chartJson", json.writeValueAsString(page.chartData()));
		}
		List<RunSummary> similar = run.provenance().model().commit() == null ? List.of()
				: summaries.findTop20ByModelCommitAndWorkloadFingerprintAndIdNotOrderByUploadedAtDesc(
						run.provenance().model().commit().value(), run.workloadFingerprint(), run.id().value());
		model.addAttribute("similar", similar);
		model.addAttribute("replicates", replicates.of(run.id()));
		model.addAttribute("withinRun", WithinRunLinks.of(run));
		model.addAttribute("runMarks", notices.runMarks(similar.stream().map(RunSummary::getId).toList()));
		List<Caveat> onRun = caveats.forRun(id);
		model.addAttribute("caveats", onRun);
		List<ComparisonPage.CaveatView> views = caveatViews(onRun);
		model.addAttribute("caveatViews", views);
		model.addAttribute("cellCaveats", cellCaveats(views));
		Retraction retraction = publications.retractionOf("run", id).orElse(null);
		model.addAttribute("retraction", retraction);
		// "this run in its history": the series of a measured run, at its place
		model.addAttribute("seriesId", series.seriesOf(id).orElse(null));
		// a pull-request run's history is its base branch's series, with the run marked
		model.addAttribute("historyUrl", historyLinks.of(id).orElse(null));
		model.addAttribute("replacementTitle", notices.replacementTitle(retraction));
		model.addAttribute("supersededTitles", supersededTitles(publications.superseded("run", id)));
		model.addAttribute("supersedes", publications.superseded("run", id));
		return "runs/detail";
	}

	/** Markers c1, c2, … in the order of the list. */
	private static List<ComparisonPage.CaveatView> caveatViews(List<Caveat> onRun) {
		List<ComparisonPage.CaveatView> views = new ArrayList<>();
		for (Caveat caveat : onRun) {
			views.add(new ComparisonPage.CaveatView("c" + (views.size() + 1), caveat, caveat.target().describe()));
		}
		return views;
	}

	/** A caveat on a cell shows its marker in that cell's row. */
	private static Map<String, List<ComparisonPage.CaveatView>> cellCaveats(List<ComparisonPage.CaveatView> views) {
		Map<String, List<ComparisonPage.CaveatView>> cellCaveats = new HashMap<>();
		for (ComparisonPage.CaveatView view : views) {
			if (view.caveat().target().cellAnchor() != null) {
				cellCaveats.computeIfAbsent(view.caveat().target().cellAnchor(), k -> new ArrayList<>()).add(view);
			}
		}
		return cellCaveats;
	}

	/**
	 * The grid's rows from the {@code from}-th cell on ({@code tr} elements), as the run
	 * page writes them.
	 */
	@GetMapping(path = "/runs/{id}/cells", produces = MediaType.TEXT_HTML_VALUE)
	String cells(@PathVariable String id, @RequestParam(defaultValue = "0") String from, Model model) {
		Run run = load(id);
		RunFlagging.Flags flags = flagging.check(run);
		RunPage page = RunPage.of(run, flags.run(), flags.cells());
		int skip = Math.min(CellPages.from(from), page.rows().size());
		model.addAttribute("page", page);
		model.addAttribute("gridRows", page.rows().subList(skip, page.rows().size()));
		model.addAttribute("cellCaveats", cellCaveats(caveatViews(caveats.forRun(id))));
		return "runs/detail :: grid-rows";
	}

	/** The data of the run page's charts, as {@code data-charts} would hold it. */
	@GetMapping(path = "/runs/{id}/charts.json", produces = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<byte[]> charts(@PathVariable String id) {
		Run run = load(id);
		RunFlagging.Flags flags = flagging.check(run);
		RunPage page = RunPage.of(run, flags.run(), flags.cells());
		return ResponseEntity.ok()
			.contentType(MediaType.APPLICATION_JSON)
			.body(json.writeValueAsBytes(page.chartData()));
	}

	/** The run's Pareto view, as {@code data-pareto} would hold it. */
	@GetMapping(path = "/runs/{id}/pareto.json", produces = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<byte[]> pareto(@PathVariable String id) {
		Run run = load(id);
		return ResponseEntity.ok()
			.contentType(MediaType.APPLICATION_JSON)
			.body(json.writeValueAsBytes(sweeps.ofRun(run, Map.of()).pareto()));
	}

	/**
	 * A run page of more than {@link #LIGHT_ROWS} cells: the first ones written and the
	 * rest fetched once it shows, or with {@code ?cells=all} every cell,
	 * {@link #ALL_ROWS} at a time; the charts' and Pareto view's data fetched, the Pareto
	 * table's points those of the cells written.
	 * @return the sweep views as the page shows them
	 */
	static SweepPage light(Model model, RunPage page, SweepPage sweep, String base, Map<String, String> query) {
		int cells = page.rows().size();
		if (cells <= LIGHT_ROWS) {
			model.addAttribute("gridRows", page.rows());
			return sweep;
		}
		Map<String, String> settings = QueryStrings.without(query, "cells", "from");
		model.addAttribute("chartsSrc", base + "/charts.json");
		List<RunPage.Row> rows;
		if ("all".equals(query.get("cells"))) {
			CellPages pages = CellPages.of(base, query, cells, ALL_ROWS);
			rows = page.rows().subList(pages.from(), pages.to());
			model.addAttribute("cellPages", pages);
		}
		else {
			rows = page.rows().subList(0, LIGHT_ROWS);
			model.addAttribute("moreCellsSrc",
					base + "/cells" + QueryStrings.with(settings, "from", String.valueOf(LIGHT_ROWS)));
			model.addAttribute("allCellsUrl", base + QueryStrings.with(settings, "cells", "all"));
		}
		model.addAttribute("gridRows", rows);
		Set<String> anchors = rows.stream().map(RunPage.Row::anchor).collect(Collectors.toUnmodifiableSet());
		return sweep.ofCells(anchors, base + "/pareto.json");
	}

	@GetMapping("/runs/{id}/export.{format}")
	ResponseEntity<String> exportRun(@PathVariable String id, @PathVariable String format,
			@RequestParam Map<String, String> query) {
		Run run = load(id);
		RunFlagging.Flags flags = flagging.check(run);
		RunPage page = RunPage.of(run, flags.run(), flags.cells());
		String permalink = siteUrls.link(run.url());
		String thresholds = flagging.thresholds();
		Notices runNotices = notices.forRun(id, ComparisonExport.absolute(permalink, ""));
		String body = switch (format) {
			case "md" -> RunExport.markdown(page, caveats.forRun(id), permalink, thresholds, runNotices)
					+ SweepExport.markdown(sweeps.ofRun(run, query), json);
			case "csv" -> RunExport.csv(page, permalink, thresholds, runNotices);
			default -> throw new RunNotFoundException(id + "/export." + format);
		};
		return ResponseEntity.ok()
			.contentType(
					MediaType.parseMediaType(("md".equals(format) ? "text/markdown" : "text/csv") + ";charset=UTF-8"))
			.header(HttpHeaders.CONTENT_DISPOSITION, "inline; filename=\"run-" + id + "." + format + "\"")
			.body(body);
	}

	/** The titles of the runs a run supersedes, by id, so that its banner names them. */
	private Map<String, String> supersededTitles(List<Retraction> superseded) {
		Map<String, String> titles = new HashMap<>();
		superseded.forEach(r -> titles.put(r.subjectId(),
				summaries.findById(r.subjectId()).map(RunSummary::getTitle).orElse(r.subjectId())));
		return titles;
	}

	Run load(String id) {
		if (!RunId.isValid(id)) {
			throw new RunNotFoundException(id);
		}
		return runs.find(new RunId(id)).orElseThrow(() -> new RunNotFoundException(id));
	}

}
