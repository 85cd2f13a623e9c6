package dev.parity.history.web;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.parity.history.Alerts;
import dev.parity.history.HistorySettings;
import dev.parity.history.SeriesAnalysis;
import dev.parity.history.SeriesKey;
import dev.parity.history.SeriesRepository;
import dev.parity.history.SeriesSettings;
import dev.parity.history.SeriesSettingsChanges;
import dev.parity.history.SeriesUpdates;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.media.Content;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * The series API: the list, one series with its segments, events and change points, and
 * its points.
 */
@RestController
class SeriesApiController {

	private final SeriesRepository series;

	private final SeriesUpdates updates;

	private final SeriesSettingsChanges settingsChanges;

	private final HistorySettings settings;

	private final JsonMapper json;

	private final Alerts alerts;

	SeriesApiController(SeriesRepository series, SeriesUpdates updates, SeriesSettingsChanges settingsChanges,
			HistorySettings settings, JsonMapper json, Alerts alerts) {
		this.alerts = alerts;
		this.series = series;
		this.updates = updates;
		this.settingsChanges = settingsChanges;
		this.settings = settings;
		this.json = json;
	}

	record Key(String system, String model, String engine, String harness, String branch, @Schema(
			implementation = Map.class,
			description = "the workload's parameters, as the run document gives them (a JSON object)") Object workload) {
	}

	/**
	 * A change of a series' settings as the OpenAPI document describes it (the controller
	 * reads the tree, to name each field written wrong); null or absent is the server's
	 * default.
	 */
	@Schema(name = "SeriesSettingsChange")
	record SettingsChange(@Nullable Integer window, @JsonProperty("max_pvalue") @Nullable Double maxPvalue,
			@JsonProperty("alert_magnitude") @Nullable Double alertMagnitude,
			@JsonProperty("confirm_after") @Nullable Integer confirmAfter, @Nullable String vary,
			@JsonProperty("alert_improvements") @Nullable Boolean alertImprovements) {
	}

	record Listed(String id, Key key, int runs, @JsonProperty("last_run") @Nullable String lastRun,
			@JsonProperty("open_alerts") int openAlerts) {
	}

	/**
	 * A page of the series list: {@code total} series in it (50 at most), {@code more}
	 * when another page follows ({@code ?page=} one more).
	 */
	record SeriesList(int total, int page, int size, boolean more, List<Listed> series) {
	}

	record Engine(@Nullable String version, @Nullable String commit) {
	}

	record RunView(String id, @JsonProperty("recorded_at") @Nullable Instant recordedAt,
			@JsonProperty("uploaded_at") Instant uploadedAt, Engine engine, int segment, String url) {
	}

	record Reason(String rule, String message) {
	}

	record SegmentView(int index, @JsonProperty("first_run") String firstRun, @JsonProperty("last_run") String lastRun,
			@JsonProperty("starts_because") List<Reason> startsBecause) {
	}

	record EventView(String run, String rule, String message) {
	}

	record ChangePointView(String run, Map<String, Object> params, String anchor, String metric, String direction,
			double magnitude, @JsonProperty("mean_before") double meanBefore,
			@JsonProperty("mean_after") double meanAfter, double pvalue,
			@JsonProperty("otava_magnitude") double otavaMagnitude, int segment,
			@JsonProperty("points_after") int pointsAfter, @Nullable Double spread,
			@JsonProperty("scan_pvalue") @Nullable Double scanPvalue) {
	}

	record Settings(int window, @JsonProperty("max_pvalue") double maxPvalue,
			@JsonProperty("alert_magnitude") double alertMagnitude, @JsonProperty("confirm_after") int confirmAfter,
			@JsonProperty("alert_improvements") boolean alertImprovements) {
	}

	record Cell(String anchor, Map<String, Object> params, List<String> metrics) {
	}

	record SeriesView(String id, Key key, String vary, Settings settings, List<RunView> runs,
			List<SegmentView> segments, List<EventView> events,
			@JsonProperty("change_points") List<ChangePointView> changePoints, List<Cell> cells,
			@JsonProperty("alert_quality") Alerts.Quality alertQuality) {
	}

	record PointView(String run, double value, boolean greyed, @JsonProperty("greyed_by") List<String> greyedBy,
			int segment) {
	}

	record Points(String series, String anchor, String metric, List<PointView> points) {
	}

	@Operation(summary = "List series, 50 a page (page from 0), most recently analysed first: key, runs, last run, "
			+ "open alerts; filters system, model, harness, branch")
	@GetMapping("/api/series")
	SeriesList listSeries(@RequestParam(required = false) @Nullable String system,
			@RequestParam(required = false) @Nullable String model,
			@RequestParam(required = false) @Nullable String harness,
			@RequestParam(required = false) @Nullable String branch,
			@RequestParam(required = false) @Nullable String page) {
		int number = SeriesPageController.pageNumber(page);
		int size = SeriesPageController.SERIES_PER_PAGE;
		updates.catchUp();
		List<Listed> listed = series.page(system, model, harness, branch, number * size, size)
			.stream()
			.map(s -> new Listed(s.id(), key(s.key()), s.runs(), s.lastRun(), s.openAlerts()))
			.toList();
		boolean more = listed.size() > size;
		List<Listed> shown = more ? listed.subList(0, size) : listed;
		return new SeriesList(shown.size(), number, size, more, shown);
	}

	@Operation(summary = "A series: its runs with their segment, segments and why each began, events, change points")
	@GetMapping("/api/series/{id}")
	SeriesView showSeries(@PathVariable String id) {
		SeriesKey key = series.key(id).orElseThrow(() -> notFound(id));
		SeriesAnalysis analysis = updates.analysis(id).orElse(SeriesAnalysis.empty());
		SeriesSettings s = series.settings(id, settings.seriesDefaults());
		List<RunView> runs = analysis.runs()
			.stream()
			.map(r -> new RunView(r.id(), r.recordedAt(), r.uploadedAt(),
					new Engine(r.engineVersion(), r.engineCommit()), r.segment(), "/runs/" + r.id()))
			.toList();
		List<SegmentView> segments = analysis.segments()
			.stream()
			.map(g -> new SegmentView(g.index(), g.firstRun(), g.lastRun(),
					g.startsBecause().stream().map(r -> new Reason(r.rule(), r.message())).toList()))
			.toList();
		List<EventView> events = analysis.events()
			.stream()
			.map(e -> new EventView(e.run(), e.rule(), e.message()))
			.toList();
		List<ChangePointView> changePoints = analysis.changePoints()
			.stream()
			.map(cp -> new ChangePointView(cp.run(), cp.params(), cp.anchor(), cp.metric(), cp.direction(),
					cp.magnitude(), cp.meanBefore(), cp.meanAfter(), cp.pvalue(), cp.otavaMagnitude(), cp.segment(),
					cp.pointsAfter(), cp.spread(), cp.scanPvalue()))
			.toList();
		List<Cell> cells = analysis.cells()
			.stream()
			.map(c -> new Cell(c.anchor(), c.params(), new ArrayList<>(c.metrics().keySet())))
			.toList();
		return new SeriesView(id, key(key), s.vary(),
				new Settings(s.window(), s.maxPvalue(), s.alertMagnitude(), s.confirmAfter(), s.alertImprovements()),
				runs, segments, events, changePoints, cells, alerts.quality(id));
	}

	@Operation(summary = "The points of one cell × metric of a series, greyed ones with the rules that grey them")
	@GetMapping("/api/series/{id}/points")
	Points showPoints(@PathVariable String id, @RequestParam String metric, @RequestParam String anchor) {
		series.key(id).orElseThrow(() -> notFound(id));
		SeriesAnalysis analysis = updates.analysis(id).orElse(SeriesAnalysis.empty());
		String wanted = anchor.startsWith("#") ? anchor.substring(1) : anchor;
		SeriesAnalysis.CellPoints cell = analysis.cells()
			.stream()
			.filter(c -> c.anchor().equals(wanted))
			.findFirst()
			.orElseThrow(
					() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "series " + id + " has no cell " + wanted));
		List<SeriesAnalysis.Point> points = cell.metrics().get(metric);
		if (points == null) {
			throw new ResponseStatusException(HttpStatus.NOT_FOUND, "cell " + wanted + " of series " + id
					+ " has no metric " + metric + " (it has " + String.join(", ", cell.metrics().keySet()) + ")");
		}
		Map<String, Integer> segmentOf = new HashMap<>();
		analysis.runs().forEach(r -> segmentOf.put(r.id(), r.segment()));
		return new Points(id, wanted, metric, points.stream()
			.map(p -> new PointView(p.run(), p.value(), p.greyed(), p.greyedBy(), segmentOf.getOrDefault(p.run(), 0)))
			.toList());
	}

	@Operation(
			summary = "One metric's chart of a series (the series page's data): per cell the values in series order, "
					+ "greyed points with their rules, change points")
	@GetMapping("/api/series/{id}/chart")
	SeriesCharts.Chart showChart(@PathVariable String id, @RequestParam String metric) {
		series.key(id).orElseThrow(() -> notFound(id));
		SeriesCharts charts = new SeriesCharts(updates.analysis(id).orElse(SeriesAnalysis.empty()));
		SeriesCharts.Chart chart = charts.chart(metric);
		if (chart == null) {
			throw new ResponseStatusException(HttpStatus.NOT_FOUND, "series " + id + " has no metric " + metric
					+ " (it has " + String.join(", ", charts.metrics()) + ")");
		}
		return chart;
	}

	/**
	 * A series' settings as the API shows them: in force, its own (null = the server's
	 * default), the defaults.
	 */
	record SettingsView(String series, Effective effective, Map<String, @Nullable Object> own, Effective defaults,
			@JsonProperty("updated_at") @Nullable Instant updatedAt,
			@JsonProperty("updated_by") @Nullable String updatedBy) {
	}

	record Effective(int window, @JsonProperty("max_pvalue") double maxPvalue,
			@JsonProperty("alert_magnitude") double alertMagnitude, @JsonProperty("confirm_after") int confirmAfter,
			String vary, @JsonProperty("alert_improvements") boolean alertImprovements) {

		static Effective of(SeriesSettings s) {
			return new Effective(s.window(), s.maxPvalue(), s.alertMagnitude(), s.confirmAfter(), s.vary(),
					s.alertImprovements());
		}

	}

	private static final List<String> SETTINGS = List.of("window", "max_pvalue", "alert_magnitude", "confirm_after",
			"vary", "alert_improvements");

	@Operation(summary = "A series' settings: in force, its own overrides (null = the server's default), the defaults")
	@GetMapping("/api/series/{id}/settings")
	SettingsView showSettings(@PathVariable String id) {
		series.key(id).orElseThrow(() -> notFound(id));
		return settingsView(id);
	}

	@Operation(
			summary = "Change a series' settings (admin): any of window, max_pvalue, alert_magnitude, confirm_after, "
					+ "vary, alert_improvements; null or absent = the server's default. The series is analysed again before "
					+ "the answer")
	@PutMapping("/api/series/{id}/settings")
	SettingsView changeSettings(@PathVariable String id, @io.swagger.v3.oas.annotations.parameters.RequestBody(
			content = @Content(schema = @Schema(implementation = SettingsChange.class))) @RequestBody JsonNode body,
			Authentication user) {
		series.key(id).orElseThrow(() -> notFound(id));
		if (user.getAuthorities().stream().noneMatch(a -> "ROLE_ADMIN".equals(a.getAuthority()))) {
			throw new ResponseStatusException(HttpStatus.FORBIDDEN, "only an admin changes a series' settings");
		}
		if (!body.isObject()) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
					"the body must be a JSON object of settings: " + String.join(", ", SETTINGS));
		}
		List<String> problems = new ArrayList<>();
		for (String name : body.propertyNames()) {
			if (!SETTINGS.contains(name)) {
				problems.add(name + ": not a setting (settings: " + String.join(", ", SETTINGS) + ")");
			}
		}
		Integer window = integer(body, "window", problems);
		Double maxPvalue = number(body, "max_pvalue", problems);
		Double alertMagnitude = number(body, "alert_magnitude", problems);
		Integer confirmAfter = integer(body, "confirm_after", problems);
		String vary = null;
		JsonNode varyNode = body.get("vary");
		if (varyNode != null && !varyNode.isNull()) {
			if (varyNode.isString() && SeriesSettings.VARIES.contains(varyNode.asString())) {
				vary = varyNode.asString();
			}
			else {
				problems.add("vary: one of " + String.join(", ", SeriesSettings.VARIES) + ", not " + varyNode);
			}
		}
		Boolean improvements = null;
		JsonNode improvementsNode = body.get("alert_improvements");
		if (improvementsNode != null && !improvementsNode.isNull()) {
			if (improvementsNode.isBoolean()) {
				improvements = improvementsNode.booleanValue();
			}
			else {
				problems.add("alert_improvements: true or false, not " + improvementsNode);
			}
		}
		SeriesRepository.Overrides overrides = new SeriesRepository.Overrides(window, maxPvalue, alertMagnitude,
				confirmAfter, vary, improvements, null, null);
		if (problems.isEmpty()) {
			try {
				overrides.over(settings.seriesDefaults());
			}
			catch (IllegalArgumentException ex) {
				problems.add(ex.getMessage());
			}
		}
		if (!problems.isEmpty()) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, String.join("; ", problems));
		}
		settingsChanges.changeSettings(id, overrides, user.getName());
		return settingsView(id);
	}

	private SettingsView settingsView(String id) {
		SeriesRepository.Overrides own = series.overrides(id);
		Map<String, @Nullable Object> ownView = new LinkedHashMap<>();
		ownView.put("window", own.window());
		ownView.put("max_pvalue", own.maxPvalue());
		ownView.put("alert_magnitude", own.alertMagnitude());
		ownView.put("confirm_after", own.confirmAfter());
		ownView.put("vary", own.vary());
		ownView.put("alert_improvements", own.alertImprovements());
		return new SettingsView(id, Effective.of(own.over(settings.seriesDefaults())), ownView,
				Effective.of(settings.seriesDefaults()), own.updatedAt(), own.updatedBy());
	}

	private static @Nullable Integer integer(JsonNode body, String name, List<String> problems) {
		JsonNode node = body.get(name);
		if (node == null || node.isNull()) {
			return null;
		}
		if (node.isIntegralNumber() && node.canConvertToInt()) {
			return node.intValue();
		}
		problems.add(name + ": a whole number, not " + node);
		return null;
	}

	private static @Nullable Double number(JsonNode body, String name, List<String> problems) {
		JsonNode node = body.get(name);
		if (node == null || node.isNull()) {
			return null;
		}
		if (node.isNumber() && Double.isFinite(node.doubleValue())) {
			return node.doubleValue();
		}
		problems.add(name + ": a number, not " + node);
		return null;
	}

	private Key key(SeriesKey key) {
		return new Key(key.system(), key.model(), key.engine(), key.harness(), key.branch(),
				json.readTree(key.workload()));
	}

	private static ResponseStatusException notFound(String id) {
		return new ResponseStatusException(HttpStatus.NOT_FOUND, "no series " + id);
	}

}
