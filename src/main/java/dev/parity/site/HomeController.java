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

	HomeController(RunSummaries summaries) {
		this.summaries = summaries;
	}

	@GetMapping("/")
	String showHome(Model model) {
		model.addAttribute("recent", summaries.findTop10ByOrderByUploadedAtDescIdAsc());
		model.addAttribute("total", summaries.count());
		return "home";
	}

	@GetMapping("/login")
	String showLogin(Model model) {
		model.addAttribute("pageTitle", "Sign in");
		return "login";
	}

}
