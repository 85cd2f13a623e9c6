package dev.parity.history.web;

import java.security.Principal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.parity.caveat.Caveat;
import dev.parity.caveat.Caveats;
import dev.parity.history.Alerts;
import dev.parity.history.HistoryInWords;
import dev.parity.history.HistorySettings;
import dev.parity.history.SeriesAnalysis;
import dev.parity.history.SeriesKey;
import dev.parity.history.SeriesRepository;
import dev.parity.history.SeriesSettings;
import dev.parity.history.SeriesSettingsChanges;
import dev.parity.history.SeriesUpdates;
import dev.parity.history.Verdicts;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * The pages of history: the series list, one series with its charts and alerts, and the
 * alert list.
 */
@Controller
class SeriesPageController {

	private final SeriesRepository series;

	private final SeriesUpdates updates;

	private final SeriesSettingsChanges settingsChanges;

	private final Alerts alerts;

	private final HistorySettings settings;

	private final JsonMapper json;

	private final Caveats caveats;

	private final HistoryInWords words;

	private final Verdicts verdicts;

	SeriesPageController(SeriesRepository series, SeriesUpdates updates, SeriesSettingsChanges settingsChanges,
			Alerts alerts, HistorySettings settings, JsonMapper json, Caveats caveats, HistoryInWords words,
			Verdicts verdicts) {
		this.caveats = caveats;
		this.words = words;
		this.verdicts = verdicts;
		this.series = series;
		this.updates = updates;
		this.settingsChanges = settingsChanges;
		this.alerts = alerts;
		this.settings = settings;
		this.json = json;
	}

	/** The filters of the series list. */
	record Filter(@Nullable String system, @Nullable String model, @Nullable String harness, @Nullable String branch) {

		boolean isEmpty() {
			return blank(system) && blank(model) && blank(harness) && blank(branch);
		}

		private static boolean blank(@Nullable String value) {
			return value == null || value.isBlank();
		}

	}

	/** Series per page of the series list (and of its API). */
	static final int SERIES_PER_PAGE = 50;

	/**
	 * The number of a page of the series list (from 0; none: 0), or 400 naming what is
	 * wrong with it.
	 */
	static int pageNumber(@Nullable String page) {
		int number;
		try {
			number = page == null || page.isBlank() ? 0 : Integer.parseInt(page.strip());
		}
		catch (NumberFormatException ex) {
			number = -1;
		}
		if (number < 0 || number > 100_000) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
					"page must be a whole number from 0 to 100000, not '" + page + "'");
		}
		return number;
	}

	/**
	 * The series list, {@value #SERIES_PER_PAGE} a page ({@code ?page=N}, from 0), most
	 * recently analysed first.
	 */
	@GetMapping("/series")
	String listSeries(Filter filter, @RequestParam(required = false) @Nullable String page, Model model) {
		int number = pageNumber(page);
		model.addAttribute("pageTitle", "Series");
		model.addAttribute("filter", Map.of("system", value(filter.system()), "model", value(filter.model()), "harness",
				value(filter.harness()), "branch", value(filter.branch())));
		model.addAttribute("filtered", !filter.isEmpty());
		updates.catchUp();
		List<SeriesRepository.Listed> listed = series.page(filter.system(), filter.model(), filter.harness(),
				filter.branch(), number * SERIES_PER_PAGE, SERIES_PER_PAGE);
		boolean more = listed.size() > SERIES_PER_PAGE;
		model.addAttribute("series", more ? listed.subList(0, SERIES_PER_PAGE) : listed);
		model.addAttribute("pageNumber", number);
		model.addAttribute("hasOlder", more);
		model.addAttribute("firstListed", number * SERIES_PER_PAGE + 1);
		return "history/series-list";
	}

	/**
	 * Runs the series page lists unless asked for all: the latest, and a link to the
	 * rest.
	 */
	static final int RUNS_LISTED = 100;

	/** Likewise for the table of change points. */
	static final int CHANGES_LISTED = 50;

	/**
	 * A series. Its run list holds the latest {@value #RUNS_LISTED} runs and its change
	 * point table the latest {@value #CHANGES_LISTED} change points; each says so, with a
	 * link to all of them ({@code ?runs=all}, {@code ?changes=all}). The charts, the
	 * segments and the API always cover every run and change point.
	 */
	@GetMapping("/series/{id}")
	String showSeries(@PathVariable String id, @RequestParam(required = false) @Nullable String runs,
			@RequestParam(required = false) @Nullable String changes,
			@RequestParam(required = false) @Nullable String mark, Model model) {
		for (String[] all : new String[][] { { "runs", runs, String.valueOf(RUNS_LISTED) },
				{ "changes", changes, String.valueOf(CHANGES_LISTED) } }) {
			if (all[1] != null && !all[1].equals("all")) {
				throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
						all[0] + " must be 'all' (or absent: the latest " + all[2] + "), not '" + all[1] + "'");
			}
		}
		SeriesKey key = series.key(id)
			.orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "no series " + id));
		SeriesAnalysis analysis = updates.analysis(id).orElse(SeriesAnalysis.empty());
		int total = analysis.runs().size();
		int from = runs != null ? 0 : Math.max(0, total - RUNS_LISTED);
		model.addAttribute("listedRuns", analysis.runs().subList(from, total));
		// Titles and builds of every run the page names: listed runs, segment bounds,
		// alerts' runs.
		List<String> named = new ArrayList<>(analysis.runs().stream().map(SeriesAnalysis.RunEntry::id).toList());
		model.addAttribute("runLabels", words.runs(named));
		model.addAttribute("runsFrom", from + 1);
		model.addAttribute("runsTotal", total);
		model.addAttribute("allRunsListed", runs != null && total > RUNS_LISTED);
		int changeCount = analysis.changePoints().size();
		int firstChange = changes != null ? 0 : Math.max(0, changeCount - CHANGES_LISTED);
		model.addAttribute("listedChanges",
				words.changePoints(analysis.changePoints().subList(firstChange, changeCount)));
		model.addAttribute("changesHidden", firstChange);
		model.addAttribute("allChangesListed", changes != null && changeCount > CHANGES_LISTED);
		SeriesCharts charts = new SeriesCharts(analysis);
		Map<String, Object> data = new LinkedHashMap<>();
		data.put("chartUrl", "/api/series/" + id + "/chart");
		data.put("runs", charts.runLabels());
		data.put("breaks", charts.breaks());
		data.put("metrics", charts.metrics());
		// The first metric's chart comes with the page; the others are fetched as they
		// scroll into view.
		data.put("chart", charts.metrics().isEmpty() ? null : charts.chart(charts.metrics().get(0)));
		model.addAttribute("pageTitle", "Series " + id);
		model.addAttribute("id", id);
		model.addAttribute("key", key);
		model.addAttribute("analysis", analysis);
		model.addAttribute("settings", series.settings(id, settings.seriesDefaults()));
		model.addAttribute("own", series.overrides(id));
		model.addAttribute("defaults", settings.seriesDefaults());
		model.addAttribute("varies", SeriesSettings.VARIES);
		List<Alerts.Alert> listed = alerts.list(null, id);
		model.addAttribute("alerts", listed);
		Map<String, HistoryInWords.AlertInWords> said = new LinkedHashMap<>();
		words.alerts(listed).forEach(a -> said.put(a.alert().id(), a));
		model.addAttribute("said", said);
		model.addAttribute("seriesName", words.seriesNames(List.of(id)).getOrDefault(id, "series " + id));
		model.addAttribute("events", words.events(analysis, series.settings(id, settings.seriesDefaults())));
		model.addAttribute("marked", marked(id, mark, analysis));
		model.addAttribute("quality", alerts.quality(id));
		// The caveats an alert could be explained by: those on its run (and its cells).
		Map<String, List<Caveat>> explaining = new LinkedHashMap<>();
		listed.forEach(alert -> explaining.put(alert.id(), caveats.forRun(alert.run())));
		model.addAttribute("explaining", explaining);
		model.addAttribute("statuses", Alerts.STATUSES);
		model.addAttribute("chartJson", json.writeValueAsString(data));
		return "history/series";
	}

	@GetMapping("/alerts")
	String listAlerts(@RequestParam(required = false) @Nullable String status, Model model) {
		String wanted = status == null || status.isBlank() ? null : status.strip();
		if (wanted != null && !Alerts.STATUSES.contains(wanted)) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
					"status must be one of " + String.join(", ", Alerts.STATUSES) + ", not '" + status + "'");
		}
		model.addAttribute("pageTitle", "Alerts");
		model.addAttribute("status", wanted == null ? "" : wanted);
		model.addAttribute("statuses", Alerts.STATUSES);
		updates.catchUp();
		model.addAttribute("alerts", words.alerts(alerts.list(wanted, null)));
		model.addAttribute("quality", alerts.quality(null));
		return "history/alerts";
	}

	@PostMapping("/alerts/{id}/status")
	String setStatus(@PathVariable String id, @RequestParam String status,
			@RequestParam(required = false) @Nullable String reason,
			@RequestParam(required = false) @Nullable String caveat,
			@RequestParam(required = false) @Nullable String back, Principal principal, RedirectAttributes redirect) {
		Alerts.Alert alert;
		try {
			alert = alerts.setStatus(id, status.strip(), reason == null || reason.isBlank() ? null : reason.strip(),
					caveat == null || caveat.isBlank() ? null : caveat.strip(), principal.getName());
		}
		catch (IllegalArgumentException ex) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, ex.getMessage());
		}
		HistoryInWords.RunLabel run = words.runs(List.of(alert.run())).get(alert.run());
		redirect.addFlashAttribute("message",
				"The alert from “" + (run == null ? alert.run() : run.title()) + "” is now " + alert.status() + ".");
		return "redirect:" + ("alerts".equals(back) ? "/alerts" : "/series/" + alert.series() + "#alert-" + id);
	}

	/**
	 * The run a link asks the series page to mark ({@code ?mark=}): one of its runs, or a
	 * run of another branch (a pull-request run) shown against this series with its
	 * verdict. Null when none is asked for.
	 */
	private @Nullable Marked marked(String seriesId, @Nullable String mark, SeriesAnalysis analysis) {
		if (mark == null || mark.isBlank()) {
			return null;
		}
		String runId = mark.strip();
		HistoryInWords.RunLabel run = words.runs(List.of(runId)).get(runId);
		if (run == null) {
			throw new ResponseStatusException(HttpStatus.NOT_FOUND, "mark: no run " + runId);
		}
		boolean member = analysis.runs().stream().anyMatch(r -> r.id().equals(runId));
		HistoryInWords.VerdictInWords verdict = member ? null : words.verdict(runId, verdicts.verdict(runId, null));
		return new Marked(run, member, verdict);
	}

	/**
	 * The run the series page marks.
	 *
	 * @param member whether it is one of the series' runs
	 * @param verdict for a run of another branch, its verdict against this series
	 */
	record Marked(HistoryInWords.RunLabel run, boolean member, HistoryInWords.@Nullable VerdictInWords verdict) {
	}

	/**
	 * The settings form of a series page (admins): blank fields take the server's
	 * defaults.
	 */
	@PostMapping("/series/{id}/settings")
	String changeSettings(@PathVariable String id, @RequestParam(required = false) @Nullable String window,
			@RequestParam(name = "max_pvalue", required = false) @Nullable String maxPvalue,
			@RequestParam(name = "alert_magnitude", required = false) @Nullable String alertMagnitude,
			@RequestParam(name = "confirm_after", required = false) @Nullable String confirmAfter,
			@RequestParam(required = false) @Nullable String vary,
			@RequestParam(name = "alert_improvements", required = false) @Nullable String alertImprovements,
			Authentication user, RedirectAttributes redirect) {
		series.key(id).orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "no series " + id));
		if (user.getAuthorities().stream().noneMatch(a -> "ROLE_ADMIN".equals(a.getAuthority()))) {
			throw new ResponseStatusException(HttpStatus.FORBIDDEN, "only an admin changes a series' settings");
		}
		List<String> problems = new ArrayList<>();
		SeriesRepository.Overrides overrides = new SeriesRepository.Overrides(
				parse(window, "window", Integer::valueOf, problems),
				parse(maxPvalue, "max_pvalue", Double::valueOf, problems),
				parse(alertMagnitude, "alert_magnitude", Double::valueOf, problems),
				parse(confirmAfter, "confirm_after", Integer::valueOf, problems),
				vary == null || vary.isBlank() ? null : vary.strip(),
				alertImprovements == null || alertImprovements.isBlank() ? null
						: Boolean.valueOf("on".equals(alertImprovements) || "true".equals(alertImprovements)),
				null, null);
		if (problems.isEmpty()) {
			try {
				overrides.over(settings.seriesDefaults());
			}
			catch (IllegalArgumentException ex) {
				problems.add(ex.getMessage());
			}
		}
		if (!problems.isEmpty()) {
			redirect.addFlashAttribute("settingsProblem", "Settings not changed: " + String.join("; ", problems) + ".");
			return "redirect:/series/" + id + "#settings";
		}
		settingsChanges.changeSettings(id, overrides, user.getName());
		redirect.addFlashAttribute("message", "Settings saved; the series was analysed again under them.");
		return "redirect:/series/" + id;
	}

	private static <T> @Nullable T parse(@Nullable String text, String name, Function<String, T> parser,
			List<String> problems) {
		if (text == null || text.isBlank()) {
			return null;
		}
		try {
			return parser.apply(text.strip());
		}
		catch (NumberFormatException ex) {
			problems.add(name + ": a number, not '" + text.strip() + "'");
			return null;
		}
	}

	private static String value(@Nullable String text) {
		return text == null ? "" : text;
	}

}
