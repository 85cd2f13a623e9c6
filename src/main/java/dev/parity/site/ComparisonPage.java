package dev.parity.site;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.parity.caveat.Caveat;
import dev.parity.compare.ComparisonSnapshot;
import dev.parity.record.Retraction;
import org.jspecify.annotations.Nullable;

import org.springframework.util.function.SingletonSupplier;

/**
 * What a comparison page shows, read from a comparison snapshot (live or published), so
 * that the template only renders: headlines, one row per matched cell with every metric's
 * two values, ratio, greying and markers, the footnotes those markers lead to, the
 * unmatched cells, the provenance diff, caveats, and the chart data.
 */
public record ComparisonPage(RunRef baseline, RunRef contender, List<Setting> settings, List<Note> comparisonFlags,
		List<HeadlineView> headlines, List<MetricHead> metrics, List<String> paramNames, List<Row> rows,
		List<Unmatched> unmatched, List<ProvenanceRow> provenance, List<Note> footnotes, List<CaveatView> caveats,
		Supplier<ComparisonCharts> charts, String rulesVersion, String computedAt, List<NoteGroup> noteGroups,
		List<Everywhere> everywhere, @Nullable String nothingMatches) {

	/**
	 * A reason that greys every matched cell of one or more metrics, said once at the top
	 * of the page rather than in each cell: its note, the metrics whose every cell it
	 * greys (all of them when {@code allMetrics}), and its control (what would lift it,
	 * the end of its message).
	 */
	public record Everywhere(Note note, List<String> metrics, boolean allMetrics, String control) {
	}

	/**
	 * Per metric: the ratio per cell and both runs' values (see
	 * {@link #chartData(ComparisonSnapshot, List, List)}), made the first time it is
	 * asked for: a light page fetches it apart, so the page itself never needs it.
	 */
	public ComparisonCharts chartData() {
		return charts.get();
	}

	/** One side of the comparison. */
	public record RunRef(String id, String url, String title, String role, String system, String modelRepo,
			@Nullable String revision, @Nullable String commit, List<Note> flags, List<String> disclosedCaveats,
			@Nullable Retraction retraction, List<String> replicates) {

		public RunRef(String id, String url, String title, String role, String system, String modelRepo,
				@Nullable String revision, @Nullable String commit, List<Note> flags, List<String> disclosedCaveats,
				@Nullable Retraction retraction) {
			this(id, url, title, role, system, modelRepo, revision, commit, flags, disclosedCaveats, retraction,
					List.of());
		}
	}

	/** A threshold or setting in force. */
	public record Setting(String name, String value, boolean isDefault) {
	}

	/**
	 * A flag as a footnote: its number, the rule, its side, its text, what it greys, and
	 * its short form (the few words shown beside the number it concerns).
	 */
	public record Note(int number, String rule, @Nullable String side, String message, List<String> greys,
			String shortForm) {

		public boolean greying() {
			return !greys.isEmpty();
		}

		public String id() {
			return "note-" + number;
		}
	}

	/**
	 * The footnotes of one rule (and side), shown once however many cells they concern:
	 * "output-length-differs in 18 cells", each note with the cells it is about.
	 */
	public record NoteGroup(String rule, @Nullable String side, List<GroupedNote> notes, int cellCount) {

		public String id() {
			return "rule-" + rule + (side == null ? "" : "-" + side);
		}

		public boolean greying() {
			return notes.stream().anyMatch(n -> n.note().greying());
		}

		/** Every metric one of its notes greys, in the order first met. */
		public List<String> greys() {
			return notes.stream().flatMap(n -> n.note().greys().stream()).distinct().toList();
		}

		/**
		 * Whether every note of the group says the same once its numbers are left out.
		 */
		public boolean oneMessage() {
			return notes.size() == 1;
		}

		/**
		 * The group's short forms as one line when they differ only in their numbers,
		 * each number that differs as the range it takes ("512 vs 2,437–5,680
		 * tokens/request"); {@code null} for a group of one note or of notes that say
		 * different things.
		 */
		public @Nullable String merged() {
			if (notes.size() < 2) {
				return null;
			}
			return NumberRanges.merge(notes.stream().map(n -> n.note().shortForm()).toList());
		}
	}

	/**
	 * A footnote and the cells it is about (none for a flag on a run or on the whole
	 * comparison).
	 */
	public record GroupedNote(Note note, List<CellLink> cells) {
	}

	/** A link to a matched cell. */
	public record CellLink(String anchor, String label) {
	}

	/** One metric's headline. */
	public record HeadlineView(String metric, String sentence, int comparable, int withinBand, int excluded,
			String verdicts) {

		public HeadlineView(String metric, String sentence, int comparable, int withinBand, int excluded) {
			this(metric, sentence, comparable, withinBand, excluded, "");
		}
	}

	/** A metric column. */
	public record MetricHead(String metric, String unit, String better) {
	}

	/** A matched cell. */
	public record Row(String anchor, String label, List<String> paramValues, List<Note> flags, List<Value> values) {

		/**
		 * The reasons particular to this cell (not said at the top) that grey two or more
		 * of its metrics: said once in the row (its {@code #anchor-greyed} line), the
		 * metrics then link to them by their number in it.
		 */
		public List<Note> shared() {
			Map<Note, Integer> counts = new LinkedHashMap<>();
			for (Value v : values) {
				if (v.greyed()) {
					v.particular().forEach(n -> counts.merge(n, 1, Integer::sum));
				}
			}
			return counts.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).toList();
		}

		/**
		 * The reasons of this value said in its own cell: those not said once in the row.
		 */
		public List<Note> own(Value v) {
			List<Note> shared = shared();
			return v.particular().stream().filter(n -> !shared.contains(n)).toList();
		}

		/**
		 * Whether the row says this note's reason already, in its line of shared reasons
		 * or in a cell it greys: its folded list of flags then names the rule only.
		 */
		public boolean said(Note note) {
			return values.stream().anyMatch(v -> v.greyed() && v.particular().contains(note));
		}

		/**
		 * The numbers (from 1) in the row's line of the row's shared reasons that grey
		 * this value.
		 */
		public List<Integer> inRow(Value v) {
			List<Note> shared = shared();
			List<Integer> numbers = new ArrayList<>();
			for (int i = 0; i < shared.size(); i++) {
				if (v.particular().contains(shared.get(i))) {
					numbers.add(i + 1);
				}
			}
			return numbers;
		}
	}

	/** One metric of one matched cell. */
	public record Value(String metric, String baseline, String contender, String ratio, String phrase, boolean greyed,
			boolean comparable, List<String> greyReasons, List<Integer> markers, List<String> caveatMarkers,
			List<Note> reasons, String interval, @Nullable String verdict, @Nullable String verdictWords,
			@Nullable Boolean significant, @Nullable IntervalBar bar, List<Note> particular) {

		public Value(String metric, String baseline, String contender, String ratio, String phrase, boolean greyed,
				boolean comparable, List<String> greyReasons, List<Integer> markers, List<String> caveatMarkers,
				List<Note> reasons, String interval, @Nullable String verdict, @Nullable String verdictWords,
				@Nullable Boolean significant, @Nullable IntervalBar bar) {
			this(metric, baseline, contender, ratio, phrase, greyed, comparable, greyReasons, markers, caveatMarkers,
					reasons, interval, verdict, verdictWords, significant, bar, reasons);
		}

		/**
		 * The same value, its reasons said in the cell only these (the others are said
		 * once, at the top), and its markers only those of notes no reason of the cell
		 * links to already.
		 */
		Value particularTo(List<Note> kept) {
			return new Value(metric, baseline, contender, ratio, phrase, greyed, comparable, greyReasons,
					markers.stream().filter(m -> reasons.stream().noneMatch(n -> n.number() == m)).toList(),
					caveatMarkers, reasons, interval, verdict, verdictWords, significant, bar, kept);
		}

		/**
		 * The rules of every note greying this value, said in the cell, in its row or
		 * above the table, space-separated (the page's {@code data-greyed-by}); empty
		 * when nothing greys it.
		 */
		public String greyedByRules() {
			return greyed ? String.join(" ", reasons.stream().map(Note::rule).distinct().toList()) : "";
		}

		/**
		 * Whether the cell is comparable and its verdict is within the band: it carries
		 * no words under its number.
		 */
		public boolean quiet() {
			return "within-band".equals(verdict) && !greyed && caveatMarkers.isEmpty();
		}

		private static final Pattern TIME_PHRASE = Pattern.compile("\\+?([0-9.,]+ %) (more|less) time (\\(.+\\))");

		/**
		 * The ratio as the pair table's cell says it, short enough for one line: a time's
		 * "more time" / "less time" said by its sign
		 * ({@code +810 % more time (9.1× slower)} → {@code +810 % (9.1× slower)},
		 * {@code 27 % less time (1.37× faster)} → {@code −27 % (1.37× faster)}), as other
		 * lower-is-better metrics are; the words of {@link #phrase()} in its hover.
		 */
		public String cellPhrase() {
			Matcher time = TIME_PHRASE.matcher(phrase);
			if (!time.matches()) {
				return phrase;
			}
			String sign = "more".equals(time.group(2)) ? "+" : "\u2212";
			return sign + time.group(1) + " " + time.group(3);
		}

		/**
		 * The ratio (as the other cells say it), interval and verdict in words, for the
		 * hover of a quiet cell.
		 */
		public String hover() {
			return String.join("; ",
					Stream.of(cellPhrase(), interval, verdictWords).filter(t -> t != null && !t.isEmpty()).toList());
		}

		public Value(String metric, String baseline, String contender, String ratio, String phrase, boolean greyed,
				boolean comparable, List<String> greyReasons, List<Integer> markers, List<String> caveatMarkers,
				List<Note> reasons) {
			this(metric, baseline, contender, ratio, phrase, greyed, comparable, greyReasons, markers, caveatMarkers,
					reasons, "", null, null, null, null);
		}
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

	static ComparisonPage of(ComparisonSnapshot snapshot, List<Caveat> comparisonCaveats, List<Caveat> runCaveats,
			@Nullable Retraction baselineRetraction, @Nullable Retraction contenderRetraction,
			Map<String, Object> defaults) {
		Footnotes notes = new Footnotes();
		List<Note> comparisonFlags = notes.all(snapshot.flags());
		RunRef baseline = runRef(snapshot.baseline(), notes, baselineRetraction);
		RunRef contender = runRef(snapshot.contender(), notes, contenderRetraction);

		List<Setting> settings = new ArrayList<>();
		snapshot.settings().forEach((name, value) -> {
			Object standard = defaults.get(name);
			String standardText = standard instanceof List<?> list
					? String.join(", ", list.stream().map(Object::toString).toList())
					: standard instanceof Double d ? Numbers.format(d) : String.valueOf(standard);
			String shown = value instanceof Number number ? Numbers.format(number.doubleValue())
					: value instanceof List<?> list ? String.join(", ", list.stream().map(String::valueOf).toList())
							: String.valueOf(value);
			settings.add(new Setting(name, shown, shown.equals(standardText)));
		});

		List<HeadlineView> headlines = new ArrayList<>();
		for (ComparisonSnapshot.HeadlineView headline : snapshot.headlines()) {
			headlines.add(new HeadlineView(headline.metric(), Objects.toString(headline.sentence(), ""),
					headline.comparable(), headline.withinBand(), headline.excluded(), verdicts(headline)));
		}
		List<MetricHead> metrics = new ArrayList<>();
		for (ComparisonSnapshot.MetricInfo metric : snapshot.metrics()) {
			metrics.add(new MetricHead(metric.metric(), Objects.toString(metric.unit(), ""),
					Objects.toString(metric.better(), "")));
		}

		List<CaveatView> caveats = new ArrayList<>();
		Map<String, List<String>> caveatMarkers = new LinkedHashMap<>();
		int n = 0;
		for (Caveat caveat : comparisonCaveats) {
			String marker = "c" + (++n);
			caveats.add(new CaveatView(marker, caveat, about(caveat)));
			if (caveat.target().cellAnchor() != null) {
				caveatMarkers
					.computeIfAbsent(
							caveat.target().cellAnchor() + "|" + Objects.toString(caveat.target().metric(), ""),
							k -> new ArrayList<>())
					.add(marker);
			}
		}
		for (Caveat caveat : runCaveats) {
			String marker = "c" + (++n);
			caveats.add(new CaveatView(marker, caveat, about(caveat)));
			// A caveat on a run's cell is about that cell in every comparison: matched
			// cells share their anchor.
			if (caveat.target().cellAnchor() != null) {
				caveatMarkers.computeIfAbsent(caveat.target().cellAnchor() + "|", k -> new ArrayList<>()).add(marker);
			}
		}

		List<String> paramNames = new ArrayList<>();
		List<Row> rows = new ArrayList<>();
		for (ComparisonSnapshot.CellView cell : snapshot.cells()) {
			cell.params().keySet().forEach(name -> {
				if (!paramNames.contains(name)) {
					paramNames.add(name);
				}
			});
		}
		sortParams(paramNames);
		double band = snapshot.band();
		for (ComparisonSnapshot.CellView cell : snapshot.cells()) {
			String anchor = cell.anchor();
			List<String> paramValues = paramNames.stream().map(name -> {
				Object value = cell.params().get(name);
				return value == null ? "—" : param(value);
			}).toList();
			StringBuilder label = new StringBuilder();
			for (int i = 0; i < paramNames.size(); i++) {
				label.append(i == 0 ? "" : ", ").append(paramNames.get(i)).append(' ').append(paramValues.get(i));
			}
			List<Note> cellFlags = notes.all(cell.flags());
			cellFlags.forEach(note -> notes.about(note, anchor, label.toString()));
			List<Value> values = new ArrayList<>();
			for (MetricHead metric : metrics) {
				ComparisonSnapshot.MetricView entry = cell.metric(metric.metric());
				if (entry == null) {
					values.add(new Value(metric.metric(), "—", "—", "", "", false, false, List.of(), List.of(),
							List.of(), List.of()));
					continue;
				}
				List<Integer> markers = new ArrayList<>();
				List<String> reasons = new ArrayList<>();
				List<Note> greyedBy = new ArrayList<>();
				for (ComparisonSnapshot.FlagView flag : entry.flags()) {
					Note note = notes.of(flag);
					notes.about(note, anchor, label.toString());
					if (!markers.contains(note.number())) {
						markers.add(note.number());
					}
					if (note.greys().contains(metric.metric()) && !reasons.contains(note.rule())) {
						reasons.add(note.rule());
					}
					if (note.greys().contains(metric.metric()) && !greyedBy.contains(note)) {
						greyedBy.add(note);
					}
				}
				List<String> cMarkers = new ArrayList<>(
						caveatMarkers.getOrDefault(anchor + "|" + metric.metric(), List.of()));
				cMarkers.addAll(caveatMarkers.getOrDefault(anchor + "|", List.of()));
				values.add(new Value(metric.metric(), number(entry.baseline()), number(entry.contender()),
						entry.ratio() != null ? String.format(Locale.ROOT, "%.3f", entry.ratio()) : "",
						Objects.toString(entry.phrase(), ""), entry.isGreyed(), entry.comparable(), reasons, markers,
						cMarkers, greyedBy, Objects.toString(entry.intervalPhrase(), ""), entry.verdict(),
						entry.verdictPhrase(), entry.significant(), IntervalBar.of(entry, band)));
			}
			rows.add(new Row(anchor, Objects.toString(cell.label(), anchor), paramValues, cellFlags, values));
		}

		List<Everywhere> everywhere = everywhere(rows, metrics);
		rows = rows.stream()
			.map(row -> new Row(row.anchor(), row.label(), row.paramValues(), row.flags(),
					row.values()
						.stream()
						.map(v -> v.particularTo(v.reasons()
							.stream()
							.filter(note -> everywhere.stream()
								.noneMatch(e -> e.note().equals(note) && e.metrics().contains(v.metric())))
							.toList()))
						.toList()))
			.toList();

		List<Unmatched> unmatched = new ArrayList<>();
		for (ComparisonSnapshot.UnmatchedView cell : snapshot.unmatched()) {
			StringBuilder label = new StringBuilder();
			cell.params()
				.forEach((name, value) -> label.append(label.isEmpty() ? "" : ", ")
					.append(name)
					.append('=')
					.append(param(value)));
			unmatched.add(new Unmatched(cell.side(), label.toString(), cell.anchor()));
		}

		List<ProvenanceRow> provenance = new ArrayList<>();
		for (ComparisonSnapshot.ProvenanceRow row : snapshot.provenance()) {
			provenance.add(new ProvenanceRow(row.field(), Objects.toString(row.baseline(), "—"),
					Objects.toString(row.contender(), "—"), row.status(), row.rule()));
		}
		return new ComparisonPage(baseline, contender, settings, comparisonFlags, headlines, metrics, paramNames, rows,
				unmatched, provenance, notes.list(), caveats,
				SingletonSupplier.of(() -> chartData(snapshot, metrics, paramNames)),
				Objects.toString(snapshot.rulesVersion(), ""), Objects.toString(snapshot.computedAt(), ""),
				notes.groups(), everywhere, nothingMatches(snapshot, rows));
	}

	/**
	 * The notes that grey every matched cell of a metric (of those that have a value on
	 * either side), with the metrics they grey so, when there is more than one matched
	 * cell.
	 */
	private static List<Everywhere> everywhere(List<Row> rows, List<MetricHead> metrics) {
		if (rows.size() < 2) {
			return List.of();
		}
		Map<Note, List<String>> found = new LinkedHashMap<>();
		for (MetricHead metric : metrics) {
			List<Value> values = rows.stream()
				.flatMap(r -> r.values().stream())
				.filter(v -> v.metric().equals(metric.metric()) && (v.greyed() || v.comparable()))
				.toList();
			if (values.size() < 2) {
				continue;
			}
			for (Note note : values.get(0).reasons()) {
				if (values.stream().allMatch(v -> v.reasons().contains(note))) {
					found.computeIfAbsent(note, n -> new ArrayList<>()).add(metric.metric());
				}
			}
		}
		List<Everywhere> everywhere = new ArrayList<>();
		found.forEach((note, greyed) -> {
			int dash = note.message().lastIndexOf(" — ");
			String control = dash < 0 ? "" : note.message().substring(dash + 3);
			everywhere.add(new Everywhere(note, greyed, greyed.size() == metrics.size(), control));
		});
		return everywhere;
	}

	/**
	 * When no cell matches although both runs have cells: the sentence that says so
	 * first, naming both grids' parameters ("baseline grid: concurrency, prompt_tokens —
	 * contender grid: concurrency, target_prompt_tokens").
	 */
	private static @Nullable String nothingMatches(ComparisonSnapshot snapshot, List<Row> rows) {
		if (!rows.isEmpty() || snapshot.unmatched().isEmpty()) {
			return null;
		}
		Map<String, Set<String>> grids = new LinkedHashMap<>();
		grids.put("baseline", new TreeSet<>());
		grids.put("contender", new TreeSet<>());
		for (ComparisonSnapshot.UnmatchedView cell : snapshot.unmatched()) {
			grids.computeIfAbsent(cell.side(), k -> new TreeSet<>()).addAll(cell.params().keySet());
		}
		if (grids.get("baseline").isEmpty() || grids.get("contender").isEmpty()) {
			return null;
		}
		String why = grids.get("baseline").equals(grids.get("contender"))
				? "the grids name the same parameters but share no combination of their values"
				: "the grids name their parameters differently";
		return "Nothing matches: no cell of one run has the parameters of a cell of the other; " + why
				+ " (baseline grid: " + String.join(", ", grids.get("baseline")) + " — contender grid: "
				+ String.join(", ", grids.get("contender")) + ").";
	}

	/** A grid coordinate as shown: a number formatted, anything else as written. */
	private static String param(Object value) {
		return value instanceof Number number ? Numbers.format(number.doubleValue()) : String.valueOf(value);
	}

	/**
	 * The verdicts of a headline in words, e.g.
	 * {@code verdicts: 16 within-band, 2 worse · median ratio 95 % interval
	 * 0.981–1.020}; empty for a snapshot computed before verdicts existed.
	 */
	private static String verdicts(ComparisonSnapshot.HeadlineView headline) {
		List<String> counts = new ArrayList<>();
		if (headline.verdicts() != null) {
			headline.verdicts().forEach((verdict, count) -> {
				if (count != null && count > 0) {
					counts.add(count + " " + verdict);
				}
			});
		}
		StringBuilder text = new StringBuilder(counts.isEmpty() ? "" : "verdicts: " + String.join(", ", counts));
		ComparisonSnapshot.Interval interval = headline.medianRatioInterval();
		if (interval != null) {
			text.append(text.isEmpty() ? "" : " · ")
				.append("median ratio 95 % interval ")
				.append(String.format(Locale.ROOT, "%.3f–%.3f", interval.low(), interval.high()));
			if (interval.caution() != null) {
				text.append(" (").append(interval.caution()).append(')');
			}
		}
		return text.toString();
	}

	/**
	 * A small bar for an interval, as SVG coordinates on a 0–100 scale spanning ratio 1 ±
	 * 3 × band (the content security policy allows no inline style): the band shaded, the
	 * interval drawn over it, a tick at ratio 1.
	 */
	public record IntervalBar(double bandX, double bandWidth, double lowX, double width, double oneX, double ratioX) {

		static @Nullable IntervalBar of(ComparisonSnapshot.MetricView entry, double band) {
			ComparisonSnapshot.Interval interval = entry.interval();
			if (interval == null || entry.ratio() == null || band <= 0) {
				return null;
			}
			double span = 3 * band;
			double low = x(interval.low(), span);
			double high = x(interval.high(), span);
			double bandLow = x(1 - band, span);
			return new IntervalBar(bandLow, x(1 + band, span) - bandLow, low, Math.max(high - low, 0.8), 50,
					x(entry.ratio(), span));
		}

		private static double x(double ratio, double span) {
			double x = 50 + 50 * (ratio - 1) / span;
			return Math.round(Math.max(0, Math.min(100, x)) * 100) / 100.0;
		}
	}

	private static RunRef runRef(ComparisonSnapshot.Side run, Footnotes notes, @Nullable Retraction retraction) {
		ComparisonSnapshot.ModelRef model = run.model();
		return new RunRef(run.id(), "/runs/" + run.id(), run.title(), run.role(), run.system(), model.repo(),
				model.revision(), model.commit(), notes.all(run.flags()), run.disclosedCaveats(), retraction,
				run.replicates());
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

	private static String number(@Nullable Double value) {
		return value == null ? "—" : Numbers.format(value);
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
	 * Per metric: the ratio per cell (greyed ones marked, the band shaded), and both
	 * runs' values against the first numeric grid coordinate that varies, one line per
	 * value of every other coordinate and side; a greyed value is a point of its own,
	 * never part of a line, and a cell without a value leaves a gap.
	 */
	private static ComparisonCharts chartData(ComparisonSnapshot snapshot, List<MetricHead> metrics,
			List<String> paramNames) {
		double band = snapshot.band();
		String x = xCoordinate(snapshot.cells(), paramNames);
		List<ComparisonCharts.Chart> charts = new ArrayList<>();
		for (MetricHead metric : metrics) {
			List<ComparisonCharts.Bar> bars = new ArrayList<>();
			Map<String, List<ComparisonCharts.Point>> lines = new TreeMap<>();
			for (ComparisonSnapshot.CellView cell : snapshot.cells()) {
				for (ComparisonSnapshot.MetricView entry : cell.metrics()) {
					if (!entry.metric().equals(metric.metric())) {
						continue;
					}
					boolean greyed = !entry.comparable();
					// What greys it, for the chart's tooltip: the rules of the cell's and
					// the metric's notes that grey it.
					List<String> reasons = new ArrayList<>();
					if (greyed) {
						for (ComparisonSnapshot.FlagView flag : concat(cell.flags(), entry.flags())) {
							String reason = flag.shortForm() != null ? flag.shortForm() : flag.rule();
							if (flag.greys().contains(metric.metric()) && !reasons.contains(reason)) {
								reasons.add(reason);
							}
						}
					}
					if (entry.ratio() != null) {
						bars.add(new ComparisonCharts.Bar(shortLabel(cell.params(), paramNames), cell.anchor(),
								entry.ratio(), greyed, reasons));
					}
					if (x != null) {
						StringBuilder series = new StringBuilder();
						for (String name : paramNames) {
							Object value = cell.params().get(name);
							if (!name.equals(x) && value != null) {
								series.append(series.isEmpty() ? "" : ", ")
									.append(name)
									.append('=')
									.append(param(value));
							}
						}
						double xValue = ((Number) cell.params().get(x)).doubleValue();
						for (String side : List.of("baseline", "contender")) {
							ComparisonCharts.Point point = new ComparisonCharts.Point(xValue,
									side.equals("baseline") ? entry.baseline() : entry.contender(), greyed,
									greyed ? reasons : null);
							lines.computeIfAbsent(side + (series.isEmpty() ? "" : " " + series), k -> new ArrayList<>())
								.add(point);
						}
					}
				}
			}
			List<ComparisonCharts.Series> series = new ArrayList<>();
			lines.forEach((label, points) -> {
				points.sort((p, q) -> Double.compare(p.x(), q.x()));
				series.add(new ComparisonCharts.Series(label, label.startsWith("baseline") ? "baseline" : "contender",
						points));
			});
			charts.add(new ComparisonCharts.Chart(metric.metric(), metric.unit(), bars, series));
		}
		return new ComparisonCharts(band, x, charts);
	}

	/**
	 * The first grid coordinate that is a number in every cell and takes more than one
	 * value; else the first numeric one.
	 */
	private static @Nullable String xCoordinate(List<ComparisonSnapshot.CellView> cells, List<String> paramNames) {
		String numeric = null;
		for (String name : paramNames) {
			Set<Double> values = new HashSet<>();
			boolean isNumeric = !cells.isEmpty();
			for (ComparisonSnapshot.CellView cell : cells) {
				Object value = cell.params().get(name);
				isNumeric &= value instanceof Number;
				if (value instanceof Number number) {
					values.add(number.doubleValue());
				}
			}
			if (isNumeric && values.size() > 1) {
				return name;
			}
			if (isNumeric && numeric == null) {
				numeric = name;
			}
		}
		return numeric;
	}

	/** A cell's params as a chart label: "280 × 1" (in the table's column order). */
	private static String shortLabel(Map<String, Object> params, List<String> paramNames) {
		List<String> values = new ArrayList<>();
		for (String name : paramNames) {
			Object value = params.get(name);
			if (value != null) {
				values.add(param(value));
			}
		}
		return String.join(" × ", values);
	}

	/** Numbers flags in the order they first appear, one number per distinct flag. */
	private static final class Footnotes {

		private final Map<String, Note> notes = new LinkedHashMap<>();

		private final Map<Integer, Map<String, CellLink>> cells = new LinkedHashMap<>();

		Note of(ComparisonSnapshot.FlagView flag) {
			String key = flag.rule() + "|" + flag.side() + "|" + flag.message();
			// Publications frozen before flags had a short form fall back to the rule id.
			return notes.computeIfAbsent(key, k -> new Note(notes.size() + 1, flag.rule(), flag.side(), flag.message(),
					flag.greys(), flag.shortOrRule()));
		}

		/** Records that a note concerns a cell. */
		void about(Note note, String anchor, String label) {
			cells.computeIfAbsent(note.number(), n -> new LinkedHashMap<>())
				.putIfAbsent(anchor, new CellLink(anchor, label));
		}

		/** The notes by rule and side, in the order first met. */
		List<NoteGroup> groups() {
			Map<String, List<GroupedNote>> byRule = new LinkedHashMap<>();
			for (Note note : notes.values()) {
				byRule.computeIfAbsent(note.rule() + "|" + note.side(), k -> new ArrayList<>())
					.add(new GroupedNote(note, List.copyOf(cells.getOrDefault(note.number(), Map.of()).values())));
			}
			List<NoteGroup> groups = new ArrayList<>();
			byRule.values()
				.forEach(grouped -> groups
					.add(new NoteGroup(grouped.get(0).note().rule(), grouped.get(0).note().side(), grouped,
							(int) grouped.stream()
								.flatMap(g -> g.cells().stream())
								.map(CellLink::anchor)
								.distinct()
								.count())));
			return groups;
		}

		List<Note> all(List<ComparisonSnapshot.FlagView> flags) {
			List<Note> result = new ArrayList<>();
			flags.forEach(flag -> result.add(of(flag)));
			return result;
		}

		List<Note> list() {
			return List.copyOf(notes.values());
		}

	}

	private static <T> List<T> concat(List<? extends T> first, List<? extends T> second) {
		List<T> all = new ArrayList<>(first);
		all.addAll(second);
		return all;
	}

}
