package dev.parity.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.parity.run.Run;
import dev.parity.run.RunId;
import dev.parity.run.RunRepository;
import org.apache.commons.statistics.distribution.TDistribution;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * The confirmation plan of an alert: rerun the alert's build and the last good build
 * before it (the last clean run before the alert's run, in its segment) enough times each
 * for the interval of their ratio to be narrower than half the alert's magnitude, with
 * the commands that run them; and the range of engine commits between the two builds, to
 * bisect. The plan is read from the series' analysis and the two runs; it changes
 * nothing.
 */
@Service
public class AlertControls {

	/** The fewest reruns of each build a confirmation compares. */
	public static final int MIN_RERUNS = 3;

	/** The most reruns a plan asks for, however noisy the track. */
	static final int MAX_TIMES = 1000;

	private final Alerts alerts;

	private final SeriesUpdates updates;

	private final RunRepository runs;

	private final JdbcClient jdbc;

	private final ObjectProvider<RerunCommandWriter> commands;

	AlertControls(Alerts alerts, SeriesUpdates updates, RunRepository runs, JdbcClient jdbc,
			ObjectProvider<RerunCommandWriter> commands) {
		this.alerts = alerts;
		this.updates = updates;
		this.runs = runs;
		this.jdbc = jdbc;
		this.commands = commands;
	}

	/**
	 * An alert's confirmation plan ({@code GET /api/alerts/{id}/control}, and in webhook
	 * payloads).
	 *
	 * @param alert the alert's id
	 * @param reruns the alert's build first, then the last good build's (absent when the
	 * segment has no clean run before the alert's)
	 * @param range the engine commits between the two builds
	 * @param sizing how {@code times} was worked out
	 * @param confirmations the runs linked as reruns so far, the first linked first
	 * @param confirmation what the reruns show, once each build has at least 3
	 */
	public record Plan(String alert, List<Rerun> reruns, Range range, Sizing sizing,
			List<Confirmations.Linked> confirmations,
			@JsonInclude(JsonInclude.Include.NON_NULL) Alerts.@Nullable Confirmation confirmation) {

		/** This plan with the alert's new confirmation. */
		Plan confirmed(Alerts.Confirmation now) {
			return new Plan(alert, reruns, range, sizing, confirmations, now);
		}

		/** The alert's build ({@code reruns[0]}). */
		Rerun bad() {
			return reruns.get(0);
		}

		/** The last good build, if there is one. */
		@Nullable Rerun good() {
			return reruns.size() > 1 ? reruns.get(1) : null;
		}

	}

	/**
	 * A build to run again.
	 *
	 * @param build {@code alert} (the alert's build) or {@code good} (the last good
	 * build)
	 * @param engineCommit its engine commit; a rerun of this build records this
	 * {@code engine.commit}
	 * @param run the series' run of that build the rerun repeats
	 * @param times how many reruns
	 * @param commands the commands that run it again
	 */
	public record Rerun(String build, @JsonProperty("engine_commit") @Nullable String engineCommit, String run,
			int times, RerunCommandWriter.@Nullable Commands commands) {
	}

	/** A run of the series and its engine commit. */
	public record Build(String run, @JsonProperty("engine_commit") @Nullable String engineCommit) {
	}

	/**
	 * What to bisect.
	 *
	 * @param good the last good build (null without a clean run before the alert's in its
	 * segment)
	 * @param bad the alert's build
	 * @param runsBetween the series' runs between them, in series order
	 * @param compareUrl {@code <engine.repository>/compare/<good>...<bad>}; null without
	 * a repository or a commit
	 */
	public record Range(@Nullable Build good, Build bad, @JsonProperty("runs_between") List<Build> runsBetween,
			@JsonProperty("compare_url") @Nullable String compareUrl) {
	}

	/**
	 * How {@code times} follows from the noise: the smallest n ≥ 3 with 2 · t(0.975, 2n −
	 * 2) · spread · √(2/n) < magnitude / 2 — the width of the 95 % interval of the ratio
	 * of n reruns against n, on the log scale, narrower than half the alert's magnitude.
	 *
	 * @param anchor the cell of the alert's largest change, which the plan is sized for
	 * @param metric its metric
	 * @param magnitude its relative change
	 * @param spread its track's relative run-to-run spread in its segment
	 * @param intervalWidth the expected width of the interval with {@code times} reruns
	 * each
	 */
	public record Sizing(String anchor, String metric, double magnitude, double spread,
			@JsonProperty("interval_width") double intervalWidth) {
	}

	/**
	 * The plan of an alert, from its series' current analysis.
	 * @throws Alerts.AlertNotFoundException when there is no such alert
	 */
	public Plan plan(String alertId) {
		return plan(alertId, true);
	}

	/**
	 * @param withCommands whether to write the rerun commands (which loads the two runs)
	 */
	Plan plan(String alertId, boolean withCommands) {
		Alerts.Alert alert = alerts.find(alertId).orElseThrow(() -> new Alerts.AlertNotFoundException(alertId));
		SeriesAnalysis analysis = updates.analysis(alert.series()).orElse(SeriesAnalysis.empty());
		return plan(alert, analysis, withCommands);
	}

	/**
	 * The plan of an alert from an analysis of its series.
	 * @param withCommands whether to write the rerun commands (which loads the two runs)
	 */
	Plan plan(Alerts.Alert alert, SeriesAnalysis analysis, boolean withCommands) {
		List<SeriesAnalysis.RunEntry> entries = analysis.runs();
		int at = -1;
		for (int i = 0; i < entries.size(); i++) {
			if (entries.get(i).id().equals(alert.run())) {
				at = i;
			}
		}
		Alerts.Change lead = lead(alert);
		String badCommit = at >= 0 ? entries.get(at).engineCommit() : engineCommit(alert.run());
		int good = at >= 0 ? lastClean(alert, analysis, at) : -1;
		double spread = lead == null ? 0 : spread(lead, alert, analysis, at);
		double magnitude = lead == null ? 0 : Math.abs(lead.magnitude());
		int times = times(spread, magnitude);
		Sizing sizing = new Sizing(lead == null ? "" : lead.anchor(), lead == null ? "" : lead.metric(), magnitude,
				spread, width(spread, times));
		List<Rerun> reruns = new ArrayList<>();
		reruns.add(new Rerun("alert", badCommit, alert.run(), times, withCommands ? commands(alert.run()) : null));
		Build goodBuild = null;
		List<Build> between = new ArrayList<>();
		if (good >= 0) {
			SeriesAnalysis.RunEntry entry = entries.get(good);
			goodBuild = new Build(entry.id(), entry.engineCommit());
			reruns.add(new Rerun("good", entry.engineCommit(), entry.id(), times,
					withCommands ? commands(entry.id()) : null));
			for (int i = good + 1; i < at; i++) {
				between.add(new Build(entries.get(i).id(), entries.get(i).engineCommit()));
			}
		}
		String compareUrl = goodBuild == null ? null
				: compareUrl(repository(alert.run(), goodBuild.run()), goodBuild.engineCommit(), badCommit);
		List<Confirmations.Linked> linked = Confirmations.linked(jdbc, alert.id());
		return new Plan(alert.id(), reruns,
				new Range(goodBuild, new Build(alert.run(), badCommit), between, compareUrl), sizing, linked,
				alert.confirmation());
	}

	/**
	 * The alert's largest change (the first of the largest): what the plan is sized for
	 * and the confirmation reports.
	 */
	static Alerts.@Nullable Change lead(Alerts.Alert alert) {
		Alerts.Change lead = null;
		for (Alerts.Change change : alert.changes()) {
			if (lead == null || Math.abs(change.magnitude()) > Math.abs(lead.magnitude())) {
				lead = change;
			}
		}
		return lead;
	}

	/**
	 * The last run before {@code at} in its segment that is clean in every cell × metric
	 * of the alert: not greyed (retracted, failed, …) and measured there; -1 when there
	 * is none.
	 */
	private static int lastClean(Alerts.Alert alert, SeriesAnalysis analysis, int at) {
		int segment = analysis.runs().get(at).segment();
		List<Map<String, SeriesAnalysis.Point>> tracks = new ArrayList<>();
		for (Alerts.Change change : alert.changes()) {
			tracks.add(points(analysis, change.anchor(), change.metric()));
		}
		for (int i = at - 1; i >= 0 && analysis.runs().get(i).segment() == segment; i--) {
			String run = analysis.runs().get(i).id();
			boolean clean = true;
			for (Map<String, SeriesAnalysis.Point> track : tracks) {
				SeriesAnalysis.Point point = track.get(run);
				if (point == null || point.greyed()) {
					clean = false;
					break;
				}
			}
			if (clean) {
				return i;
			}
		}
		return -1;
	}

	/** One cell × metric's points by run. */
	private static Map<String, SeriesAnalysis.Point> points(SeriesAnalysis analysis, String anchor, String metric) {
		Map<String, SeriesAnalysis.Point> byRun = new HashMap<>();
		for (SeriesAnalysis.CellPoints cell : analysis.cells()) {
			if (cell.anchor().equals(anchor)) {
				for (SeriesAnalysis.Point point : cell.metrics().getOrDefault(metric, List.of())) {
					byRun.put(point.run(), point);
				}
			}
		}
		return byRun;
	}

	/**
	 * The relative run-to-run spread of the lead change's track in its segment: the
	 * change point's own (as the decision measured it), else the same estimator over the
	 * segment's clean points (von Neumann's, from consecutive differences, relative to
	 * the mean before).
	 */
	private static double spread(Alerts.Change lead, Alerts.Alert alert, SeriesAnalysis analysis, int at) {
		for (SeriesAnalysis.ChangePoint cp : analysis.changePoints()) {
			if (cp.anchor().equals(lead.anchor()) && cp.metric().equals(lead.metric())
					&& cp.meanBefore() == lead.meanBefore() && cp.meanAfter() == lead.meanAfter()
					&& cp.spread() != null) {
				return cp.spread();
			}
		}
		if (at < 0 || lead.meanBefore() == 0) {
			return 0;
		}
		int segment = analysis.runs().get(at).segment();
		Map<String, SeriesAnalysis.Point> track = points(analysis, lead.anchor(), lead.metric());
		List<Double> values = new ArrayList<>();
		for (SeriesAnalysis.RunEntry entry : analysis.runs()) {
			SeriesAnalysis.Point point = track.get(entry.id());
			if (entry.segment() == segment && point != null && !point.greyed()) {
				values.add(point.value());
			}
		}
		if (values.size() < 3) {
			return 0;
		}
		double successive = 0;
		for (int i = 1; i < values.size(); i++) {
			double d = values.get(i) - values.get(i - 1);
			successive += d * d;
		}
		return Math.sqrt(successive / (2.0 * (values.size() - 1))) / Math.abs(lead.meanBefore());
	}

	/**
	 * The reruns of each build for the 95 % interval of their ratio to be narrower than
	 * half the magnitude: the smallest n ≥ 3 with 2 · t(0.975, 2n − 2) · spread · √(2/n)
	 * < magnitude / 2 (Welch's interval of the log ratio of two groups of n runs of equal
	 * spread, as the replicate comparison computes it); at most 1,000.
	 */
	static int times(double spread, double magnitude) {
		if (spread <= 0 || magnitude <= 0) {
			return MIN_RERUNS;
		}
		for (int n = MIN_RERUNS; n < MAX_TIMES; n++) {
			if (width(spread, n) < magnitude / 2) {
				return n;
			}
		}
		return MAX_TIMES;
	}

	/**
	 * The expected width of the 95 % interval of the log ratio of n runs against n of
	 * this spread.
	 */
	static double width(double spread, int n) {
		double t = TDistribution.of(2.0 * n - 2).inverseSurvivalProbability(0.025);
		return 2 * t * spread * Math.sqrt(2.0 / n);
	}

	/**
	 * {@code <repository>/compare/<good>...<bad>} (GitHub and GitLab write it so); null
	 * without a repository or either commit.
	 */
	static @Nullable String compareUrl(@Nullable String repository, @Nullable String good, @Nullable String bad) {
		if (repository == null || repository.isBlank() || good == null || bad == null) {
			return null;
		}
		String base = repository.strip();
		while (base.endsWith("/")) {
			base = base.substring(0, base.length() - 1);
		}
		if (base.endsWith(".git")) {
			base = base.substring(0, base.length() - 4);
		}
		return base + "/compare/" + good + "..." + bad;
	}

	/** The engine repository the alert's run records, else the good run's. */
	private @Nullable String repository(String badRun, String goodRun) {
		for (String run : List.of(badRun, goodRun)) {
			String repository = jdbc.sql("select provenance -> 'engine' ->> 'repository' from run where id = ?")
				.param(run)
				.query(String.class)
				.optional()
				.orElse(null);
			if (repository != null && !repository.isBlank()) {
				return repository;
			}
		}
		return null;
	}

	private @Nullable String engineCommit(String run) {
		return jdbc.sql("select engine_commit from run where id = ?")
			.param(run)
			.query(String.class)
			.optional()
			.orElse(null);
	}

	private RerunCommandWriter.@Nullable Commands commands(String runId) {
		RerunCommandWriter writer = commands.getIfAvailable();
		if (writer == null) {
			return null;
		}
		Run run = runs.find(new RunId(runId)).orElse(null);
		return run == null ? null : writer.commands(run);
	}

}
