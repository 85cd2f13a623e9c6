package dev.parity.site;

import java.util.List;

import dev.parity.history.Alerts;
import dev.parity.history.HistoryInWords;
import dev.parity.history.SeriesUpdates;
import dev.parity.record.Publication;
import dev.parity.record.Publications;
import dev.parity.run.RunSummary;
import dev.parity.run.RunSummaries;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * The start page: open alerts and the latest verdicts in words, recent runs, search, and
 * how to upload.
 */
@Controller
class HomeController {

	private final RunSummaries summaries;

	private final Publications publications;

	private final RecordNotices notices;

	private final Alerts alerts;

	private final HistoryInWords words;

	private final SeriesUpdates updates;

	/** Open alerts the start page lists (the rest are a link away). */
	static final int OPEN_ALERTS = 5;

	/** Verdicts the start page lists. */
	static final int VERDICTS = 5;

	HomeController(RunSummaries summaries, Publications publications, RecordNotices notices, Alerts alerts,
			HistoryInWords words, SeriesUpdates updates) {
		this.alerts = alerts;
		this.words = words;
		this.updates = updates;
		this.notices = notices;
		this.summaries = summaries;
		this.publications = publications;
	}

	@GetMapping("/")
	String showHome(Model model) {
		List<RunSummary> recent = summaries.findTop10ByOrderByUploadedAtDescIdAsc();
		model.addAttribute("recent", recent);
		model.addAttribute("runMarks", notices.runMarks(recent.stream().map(RunSummary::getId).toList()));
		model.addAttribute("total", summaries.stored());
		List<Publication> published = publications.recent(5);
		model.addAttribute("published", published);
		model.addAttribute("publicationMarks", notices.publicationMarks(published));
		updates.catchUp();
		List<Alerts.Alert> open = alerts.list("open", null);
		model.addAttribute("openAlerts", words.alerts(open.subList(0, Math.min(OPEN_ALERTS, open.size()))));
		model.addAttribute("openAlertCount", open.size());
		model.addAttribute("verdicts", words.latestVerdicts(VERDICTS));
		return "home";
	}

	@GetMapping("/login")
	String showLogin(Model model) {
		model.addAttribute("pageTitle", "Sign in");
		return "login";
	}

}
