package dev.parity.site;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.parity.record.Publication;
import dev.parity.record.Publications;
import dev.parity.run.RunSummaries;
import dev.parity.run.RunSummaries.RunFilter;
import dev.parity.run.RunSummary;
import dev.parity.web.RequestChecks;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.util.MultiValueMap;
import org.springframework.util.StringUtils;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * Choosing runs to compare by name: the compare page searches runs by title, system,
 * model, engine, harness, commit and upload day ({@code q}), each found run offered as
 * the baseline or the contender; the run list's checkboxes send 2 to 9 runs
 * ({@code runs}), compared against the one marked as baseline (else a reference among
 * them, else the earliest uploaded).
 */
@Controller
class ComparisonPicker {

	/** The most runs one comparison page holds: a baseline and up to eight contenders. */
	static final int MOST_RUNS = 9;

	/** Runs the picker lists at once, found or recent. */
	private static final int LISTED = 30;

	private final RunSummaries summaries;

	private final Publications publications;

	private final RecordNotices notices;

	ComparisonPicker(RunSummaries summaries, Publications publications, RecordNotices notices) {
		this.summaries = summaries;
		this.publications = publications;
		this.notices = notices;
	}

	@GetMapping("/compare")
	String pickRuns(@RequestParam MultiValueMap<String, String> query, Model model, HttpServletResponse response) {
		String baseline = strip(query.getFirst("baseline"));
		String contender = strip(query.getFirst("contender"));
		String q = strip(query.getFirst("q"));
		Map<String, String> rest = new LinkedHashMap<>(query.toSingleValueMap());
		for (String chosen : List.of("baseline", "contender", "runs", "q")) {
			rest.remove(chosen);
		}
		List<String> chosen = chosenRuns(query.get("runs"));
		if (!chosen.isEmpty()) {
			if (chosen.size() >= 2 && chosen.size() <= MOST_RUNS) {
				String first = baseline != null && chosen.contains(baseline) ? baseline : defaultBaseline(chosen);
				List<String> others = chosen.stream().filter(id -> !id.equals(first)).toList();
				return "redirect:/compare/" + first + "..." + String.join(",", others) + QueryStrings.of(rest);
			}
			response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
			model.addAttribute("problem", "Choose 2 to " + MOST_RUNS + " runs to compare: " + chosen.size()
					+ (chosen.size() == 1 ? " run was" : " runs were") + " chosen.");
		}
		else if (StringUtils.hasText(baseline) && StringUtils.hasText(contender)) {
			return "redirect:/compare/" + RequestChecks.forRedirect("baseline", query.getFirst("baseline")).strip()
					+ "..." + RequestChecks.forRedirect("contender", query.getFirst("contender")).strip()
					+ QueryStrings.of(rest);
		}
		RequestChecks.searchWords(q);
		model.addAttribute("pageTitle", "Compare");
		List<RunSummary> found = StringUtils.hasText(q)
				? summaries.search(new RunFilter(q, null, null, null, null, null), 0, LISTED).getContent()
				: summaries.search(RunFilter.none(), 0, LISTED).getContent();
		List<RunSummary> listed = new ArrayList<>();
		for (String id : new LinkedHashSet<>(nonEmpty(baseline, contender))) {
			if (found.stream().noneMatch(run -> run.getId().equals(id))) {
				summaries.findById(id).ifPresent(listed::add);
			}
		}
		listed.addAll(found);
		model.addAttribute("runs", listed);
		model.addAttribute("searched", StringUtils.hasText(q));
		model.addAttribute("q", q);
		model.addAttribute("runMarks", notices.runMarks(listed.stream().map(RunSummary::getId).toList()));
		model.addAttribute("baseline", baseline);
		model.addAttribute("contender", contender);
		model.addAttribute("vary", rest.getOrDefault("vary", "system"));
		List<Publication> published = publications.recent(20);
		model.addAttribute("published", published);
		model.addAttribute("publicationMarks", notices.publicationMarks(published));
		return "compare/pick";
	}

	/**
	 * The ids checked, each once, in the order sent; each checked as an id before it goes
	 * into an address.
	 */
	private static List<String> chosenRuns(List<String> runs) {
		if (runs == null) {
			return List.of();
		}
		Set<String> ids = new LinkedHashSet<>();
		for (String run : runs) {
			if (StringUtils.hasText(run)) {
				ids.add(RequestChecks.forRedirect("runs", run).strip());
			}
		}
		return List.copyOf(ids);
	}

	/**
	 * A reference among the chosen runs (the earliest uploaded), else the earliest
	 * uploaded run.
	 */
	private String defaultBaseline(List<String> chosen) {
		List<RunSummary> known = summaries.findAllById(chosen);
		return known.stream()
			.min(Comparator.comparing((RunSummary run) -> !"reference".equals(run.getRole()))
				.thenComparing(RunSummary::getUploadedAt))
			.map(RunSummary::getId)
			.orElse(chosen.get(0));
	}

	private static List<String> nonEmpty(String... ids) {
		List<String> kept = new ArrayList<>();
		for (String id : ids) {
			if (StringUtils.hasText(id)) {
				kept.add(id);
			}
		}
		return kept;
	}

	private static String strip(String value) {
		return value == null ? null : value.strip();
	}

}
