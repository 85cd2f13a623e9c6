package dev.parity.history.web;

import java.security.Principal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.parity.history.Alerts;
import dev.parity.history.HistorySettings;
import dev.parity.history.SeriesAnalysis;
import dev.parity.history.SeriesKey;
import dev.parity.history.SeriesRepository;
import dev.parity.history.SeriesUpdates;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** The pages of history: the series list, one series with its charts and alerts, and the alert list. */
@Controller
class SeriesPageController {

	private final SeriesRepository series;

	private final SeriesUpdates updates;

	private final Alerts alerts;

	private final HistorySettings settings;

	private final JsonMapper json;

	SeriesPageController(SeriesRepository series, SeriesUpdates updates, Alerts alerts, HistorySettings settings,
			JsonMapper json) {
		this.series = series;
		this.updates = updates;
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

	@GetMapping("/series")
	String listSeries(Filter filter, Model model) {
		model.addAttribute("pageTitle", "Series");
		model.addAttribute("filter", java.util.Map.of("system", value(filter.system()), "model", value(filter.model()),
				"harness", value(filter.harness()), "branch", value(filter.branch())));
		model.addAttribute("filtered", !filter.isEmpty());
		model.addAttribute("series", series.list(filter.system(), filter.model(), filter.harness(), filter.branch()));
		return "history/series-list";
	}

	/** A segment break drawn on the charts: the run index where it starts and why. */
	record Break(int index, String run, String label) {
	}

	/** A change point marked on its chart. */
	record Marker(int index, String anchor, String metric, String label, String direction) {
	}

	record ChartPoint(int x, double y, boolean greyed, List<String> reasons, String run) {
	}

	record ChartLine(String anchor, String label, List<ChartPoint> points) {
	}

	record Chart(String metric, List<ChartLine> lines, List<Marker> changes) {
	}

	record ChartData(List<String> runs, List<Break> breaks, List<Chart> charts) {
	}

	@GetMapping("/series/{id}")
	String showSeries(@PathVariable String id, Model model) {
		SeriesKey key = series.key(id).orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "no series " + id));
		SeriesAnalysis analysis = updates.analysis(id).orElse(SeriesAnalysis.empty());
		Map<String, Integer> index = new LinkedHashMap<>();
		List<String> labels = new ArrayList<>();
		for (SeriesAnalysis.RunEntry run : analysis.runs()) {
			index.put(run.id(), index.size());
			String when = run.recordedAt() != null ? run.recordedAt().toString() : run.uploadedAt().toString();
			labels.add(when.substring(0, Math.min(10, when.length())) + " " + run.id());
		}
		List<Break> breaks = new ArrayList<>();
		for (SeriesAnalysis.Segment segment : analysis.segments()) {
			if (!segment.startsBecause().isEmpty()) {
				breaks.add(new Break(index.get(segment.firstRun()), segment.firstRun(), String.join("; ",
						segment.startsBecause().stream().map(SeriesAnalysis.Reason::message).toList())));
			}
		}
		Set<String> metrics = new LinkedHashSet<>();
		analysis.cells().forEach(cell -> metrics.addAll(cell.metrics().keySet()));
		List<Chart> charts = new ArrayList<>();
		for (String metric : metrics) {
			List<ChartLine> lines = new ArrayList<>();
			for (SeriesAnalysis.CellPoints cell : analysis.cells()) {
				List<SeriesAnalysis.Point> points = cell.metrics().get(metric);
				if (points == null) {
					continue;
				}
				lines.add(new ChartLine(cell.anchor(), label(cell.params()), points.stream()
					.map(p -> new ChartPoint(index.get(p.run()), p.value(), p.greyed(), p.greyedBy(), p.run()))
					.toList()));
			}
			List<Marker> changes = analysis.changePoints().stream().filter(cp -> cp.metric().equals(metric))
				.map(cp -> new Marker(index.get(cp.run()), cp.anchor(), cp.metric(),
						(cp.meanAfter() >= cp.meanBefore() ? "+" : "−") + String.format(java.util.Locale.ROOT, "%.1f %%", cp.magnitude() * 100),
						cp.direction()))
				.toList();
			charts.add(new Chart(metric, lines, changes));
		}
		model.addAttribute("pageTitle", "Series " + id);
		model.addAttribute("id", id);
		model.addAttribute("key", key);
		model.addAttribute("analysis", analysis);
		model.addAttribute("settings", series.settings(id, settings.seriesDefaults()));
		model.addAttribute("runIndex", index);
		model.addAttribute("alerts", alerts.list(null, id));
		model.addAttribute("statuses", Alerts.STATUSES);
		model.addAttribute("chartJson", json.writeValueAsString(new ChartData(labels, breaks, charts)));
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
		model.addAttribute("alerts", alerts.list(wanted, null));
		return "history/alerts";
	}

	@PostMapping("/alerts/{id}/status")
	String setStatus(@PathVariable String id, @RequestParam String status, @RequestParam(required = false) @Nullable String reason,
			@RequestParam(required = false) @Nullable String back, Principal principal, RedirectAttributes redirect) {
		Alerts.Alert alert;
		try {
			alert = alerts.setStatus(id, status.strip(), reason == null || reason.isBlank() ? null : reason.strip(),
					principal.getName());
		}
		catch (IllegalArgumentException ex) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, ex.getMessage());
		}
		redirect.addFlashAttribute("message", "Alert " + id + " is now " + alert.status() + ".");
		return "redirect:" + ("alerts".equals(back) ? "/alerts" : "/series/" + alert.series() + "#alert-" + id);
	}

	private static String value(@Nullable String text) {
		return text == null ? "" : text;
	}

	private static String label(Map<String, Object> params) {
		List<String> parts = new ArrayList<>();
		params.forEach((name, value) -> parts.add(name + "=" + value));
		return String.join(", ", parts);
	}

}
