package dev.parity.history;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * Alerts, change points, events and verdicts as the pages say them: the series by name,
 * the run by its title and engine build, each cell × metric in words with its signed
 * change, the statuses a person may set next.
 */
@Service
public class HistoryInWords {

	private static final Pattern ENGINE_VERSION = Pattern.compile("^engine\\.version (.+) → (.+)$");

	private final JdbcClient jdbc;

	private final HistorySettings settings;

	private final Verdicts verdicts;

	HistoryInWords(JdbcClient jdbc, HistorySettings settings, Verdicts verdicts) {
		this.jdbc = jdbc;
		this.settings = settings;
		this.verdicts = verdicts;
	}

	/** A run as people know it: its title and the engine build it measured. */
	public record RunLabel(String id, String title, String engine, @Nullable String engineVersion,
			@Nullable String engineCommit, @Nullable String branch, Instant at) {

		/** The first 7 characters of the engine commit, or null. */
		public @Nullable String shortCommit() {
			return engineCommit == null ? null : engineCommit.substring(0, Math.min(7, engineCommit.length()));
		}

		/**
		 * "vllm 0.11.30 · abc1234": the engine, its version and commit, as far as known.
		 */
		public String build() {
			StringBuilder build = new StringBuilder(engine);
			if (engineVersion != null) {
				build.append(' ').append(engineVersion);
			}
			if (engineCommit != null) {
				build.append(" · ").append(shortCommit());
			}
			return build.toString();
		}

	}

	/**
	 * One cell × metric's change in words.
	 *
	 * @param change the metric's short name and its signed change, "decode −8.7 %"
	 * @param signed the signed change alone, "−8.7 %"
	 * @param percent the relative change in percent, −8.7
	 */
	public record ChangeInWords(String cell, String anchor, String metric, String change, String signed, double percent,
			String direction, String before, String after, @Nullable String pvalue) {
	}

	/**
	 * An alert in words.
	 *
	 * @param headline its changes by metric: "decode −20.3 to −19.8 % in 4 cells · TTFT
	 * +20.1 % at c=1 × 1,024 tokens"
	 * @param opened when it was raised; {@code since} when its status was last set
	 * @param actions the statuses a person may set next, with the words of their buttons
	 */
	public record AlertInWords(Alerts.Alert alert, String series, RunLabel run, String headline,
			List<ChangeInWords> changes, Instant opened, Instant since, Map<String, String> actions) {
	}

	/** A change point in words. */
	public record ChangePointInWords(SeriesAnalysis.ChangePoint point, RunLabel run, ChangeInWords change) {
	}

	/**
	 * A line of the events: one event of one run, or the events that only repeat what the
	 * series varies folded into one ({@code runs} then holds every run they happened at).
	 */
	public record EventLine(String rule, String text, List<RunLabel> runs, boolean folded) {
	}

	/**
	 * A verdict in words.
	 *
	 * @param word the verdict's own word: pass, regression, inconclusive, not comparable,
	 * no baseline
	 * @param words what it rests on: "decode −8.7 % at c=1 × 512 tokens", "no comparable
	 * cell worse by 5 % or more"
	 * @param comparisonUrl the comparison it comes from; null without a baseline
	 * @param series the series it compares the run with (the default branch's), and its
	 * name
	 */
	public record VerdictInWords(RunLabel run, @Nullable RunLabel baseline, String status, String word, String words,
			@Nullable String comparisonUrl, String series, String seriesName) {
	}

	/** The words of the buttons that set each status. */
	static final Map<String, String> ACTIONS = actions();

	private static Map<String, String> actions() {
		Map<String, String> actions = new LinkedHashMap<>();
		actions.put("acknowledged", "Acknowledge");
		actions.put("explained", "Explained");
		actions.put("false-positive", "False positive");
		actions.put("open", "Reopen");
		actions.put("withdrawn", "Withdraw");
		return actions;
	}

	/**
	 * The series' names, "system / model / engine" (and branch when not the default one),
	 * by id.
	 */
	public Map<String, String> seriesNames(Collection<String> seriesIds) {
		Map<String, String> names = new HashMap<>();
		if (seriesIds.isEmpty()) {
			return names;
		}
		jdbc.sql("select id, system_name, model_repo, engine_name, harness_name, branch from series where id = any(?)")
			.param(Set.copyOf(seriesIds).toArray(String[]::new))
			.query((rs, row) -> names.put(rs.getString(1),
					HistoryWords.series(new SeriesKey(rs.getString(2), rs.getString(3), rs.getString(4),
							rs.getString(5), rs.getString(6), ""), settings.defaultBranch())))
			.list();
		return names;
	}

	/** The runs' labels by id (runs that do not exist are left out). */
	public Map<String, RunLabel> runs(Collection<String> runIds) {
		Map<String, RunLabel> labels = new HashMap<>();
		if (runIds.isEmpty()) {
			return labels;
		}
		jdbc.sql("""
				select id, title, engine_name, engine_version, engine_commit, branch, coalesce(recorded_at, uploaded_at)
				from run where id = any(?)""")
			.param(Set.copyOf(runIds).toArray(String[]::new))
			.query((rs, row) -> labels.put(rs.getString(1),
					new RunLabel(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
							rs.getString(6), rs.getTimestamp(7).toInstant())))
			.list();
		return labels;
	}

	/** Alerts in words, in the order given. */
	public List<AlertInWords> alerts(List<Alerts.Alert> alerts) {
		Map<String, String> names = seriesNames(alerts.stream().map(Alerts.Alert::series).toList());
		Map<String, RunLabel> labels = runs(alerts.stream().map(Alerts.Alert::run).toList());
		List<AlertInWords> said = new ArrayList<>();
		for (Alerts.Alert alert : alerts) {
			List<ChangeInWords> changes = alert.changes()
				.stream()
				.map(c -> change(c.params(), c.anchor(), c.metric(), c.meanBefore(), c.meanAfter(), c.pvalue()))
				.toList();
			Instant opened = alert.history().isEmpty() ? Instant.EPOCH : alert.history().get(0).at();
			Instant since = alert.history().isEmpty() ? opened : alert.history().get(alert.history().size() - 1).at();
			Map<String, String> actions = new LinkedHashMap<>();
			ACTIONS.forEach((status, words) -> {
				// "withdrawn" is what Parity sets when a change point goes away; a person
				// sets the others.
				if (!status.equals(alert.status()) && !status.equals("withdrawn")) {
					actions.put(status, words);
				}
			});
			said.add(new AlertInWords(alert, names.getOrDefault(alert.series(), "series " + alert.series()),
					labels.getOrDefault(alert.run(), unknown(alert.run())), headline(changes), changes, opened, since,
					actions));
		}
		return said;
	}

	/** A run's verdict in words. */
	public VerdictInWords verdict(String runId, Verdicts.Verdict verdict) {
		Map<String, RunLabel> labels = runs(
				verdict.baseline() == null ? List.of(runId) : List.of(runId, verdict.baseline()));
		String series = verdicts.baseSeries(runId);
		String word = verdict.status().replace('-', ' ');
		int magnitude = (int) Math.round(verdict.alertMagnitude() * 100);
		String words = switch (verdict.status()) {
			case "no-baseline" -> "no earlier run of its series on the default branch to compare with";
			case "pass" -> "no comparable cell worse by " + magnitude + " % or more";
			case "not-comparable" -> "not like for like: "
					+ String.join("; ", verdict.reasons().stream().map(Verdicts.Reason::message).toList());
			default -> regressionsHeadline(verdict.regressions())
					+ (verdict.status().equals("inconclusive") ? ", within the noise" : "");
		};
		return new VerdictInWords(labels.getOrDefault(runId, unknown(runId)),
				verdict.baseline() == null ? null
						: labels.getOrDefault(verdict.baseline(), unknown(verdict.baseline())),
				verdict.status(), word, words,
				verdict.baseline() == null ? null : "/compare/" + verdict.baseline() + "..." + runId + "?vary=engine",
				series, seriesNames(List.of(series)).getOrDefault(series, "series " + series));
	}

	/**
	 * The verdicts of the latest runs uploaded into a series (newest first, at most
	 * {@code limit}), those with a baseline only.
	 */
	public List<VerdictInWords> latestVerdicts(int limit) {
		List<String> latest = jdbc.sql("""
				select r.id from series_run s join run r on r.id = s.run_id
				order by r.uploaded_at desc, r.id limit ?""").param(limit * 2).query(String.class).list();
		List<VerdictInWords> said = new ArrayList<>();
		for (String runId : latest) {
			if (said.size() == limit) {
				break;
			}
			Verdicts.Verdict verdict = verdicts.verdict(runId, null);
			if (verdict.baseline() != null) {
				said.add(verdict(runId, verdict));
			}
		}
		return said;
	}

	/** Change points in words, in the order given. */
	public List<ChangePointInWords> changePoints(List<SeriesAnalysis.ChangePoint> points) {
		Map<String, RunLabel> labels = runs(points.stream().map(SeriesAnalysis.ChangePoint::run).toList());
		return points.stream()
			.map(cp -> new ChangePointInWords(cp, labels.getOrDefault(cp.run(), unknown(cp.run())),
					change(cp.params(), cp.anchor(), cp.metric(), cp.meanBefore(), cp.meanAfter(), cp.pvalue())))
			.toList();
	}

	/**
	 * The events of a series in words. When the series varies the engine, the engine
	 * version changing from one run to the next is what the series is about, not news:
	 * those changes fold into one line ("engine version changed at 12 runs: 0.6.1 → 0.6.2
	 * → … → 0.7.3"), placed where the first was; the rest of such an event stays a line
	 * of its own.
	 */
	public List<EventLine> events(SeriesAnalysis analysis, SeriesSettings seriesSettings) {
		Map<String, RunLabel> labels = runs(analysis.events().stream().map(SeriesAnalysis.Event::run).toList());
		boolean foldVersions = seriesSettings.vary().equals("engine");
		List<EventLine> lines = new ArrayList<>();
		List<RunLabel> versionRuns = new ArrayList<>();
		List<String> versions = new ArrayList<>();
		int foldAt = -1;
		for (SeriesAnalysis.Event event : analysis.events()) {
			RunLabel run = labels.getOrDefault(event.run(), unknown(event.run()));
			List<String> rest = new ArrayList<>();
			boolean folded = false;
			for (String part : event.message().split("; ")) {
				Matcher version = ENGINE_VERSION.matcher(part);
				if (foldVersions && event.rule().equals("versions-differ") && version.matches()) {
					if (foldAt < 0) {
						foldAt = lines.size();
					}
					if (versions.isEmpty() || !versions.get(versions.size() - 1).equals(version.group(1))) {
						versions.add(version.group(1));
					}
					versions.add(version.group(2));
					versionRuns.add(run);
					folded = true;
				}
				else {
					rest.add(part);
				}
			}
			if (!folded || !rest.isEmpty()) {
				lines.add(new EventLine(event.rule(), String.join("; ", rest), List.of(run), false));
			}
		}
		if (!versionRuns.isEmpty()) {
			lines.add(foldAt,
					new EventLine("versions-differ",
							"engine version changed at " + versionRuns.size()
									+ (versionRuns.size() == 1 ? " run: " : " runs: ") + chain(versions),
							List.copyOf(versionRuns), true));
		}
		return lines;
	}

	/**
	 * "0.6.1 → 0.6.2 → … → 0.7.3": the first two, an ellipsis and the last, once there
	 * are more than four.
	 */
	static String chain(List<String> versions) {
		List<String> distinct = new ArrayList<>(versions);
		if (distinct.size() <= 4) {
			return String.join(" → ", distinct);
		}
		return distinct.get(0) + " → " + distinct.get(1) + " → … → " + distinct.get(distinct.size() - 1);
	}

	/** One cell × metric's change in words. */
	public static ChangeInWords change(Map<String, Object> params, String anchor, String metric, double before,
			double after, @Nullable Double pvalue) {
		return new ChangeInWords(HistoryWords.cell(params, anchor), anchor, metric,
				HistoryWords.change(metric, before, after), HistoryWords.signed(before, after),
				before == 0 ? 0 : (after / before - 1) * 100, HistoryWords.direction(metric, before, after),
				HistoryWords.number(round(before)), HistoryWords.number(round(after)),
				pvalue == null ? null : HistoryWords.pvalue(pvalue));
	}

	/** Four significant digits: what a reader compares. */
	private static double round(double value) {
		if (value == 0 || Double.isNaN(value) || Double.isInfinite(value)) {
			return value;
		}
		return new BigDecimal(value).round(new MathContext(4)).doubleValue();
	}

	/**
	 * The changes by metric, in the order metrics first appear: one change as "decode
	 * −8.7 % at c=1 × 512 tokens", several as "decode −20.3 to −19.8 % in 4 cells"; after
	 * three metrics, "and N more metrics".
	 */
	static String headline(List<ChangeInWords> changes) {
		return headlineOf(changes.stream().map(c -> new Said(c.metric(), c.signed(), c.percent(), () -> c)).toList());
	}

	/**
	 * The headline of a verdict's regressions, as {@link #headline} of their changes in
	 * words says it; the whole change in words is made only where a metric has one (a
	 * 400-cell verdict can list thousands).
	 */
	static String regressionsHeadline(List<Verdicts.Regression> regressions) {
		return headlineOf(regressions.stream()
			.map(r -> new Said(r.metric(), HistoryWords.signed(1, r.ratio()), (r.ratio() / 1 - 1) * 100,
					() -> change(r.params(), r.anchor(), r.metric(), 1, r.ratio(), null)))
			.toList());
	}

	/**
	 * What {@link #headline} reads of a change: its metric, signed change and percent,
	 * and the whole change in words, made only when its metric has no other.
	 */
	private record Said(String metric, String signed, double percent, Supplier<ChangeInWords> whole) {
	}

	private static String headlineOf(List<Said> changes) {
		Map<String, List<Said>> byMetric = new LinkedHashMap<>();
		changes.forEach(c -> byMetric.computeIfAbsent(c.metric(), k -> new ArrayList<>()).add(c));
		List<String> parts = new ArrayList<>();
		for (Map.Entry<String, List<Said>> metric : byMetric.entrySet()) {
			if (parts.size() == 3) {
				int more = byMetric.size() - 3;
				parts.add("and " + more + " more metric" + (more == 1 ? "" : "s"));
				break;
			}
			List<Said> list = metric.getValue();
			if (list.size() == 1) {
				ChangeInWords only = list.get(0).whole().get();
				parts.add(only.change() + " at " + only.cell());
				continue;
			}
			Set<String> distinct = new LinkedHashSet<>();
			list.forEach(c -> distinct.add(c.signed()));
			String name = HistoryWords.metric(metric.getKey());
			if (distinct.size() == 1) {
				parts.add(name + " " + distinct.iterator().next() + " in " + list.size() + " cells");
			}
			else {
				double low = list.stream().mapToDouble(Said::percent).min().orElse(0);
				double high = list.stream().mapToDouble(Said::percent).max().orElse(0);
				parts.add(name + " " + signedPercent(low) + " to " + signedPercent(high) + " % in " + list.size()
						+ " cells");
			}
		}
		return String.join(" · ", parts);
	}

	private static String signedPercent(double percent) {
		String digits = String.format(Locale.ROOT, "%.1f", Math.abs(percent));
		return (percent < 0 ? HistoryWords.MINUS : "+") + digits;
	}

	private static RunLabel unknown(String id) {
		return new RunLabel(id, "run " + id, "", null, null, null, Instant.EPOCH);
	}

}
