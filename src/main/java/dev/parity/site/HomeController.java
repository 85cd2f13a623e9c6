package dev.parity.site;

import java.util.List;

import dev.parity.record.Publication;
import dev.parity.run.RunSummary;
import dev.parity.run.RunSummaries;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * The start page: recent runs, search, and how to upload.
 */
@Controller
class HomeController {

	private final RunSummaries summaries;

	private final dev.parity.record.Publications publications;

	private final RecordNotices notices;

	HomeController(RunSummaries summaries, dev.parity.record.Publications publications, RecordNotices notices) {
		this.notices = notices;
		this.summaries = summaries;
		this.publications = publications;
	}

	@GetMapping("/")
	String showHome(Model model) {
		List<RunSummary> recent = summaries.findTop10ByOrderByUploadedAtDescIdAsc();
		model.addAttribute("recent", recent);
		model.addAttribute("runMarks", notices.runMarks(recent.stream().map(RunSummary::getId).toList()));
		model.addAttribute("total", summaries.count());
		List<Publication> published = publications.recent(5);
		model.addAttribute("published", published);
		model.addAttribute("publicationMarks", notices.publicationMarks(published));
		return "home";
	}

	@GetMapping("/login")
	String showLogin(Model model) {
		model.addAttribute("pageTitle", "Sign in");
		return "login";
	}

}
