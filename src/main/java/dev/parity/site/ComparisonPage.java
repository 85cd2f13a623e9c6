package dev.parity.site;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import dev.parity.caveat.Caveat;
import dev.parity.record.Retraction;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What a comparison page shows, read from a comparison snapshot (live or published), so that the
 * template only renders: headlines, one row per matched cell with every metric's two values, ratio,
 * greying and markers, the footnotes those markers lead to, the unmatched cells, the provenance diff,
 * caveats, and the chart data.
 */
public record ComparisonPage(RunRef baseline, RunRef contender, List<Setting> settings, List<Note> comparisonFlags,
		List<HeadlineView> headlines, List<MetricHead> metrics, List<String> paramNames, List<Row> rows,
		List<Unmatched> unmatched, List<ProvenanceRow> provenance, List<Note> footnotes, List<CaveatView> caveats,
		Map<String, Object> chartData, String rulesVersion, String computedAt) {

	/** One side of the comparison. */
	public record RunRef(String id, String url, String title, String role, String system, String modelRepo,
			@Nullable String revision, @Nullable String commit, List<Note> flags, List<String> disclosedCaveats,
			@Nullable Retraction retraction) {
	}

	/** A threshold or setting in force. */
	public record Setting(String name, String value, boolean isDefault) {
	}

	/** A flag or caveat as a footnote: its number, the rule (or "caveat"), its side, its text, what it greys. */
	public record Note(int number, String rule, @Nullable String side, String message, List<String> greys) {

		public boolean greying() {
			return !greys.isEmpty();
		}

		public String id() {
			return "note-" + number;
		}
	}

	/** One metric's headline. */
	public record HeadlineView(String metric, String sentence, int comparable, int withinBand, int excluded) {
	}

	/** A metric column. */
	public record MetricHead(String metric, String unit, String better) {
	}

	/** A matched cell. */
	public record Row(String anchor, String label, List<String> paramValues, List<Note> flags, List<Value> values) {
	}

	/** One metric of one matched cell. */
	public record Value(String metric, String baseline, String contender, String ratio, String phrase, boolean greyed,
			boolean comparable, List<String> greyReasons, List<Integer> markers, List<String> caveatMarkers) {
	}

	/** A cell on one side only. */
	public record Unmatched(String side, String label, String anchor) {
	}

	/** A row of the provenance diff. */
	public record ProvenanceRow(String field, String baseline, String contender, String status, @Nullable String rule) {
	}

	/** A caveat written by a person, with its marker and what it is about. */
	public record CaveatView(String marker, Caveat caveat, String about) {
	}

	static ComparisonPage of(JsonNode snapshot, List<Caveat> comparisonCaveats, List<Caveat> runCaveats,
			@Nullable Retraction baselineRetraction, @Nullable Retraction contenderRetraction, Map<String, Object> defaults) {
		Footnotes notes = new Footnotes();
		List<Note> comparisonFlags = notes.all(snapshot.get("flags"));
		RunRef baseline = runRef(snapshot.get("baseline"), notes, baselineRetraction);
		RunRef contender = runRef(snapshot.get("contender"), notes, contenderRetraction);

		List<Setting> settings = new ArrayList<>();
		snapshot.get("settings").forEachEntry((name, value) -> {
			String text = value.isArray() ? String.join(", ", value.valueStream().map(JsonNode::asString).toList())
					: value.asString();
			Object standard = defaults.get(name);
			String standardText = standard instanceof List<?> list
					? String.join(", ", list.stream().map(Object::toString).toList())
					: standard instanceof Double d ? Numbers.format(d) : String.valueOf(standard);
			String shown = value.isNumber() ? Numbers.format(value.doubleValue()) : text;
			settings.add(new Setting(name, shown, shown.equals(standardText)));
		});

		List<HeadlineView> headlines = new ArrayList<>();
		for (JsonNode headline : snapshot.get("headlines")) {
			headlines.add(new HeadlineView(headline.get("metric").asString(), headline.get("sentence").asString(),
					headline.get("comparable").asInt(), headline.get("within_band").asInt(), headline.get("excluded").asInt()));
		}
		List<MetricHead> metrics = new ArrayList<>();
		for (JsonNode metric : snapshot.get("metrics")) {
			metrics.add(new MetricHead(metric.get("metric").asString(), metric.get("unit").asString(""),
					metric.get("better").asString("")));
		}

		List<CaveatView> caveats = new ArrayList<>();
		Map<String, List<String>> caveatMarkers = new LinkedHashMap<>();
		int n = 0;
		for (Caveat caveat : comparisonCaveats) {
			String marker = "c" + (++n);
			caveats.add(new CaveatView(marker, caveat, about(caveat)));
			if (caveat.target().cellAnchor() != null) {
				caveatMarkers.computeIfAbsent(caveat.target().cellAnchor() + "|" + Objects.toString(caveat.target().metric(), ""),
						k -> new ArrayList<>()).add(marker);
			}
		}
		for (Caveat caveat : runCaveats) {
			String marker = "c" + (++n);
			caveats.add(new CaveatView(marker, caveat, about(caveat)));
			// A caveat on a run's cell is about that cell in every comparison: matched cells share their anchor.
			if (caveat.target().cellAnchor() != null) {
				caveatMarkers.computeIfAbsent(caveat.target().cellAnchor() + "|", k -> new ArrayList<>()).add(marker);
			}
		}

		List<String> paramNames = new ArrayList<>();
		List<Row> rows = new ArrayList<>();
		for (JsonNode cell : snapshot.get("cells")) {
			cell.get("params").propertyNames().forEach(name -> {
				if (!paramNames.contains(name)) {
					paramNames.add(name);
				}
			});
		}
		sortParams(paramNames);
		for (JsonNode cell : snapshot.get("cells")) {
			String anchor = cell.get("anchor").asString();
			List<Note> cellFlags = notes.all(cell.get("flags"));
			List<Value> values = new ArrayList<>();
			for (MetricHead metric : metrics) {
				JsonNode entry = null;
				for (JsonNode candidate : cell.get("metrics")) {
					if (candidate.get("metric").asString().equals(metric.metric())) {
						entry = candidate;
					}
				}
				if (entry == null) {
					values.add(new Value(metric.metric(), "—", "—", "", "", false, false, List.of(), List.of(), List.of()));
					continue;
				}
				List<Integer> markers = new ArrayList<>();
				List<String> reasons = new ArrayList<>();
				for (JsonNode flag : entry.get("flags")) {
					Note note = notes.of(flag);
					if (!markers.contains(note.number())) {
						markers.add(note.number());
					}
					if (note.greys().contains(metric.metric()) && !reasons.contains(note.rule())) {
						reasons.add(note.rule());
					}
				}
				List<String> cMarkers = new ArrayList<>(caveatMarkers.getOrDefault(anchor + "|" + metric.metric(), List.of()));
				cMarkers.addAll(caveatMarkers.getOrDefault(anchor + "|", List.of()));
				values.add(new Value(metric.metric(), number(entry.get("baseline")), number(entry.get("contender")),
						entry.get("ratio").isNumber() ? String.format(java.util.Locale.ROOT, "%.3f", entry.get("ratio").doubleValue()) : "",
						entry.path("phrase").asString(""), entry.path("greyed").asBoolean(false),
						entry.get("comparable").asBoolean(), reasons, markers, cMarkers));
			}
			List<String> paramValues = paramNames.stream().map(name -> {
				JsonNode value = cell.get("params").get(name);
				return value == null ? "—" : value.isNumber() ? Numbers.format(value.doubleValue()) : value.asString();
			}).toList();
			rows.add(new Row(anchor, cell.path("label").asString(anchor), paramValues, cellFlags, values));
		}

		List<Unmatched> unmatched = new ArrayList<>();
		for (JsonNode cell : snapshot.get("unmatched")) {
			StringBuilder label = new StringBuilder();
			cell.get("params").forEachEntry((name, value) -> label.append(label.isEmpty() ? "" : ", ").append(name)
				.append('=').append(value.isNumber() ? Numbers.format(value.doubleValue()) : value.asString()));
			unmatched.add(new Unmatched(cell.get("side").asString(), label.toString(), cell.get("anchor").asString()));
		}

		List<ProvenanceRow> provenance = new ArrayList<>();
		for (JsonNode row : snapshot.path("provenance")) {
			provenance.add(new ProvenanceRow(row.get("field").asString(), row.get("baseline").asString("—"),
					row.get("contender").asString("—"), row.get("status").asString(), row.get("rule").asString(null)));
		}
		return new ComparisonPage(baseline, contender, settings, comparisonFlags, headlines, metrics, paramNames, rows,
				unmatched, provenance, notes.list(), caveats, chartData(snapshot, metrics, paramNames),
				snapshot.path("rules_version").asString(""), snapshot.path("computed_at").asString(""));
	}

	private static RunRef runRef(JsonNode run, Footnotes notes, @Nullable Retraction retraction) {
		JsonNode model = run.get("model");
		List<String> disclosed = new ArrayList<>();
		run.path("disclosed_caveats").forEach(c -> disclosed.add(c.asString()));
		return new RunRef(run.get("id").asString(), "/runs/" + run.get("id").asString(), run.get("title").asString(),
				run.get("role").asString(), run.get("system").asString(), model.get("repo").asString(),
				model.get("revision").asString(null), model.get("commit").asString(null), notes.all(run.get("flags")),
				disclosed, retraction);
	}

	private static String about(Caveat caveat) {
		Caveat.Target target = caveat.target();
		if (target.onRun()) {
			return "run " + target.runId() + (target.cellAnchor() == null ? "" : ", " + target.cellAnchor());
		}
		if (target.cellAnchor() == null) {
			return "this comparison";
		}
		return target.cellAnchor() + (target.metric() == null ? "" : ", " + target.metric());
	}

	private static String number(JsonNode value) {
		return value == null || !value.isNumber() ? "—" : Numbers.format(value.doubleValue());
	}

	static void sortParams(List<String> names) {
		List<String> usual = List.of("prompt_tokens", "concurrency", "request_rate", "output_tokens");
		names.sort((a, b) -> {
			int ia = usual.indexOf(a);
			int ib = usual.indexOf(b);
			if (ia >= 0 || ib >= 0) {
				return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
			}
			return a.compareTo(b);
		});
	}

	/**
	 * Per metric: the ratio per cell (greyed ones marked, the band shaded), and both runs' values
	 * against prompt length (or the first numeric param), one line per other coordinate and side.
	 */
	private static Map<String, Object> chartData(JsonNode snapshot, List<MetricHead> metrics, List<String> paramNames) {
		double band = snapshot.get("settings").path("band").asDouble(0.1);
		String x = null;
		for (String name : paramNames) {
			boolean numeric = true;
			for (JsonNode cell : snapshot.get("cells")) {
				numeric &= cell.get("params").path(name).isNumber();
			}
			if (numeric && !snapshot.get("cells").isEmpty()) {
				x = name;
				break;
			}
		}
		List<Map<String, Object>> charts = new ArrayList<>();
		for (MetricHead metric : metrics) {
			List<Map<String, Object>> bars = new ArrayList<>();
			Map<String, List<List<Double>>> lines = new TreeMap<>();
			for (JsonNode cell : snapshot.get("cells")) {
				for (JsonNode entry : cell.get("metrics")) {
					if (!entry.get("metric").asString().equals(metric.metric())) {
						continue;
					}
					if (entry.get("ratio").isNumber()) {
						Map<String, Object> bar = new LinkedHashMap<>();
						bar.put("label", cell.path("label").asString(cell.get("anchor").asString()));
						bar.put("anchor", cell.get("anchor").asString());
						bar.put("ratio", entry.get("ratio").doubleValue());
						bar.put("greyed", !entry.get("comparable").asBoolean());
						bars.add(bar);
					}
					if (x != null) {
						StringBuilder series = new StringBuilder();
						String xName = x;
						cell.get("params").forEachEntry((name, value) -> {
							if (!name.equals(xName)) {
								series.append(series.isEmpty() ? "" : ", ").append(name).append('=')
									.append(value.isNumber() ? Numbers.format(value.doubleValue()) : value.asString());
							}
						});
						double xValue = cell.get("params").get(x).doubleValue();
						for (String side : List.of("baseline", "contender")) {
							if (entry.get(side).isNumber()) {
								lines.computeIfAbsent(side + (series.isEmpty() ? "" : " " + series), k -> new ArrayList<>())
									.add(List.of(xValue, entry.get(side).doubleValue()));
							}
						}
					}
				}
			}
			List<Map<String, Object>> series = new ArrayList<>();
			lines.forEach((label, points) -> {
				points.sort((p, q) -> Double.compare(p.get(0), q.get(0)));
				series.add(Map.of("label", label, "points", points, "side", label.startsWith("baseline") ? "baseline" : "contender"));
			});
			Map<String, Object> chart = new LinkedHashMap<>();
			chart.put("metric", metric.metric());
			chart.put("unit", metric.unit());
			chart.put("bars", bars);
			chart.put("series", series);
			charts.add(chart);
		}
		Map<String, Object> data = new LinkedHashMap<>();
		data.put("band", band);
		data.put("x", x);
		data.put("charts", charts);
		return data;
	}

	/** Numbers flags in the order they first appear, one number per distinct flag. */
	private static final class Footnotes {

		private final Map<String, Note> notes = new LinkedHashMap<>();

		Note of(JsonNode flag) {
			String side = flag.path("side").asString(null);
			String key = flag.get("rule").asString() + "|" + side + "|" + flag.get("message").asString();
			return notes.computeIfAbsent(key, k -> new Note(notes.size() + 1, flag.get("rule").asString(), side,
					flag.get("message").asString(), flag.get("greys").valueStream().map(JsonNode::asString).toList()));
		}

		List<Note> all(JsonNode flags) {
			List<Note> result = new ArrayList<>();
			if (flags != null) {
				flags.forEach(flag -> result.add(of(flag)));
			}
			return result;
		}

		List<Note> list() {
			return List.copyOf(notes.values());
		}

	}

}
