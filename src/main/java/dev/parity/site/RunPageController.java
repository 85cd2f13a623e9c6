package dev.parity.site;

import java.util.List;

import dev.parity.caveat.Caveats;
import dev.parity.record.Publications;
import dev.parity.run.Run;
import dev.parity.run.RunId;
import dev.parity.run.RunNotFoundException;
import dev.parity.run.RunRepository;
import dev.parity.run.RunSummaries;
import dev.parity.run.RunSummaries.RunFilter;
import dev.parity.run.RunSummary;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.domain.Page;
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

	private final RunRepository runs;

	private final RunSummaries summaries;

	private final RunFlagging flagging;

	private final JsonMapper json;

	private final Caveats caveats;

	private final Publications publications;

	private final SiteUrls siteUrls;

	RunPageController(RunRepository runs, RunSummaries summaries, RunFlagging flagging, JsonMapper json,
			Caveats caveats, Publications publications, SiteUrls siteUrls) {
		this.siteUrls = siteUrls;
		this.caveats = caveats;
		this.publications = publications;
		this.runs = runs;
		this.summaries = summaries;
		this.flagging = flagging;
		this.json = json;
	}

	@GetMapping("/runs")
	String listRuns(@Nullable RunFilter filter, @RequestParam(defaultValue = "0") String page,
			@RequestParam(name = "hide_retracted", defaultValue = "false") boolean hideRetracted, Model model) {
		RunFilter applied = filter == null ? RunFilter.none() : filter;
		Page<RunSummary> found = summaries.search(applied, hideRetracted ? publications.retractedRuns() : java.util.Set.of(),
				RequestChecks.page(page), PAGE_SIZE);
		model.addAttribute("hideRetracted", hideRetracted);
		model.addAttribute("pageTitle", "Runs");
		model.addAttribute("filter", applied);
		model.addAttribute("runs", found);
		model.addAttribute("retracted", publications.retractedAmong("run", found.map(RunSummary::getId).getContent()));
		return "runs/list";
	}

	@GetMapping("/runs/{id}")
	String showRun(@PathVariable String id, Model model) {
		Run run = load(id);
		RunFlagging.Flags flags = flagging.check(run);
		RunPage page = RunPage.of(run, flags.run(), flags.cells());
		model.addAttribute("pageTitle", run.title());
		model.addAttribute("page", page);
		model.addAttribute("chartJson", json.writeValueAsString(page.chartData()));
		List<RunSummary> similar = run.provenance().model().commit() == null ? List.of()
				: summaries.findTop20ByModelCommitAndWorkloadFingerprintAndIdNotOrderByUploadedAtDesc(
						run.provenance().model().commit().value(), run.workloadFingerprint(), run.id().value());
		model.addAttribute("similar", similar);
		model.addAttribute("caveats", caveats.forRun(id));
		model.addAttribute("retraction", publications.retractionOf("run", id).orElse(null));
		model.addAttribute("supersedes", publications.superseded("run", id));
		return "runs/detail";
	}

	@GetMapping("/runs/{id}/export.{format}")
	org.springframework.http.ResponseEntity<String> exportRun(@PathVariable String id, @PathVariable String format) {
		Run run = load(id);
		RunFlagging.Flags flags = flagging.check(run);
		RunPage page = RunPage.of(run, flags.run(), flags.cells());
		String permalink = siteUrls.link(run.url());
		String thresholds = flagging.thresholds();
		String body = switch (format) {
			case "md" -> RunExport.markdown(page, caveats.forRun(id), permalink, thresholds);
			case "csv" -> RunExport.csv(page, permalink, thresholds);
			default -> throw new RunNotFoundException(id + "/export." + format);
		};
		return org.springframework.http.ResponseEntity.ok()
			.contentType(org.springframework.http.MediaType.parseMediaType(("md".equals(format) ? "text/markdown" : "text/csv") + ";charset=UTF-8"))
			.header(org.springframework.http.HttpHeaders.CONTENT_DISPOSITION, "inline; filename=\"run-" + id + "." + format + "\"")
			.body(body);
	}

	Run load(String id) {
		if (!RunId.isValid(id)) {
			throw new RunNotFoundException(id);
		}
		return runs.find(new RunId(id)).orElseThrow(() -> new RunNotFoundException(id));
	}

}
