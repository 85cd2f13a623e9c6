package dev.parity.site;

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

	HomeController(RunSummaries summaries, dev.parity.record.Publications publications) {
		this.summaries = summaries;
		this.publications = publications;
	}

	@GetMapping("/")
	String showHome(Model model) {
		model.addAttribute("recent", summaries.findTop10ByOrderByUploadedAtDescIdAsc());
		model.addAttribute("total", summaries.count());
		model.addAttribute("published", publications.recent(5));
		return "home";
	}

	@GetMapping("/login")
	String showLogin(Model model) {
		model.addAttribute("pageTitle", "Sign in");
		return "login";
	}

}
