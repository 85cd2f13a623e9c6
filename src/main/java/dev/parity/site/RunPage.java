package dev.parity.site;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.parity.run.Cell;
import dev.parity.run.MetricCatalogue;
import dev.parity.run.MetricDefinition;
import dev.parity.run.MetricValue;
import dev.parity.run.Params;
import dev.parity.run.Provenance;
import dev.parity.run.RequestCounts;
import dev.parity.run.Run;
import dev.parity.run.TokenStats;
import org.jspecify.annotations.Nullable;

/**
 * What a run page shows, decided here so that the template only renders: the metric
 * columns, one row per cell with its values, counts and flags, and the data of the
 * charts.
 */
public record RunPage(Run run, List<String> paramNames, List<MetricDefinition> metrics, List<Row> rows,
		RunCharts chartData, List<PageFlag> runFlags, List<String> disclosedCaveats, String measuredOutput,
		String measuredReasoning, boolean hasReasoning) {

	/**
	 * A flag as shown: its rule id, its short form (the few words beside a number), its
	 * message, the metrics it greys, and the one metric an annotation is about.
	 */
	public record PageFlag(String rule, String shortForm, String message, Set<String> greys, @Nullable String metric) {

		public boolean greying() {
			return !greys.isEmpty();
		}
	}

	/** One cell of the grid. */
	public record Row(Cell cell, String anchor, List<String> paramValues, String completed, String failed,
			String cancelled, String outputTokens, String reasoningTokens, List<Value> values, List<PageFlag> flags,
			int samples) {
	}

	/**
	 * One metric value of a cell: greyed by the rules in {@code markers} (the flags
	 * themselves in {@code greyedBy}), annotated by those in {@code notes} (the flags in
	 * {@code notedBy}).
	 */
	public record Value(String metric, String text, String detail, boolean greyed, List<String> markers,
			List<String> notes, List<PageFlag> greyedBy, List<PageFlag> notedBy) {
	}

	/**
	 * Builds the page of a run, with the flags computed for it (by anchor; "" =
	 * run-level).
	 */
	public static RunPage of(Run run, List<PageFlag> runFlags, Map<String, List<PageFlag>> cellFlags) {
		MetricCatalogue catalogue = run.provenance().catalogue();
		Set<String> present = new LinkedHashSet<>();
		run.cells().forEach(cell -> present.addAll(cell.metrics().keySet()));
		List<MetricDefinition> metrics = new ArrayList<>();
		catalogue.all().stream().filter(d -> present.contains(d.name())).forEach(metrics::add);
		present.stream().filter(name -> !catalogue.knows(name)).map(catalogue::get).forEach(metrics::add);

		List<String> paramNames = paramNames(run.cells());
		List<Row> rows = new ArrayList<>();
		List<Cell> cells = new ArrayList<>(run.cells());
		cells.sort(Comparator.comparing((Cell cell) -> sortKey(cell.params(), paramNames)));
		for (Cell cell : cells) {
			List<PageFlag> flags = cellFlags.getOrDefault(cell.anchor(), List.of());
			List<Value> values = new ArrayList<>();
			for (MetricDefinition metric : metrics) {
				values.add(value(cell, metric.name(), flags, runFlags));
			}
			RequestCounts requests = cell.requests();
			rows.add(new Row(cell, cell.anchor(),
					paramNames.stream().map(name -> cell.params().get(name).map(Params::format).orElse("—")).toList(),
					count(requests.completed()), count(requests.failed()), count(requests.cancelled()),
					tokens(cell.outputTokens()), tokens(cell.reasoningTokens()), values, flags, cell.samples().size()));
		}
		List<String> caveats = run.provenance().caveats();
		boolean hasReasoning = run.cells().stream().anyMatch(cell -> cell.reasoningTokens() != null);
		return new RunPage(run, paramNames, metrics, rows, chartData(run, metrics, rows), runFlags, caveats,
				medianRange(run.cells().stream().map(Cell::outputTokens).toList()),
				medianRange(run.cells().stream().map(Cell::reasoningTokens).toList()), hasReasoning);
	}

	/** "512–529 per request (cell medians)", or "not measured". */
	private static String medianRange(List<@Nullable TokenStats> stats) {
		double[] medians = stats.stream()
			.filter(s -> s != null && s.median() != null)
			.mapToDouble(s -> s.median())
			.sorted()
			.toArray();
		if (medians.length == 0) {
			return "not measured";
		}
		String range = medians[0] == medians[medians.length - 1] ? Numbers.format(medians[0])
				: Numbers.format(medians[0]) + "–" + Numbers.format(medians[medians.length - 1]);
		return range + " per request (cell medians)";
	}

	private static Value value(Cell cell, String metric, List<PageFlag> cellFlags, List<PageFlag> runFlags) {
		MetricValue value = cell.metrics().get(metric);
		List<String> markers = new ArrayList<>();
		List<String> notes = new ArrayList<>();
		List<PageFlag> greyedBy = new ArrayList<>();
		List<PageFlag> notedBy = new ArrayList<>();
		boolean greyed = false;
		for (PageFlag flag : concat(runFlags, cellFlags)) {
			if (flag.greys().contains(metric)) {
				greyed = true;
				if (!markers.contains(flag.rule())) {
					markers.add(flag.rule());
				}
				greyedBy.add(flag);
			}
			else if (metric.equals(flag.metric()) && !notes.contains(flag.rule())) {
				notes.add(flag.rule());
				notedBy.add(flag);
			}
		}
		if (value == null) {
			return new Value(metric, "—", "no value", greyed, markers, notes, greyedBy, notedBy);
		}
		String text = value.median().isPresent() ? Numbers.format(value.median().getAsDouble())
				: value.statistics().entrySet().iterator().next().getKey() + " "
						+ Numbers.format(value.statistics().entrySet().iterator().next().getValue());
		StringBuilder detail = new StringBuilder();
		if (value.single()) {
			detail.append("median (or aggregate)");
		}
		else {
			value.statistics()
				.forEach((name, number) -> detail.append(detail.isEmpty() ? "" : ", ")
					.append(name)
					.append(' ')
					.append(Numbers.format(number)));
		}
		return new Value(metric, text, detail.toString(), greyed, markers, notes, greyedBy, notedBy);
	}

	private static List<PageFlag> concat(List<PageFlag> a, List<PageFlag> b) {
		List<PageFlag> all = new ArrayList<>(a);
		all.addAll(b);
		return all;
	}

	private static String count(@Nullable Integer count) {
		return count == null ? "unknown" : Numbers.format(count);
	}

	private static String tokens(@Nullable TokenStats tokens) {
		if (tokens == null) {
			return "not measured";
		}
		StringBuilder text = new StringBuilder();
		if (tokens.median() != null) {
			text.append(Numbers.format(tokens.median()));
		}
		if (tokens.min() != null && tokens.max() != null) {
			text.append(text.isEmpty() ? "" : " ")
				.append('(')
				.append(Numbers.format(tokens.min()))
				.append('–')
				.append(Numbers.format(tokens.max()))
				.append(')');
		}
		if (text.isEmpty() && tokens.mean() != null) {
			text.append("mean ").append(Numbers.format(tokens.mean()));
		}
		return text.toString();
	}

	/**
	 * prompt_tokens and concurrency first (the usual grid), then the other params by
	 * name.
	 */
	static List<String> paramNames(List<Cell> cells) {
		Set<String> names = new TreeSet<>();
		cells.forEach(cell -> names.addAll(cell.params().values().keySet()));
		List<String> ordered = new ArrayList<>();
		for (String usual : List.of("prompt_tokens", "concurrency", "request_rate", "output_tokens")) {
			if (names.remove(usual)) {
				ordered.add(usual);
			}
		}
		ordered.addAll(names);
		return ordered;
	}

	private static String sortKey(Params params, List<String> names) {
		StringBuilder key = new StringBuilder();
		for (String name : names) {
			Object value = params.values().get(name);
			if (value instanceof BigDecimal number) {
				key.append(String.format("%030.6f", number.doubleValue()));
			}
			else {
				key.append(value == null ? "" : value.toString());
			}
			key.append('|');
		}
		return key.toString();
	}

	/**
	 * Chart data: for each metric, its value (median) against the first numeric grid
	 * coordinate that varies (prompt length in the usual grid), one series per value of
	 * every other coordinate, greyed values marked so that they are drawn apart and left
	 * out of the lines; and, where the cells hold per-request samples, each metric's
	 * distribution per cell (sorted values, for a CDF).
	 */
	static RunCharts chartData(Run run, List<MetricDefinition> metrics, List<Row> rows) {
		List<String> names = paramNames(run.cells());
		String x = names.stream()
			.filter(name -> run.cells().stream().allMatch(cell -> cell.params().number(name).isPresent()))
			.filter(name -> run.cells()
				.stream()
				.map(cell -> cell.params().number(name).orElseThrow().doubleValue())
				.distinct()
				.count() > 1)
			.findFirst()
			.or(() -> names.stream()
				.filter(name -> run.cells().stream().allMatch(cell -> cell.params().number(name).isPresent()))
				.findFirst())
			.orElse(null);
		Map<String, Map<String, Boolean>> greyed = new LinkedHashMap<>();
		Map<String, Map<String, List<String>>> reasons = new LinkedHashMap<>();
		for (Row row : rows) {
			Map<String, Boolean> byMetric = new LinkedHashMap<>();
			Map<String, List<String>> why = new LinkedHashMap<>();
			row.values().forEach(value -> {
				byMetric.put(value.metric(), value.greyed());
				why.put(value.metric(),
						value.greyedBy()
							.stream()
							.map(f -> f.shortForm() != null ? f.shortForm() : f.rule())
							.distinct()
							.toList());
			});
			greyed.put(row.anchor(), byMetric);
			reasons.put(row.anchor(), why);
		}
		List<RunCharts.Chart> charts = new ArrayList<>();
		if (x == null) {
			return new RunCharts(x, distributions(run, rows), charts);
		}
		for (MetricDefinition metric : metrics) {
			Map<String, List<ComparisonCharts.Point>> series = new TreeMap<>(
					Comparator.comparing(RunPage::seriesOrder));
			for (Cell cell : run.cells()) {
				var median = cell.metric(metric.name()).flatMap(v -> {
					var m = v.median();
					return m.isPresent() ? Optional.of(m.getAsDouble()) : Optional.empty();
				});
				String label = cell.params().without(x).label();
				boolean isGreyed = greyed.getOrDefault(cell.anchor(), Map.of()).getOrDefault(metric.name(), false);
				ComparisonCharts.Point point = new ComparisonCharts.Point(
						cell.params().number(x).orElseThrow().doubleValue(), median.orElse(null), isGreyed,
						isGreyed ? reasons.getOrDefault(cell.anchor(), Map.of()).getOrDefault(metric.name(), List.of())
								: null);
				series.computeIfAbsent(label.isEmpty() ? metric.name() : label, k -> new ArrayList<>()).add(point);
			}
			List<RunCharts.Series> lines = new ArrayList<>();
			series.forEach((label, points) -> {
				points.sort(Comparator.comparingDouble(ComparisonCharts.Point::x));
				if (points.stream().anyMatch(p -> p.y() != null)) {
					lines.add(new RunCharts.Series(label, points));
				}
			});
			if (!lines.isEmpty()) {
				charts.add(new RunCharts.Chart(metric.name(), metric.unit(), lines));
			}
		}
		return new RunCharts(x, distributions(run, rows), charts);
	}

	/**
	 * At most this many values per cell in a distribution: evenly spaced order statistics
	 * beyond it.
	 */
	private static final int DISTRIBUTION_POINTS = 200;

	/**
	 * Per metric found in successful samples: one sorted list of values per cell, in the
	 * grid's order.
	 */
	private static List<RunCharts.Distribution> distributions(Run run, List<Row> rows) {
		Map<String, List<RunCharts.CellValues>> byMetric = new LinkedHashMap<>();
		for (Row row : rows) {
			Map<String, List<Double>> values = new LinkedHashMap<>();
			for (var sample : row.cell().samples()) {
				if (sample.ok()) {
					sample.metrics()
						.forEach((metric, value) -> values.computeIfAbsent(metric, m -> new ArrayList<>()).add(value));
					if (sample.outputTokens() != null) {
						values.computeIfAbsent("output_tokens", m -> new ArrayList<>()).add(sample.outputTokens());
					}
				}
			}
			values.forEach((metric, list) -> {
				if (list.size() < 2) {
					return;
				}
				List<Double> sorted = list.stream().sorted().toList();
				List<Double> kept = new ArrayList<>();
				int n = Math.min(sorted.size(), DISTRIBUTION_POINTS);
				for (int i = 0; i < n; i++) {
					kept.add(sorted.get((int) Math.round(i * (sorted.size() - 1) / (double) Math.max(1, n - 1))));
				}
				String label = row.cell().params().label();
				byMetric.computeIfAbsent(metric, m -> new ArrayList<>())
					.add(new RunCharts.CellValues(label.isEmpty() ? row.anchor() : label, kept, sorted.size()));
			});
		}
		List<RunCharts.Distribution> result = new ArrayList<>();
		byMetric.forEach((metric, cells) -> {
			String unit = "output_tokens".equals(metric) ? "tokens" : run.provenance().catalogue().get(metric).unit();
			result.add(new RunCharts.Distribution(metric, unit, cells));
		});
		return result;
	}

	/**
	 * Series sort numerically on their first number ("concurrency=2" before
	 * "concurrency=10").
	 */
	private static String seriesOrder(String label) {
		Matcher number = Pattern.compile("-?[0-9]+(\\.[0-9]+)?").matcher(label);
		if (number.find()) {
			return String.format("%s%030.6f", label.substring(0, number.start()), Double.parseDouble(number.group()));
		}
		return label;
	}

	public Provenance provenance() {
		return run.provenance();
	}

	/**
	 * The source URL as a link target, only when it is an http(s) address; anything else
	 * is shown as text.
	 */
	public @Nullable String sourceLink() {
		Provenance.Source source = run.provenance().source();
		if (source == null || source.url() == null) {
			return null;
		}
		String url = source.url().strip();
		return url.regionMatches(true, 0, "https://", 0, 8) || url.regionMatches(true, 0, "http://", 0, 7) ? url : null;
	}

}
