package dev.parity.site;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.parity.run.RerunCommands;
import dev.parity.compare.ControlChange;
import dev.parity.compare.ControlOutcome;
import dev.parity.compare.Headline;
import dev.parity.compare.ProvenanceFields;
import dev.parity.control.ControlPlans;
import dev.parity.run.Run;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * The "What would settle it" section of a comparison page (live or published) and each
 * control's line beside the claim: "Tested by control run ‹title›: decode_tps median
 * ratio 1.52 over 9 cells (confounded) → 9 of 9 comparable within ±10 %, median 1.011",
 * with what it missed.
 *
 * @param settled whether no rerun would make more of it comparable
 * @param rerunSide the side to rerun; {@code null} when both runs are references
 * @param rerunRun the run to rerun
 * @param changes the planned changes, one line each
 * @param cannotSettle what no rerun removes, one line each
 * @param cells how many cells the control would make comparable
 * @param serve the serve command with the changes applied; {@code null} when there is
 * none
 * @param bench the harness command with the changes applied; {@code null} without a rerun
 * @param planUrl the plan in JSON
 * @param controls the declared controls
 * @param planJson the plan's changes as a hypothesis's deciding plan takes them:
 * {@code {"changes": [...]}}
 */
record ControlSection(boolean settled, @Nullable String rerunSide, @Nullable String rerunRun, List<Change> changes,
		List<String> cannotSettle, int cells, @Nullable String serve, @Nullable String bench, String planUrl,
		List<Control> controls, String planJson) {

	/** One planned change, for people. */
	record Change(String rule, String field, String from, String to, String how, @Nullable String check) {
	}

	/**
	 * A declared control beside the claim.
	 *
	 * @param run its id
	 * @param title its title
	 * @param comparisonPath {@code baseline...control}
	 * @param lines one line per metric the control tested, the one most distorted first
	 * @param missed what it missed, one line each
	 * @param contradicts whether it contradicts the claim
	 * @param supersedeReason the reason a supersession would give
	 */
	record Control(String run, String title, String comparisonPath, List<String> lines, List<String> missed,
			boolean contradicts, String supersedeReason) {

		public String url() {
			return "/runs/" + run;
		}

		public String comparisonUrl() {
			return "/compare/" + comparisonPath;
		}

		/**
		 * What the exports carry, one sentence per metric the control tested (the most
		 * distorted first): "Tested by control run “title” (id): decode_tps median ratio
		 * … (confounded) → … comparable within ±10 %, median …".
		 */
		public List<String> sentences() {
			return lines.stream().map(line -> "Tested by control run “" + title + "” (" + run + "): " + line).toList();
		}

		/**
		 * What it missed, in one sentence; {@code null} when it made every planned
		 * change.
		 */
		public @Nullable String missedSentence() {
			return missed.isEmpty() ? null
					: "Control run “" + title + "” (" + run + ") missed: " + String.join("; ", missed);
		}

	}

	/** Whether a control contradicts the claim. */
	public boolean contradicted() {
		return controls.stream().anyMatch(Control::contradicts);
	}

	static ControlSection of(ControlPlans.Planned planned, String pair, String query, JsonMapper json) {
		var plan = planned.plan();
		Run rerun = planned.rerun();
		String serve = null;
		String bench = null;
		if (rerun != null && !plan.settled()) {
			RerunCommands commands = RerunCommands.of(ProvenanceFields.applied(rerun.provenance(), plan.changes()),
					rerun.cells());
			serve = commands.serve();
			bench = commands.bench();
		}
		List<Change> changes = plan.changes().stream().map(ControlSection::change).toList();
		List<String> cannot = plan.cannotSettle().stream().map(reason -> reason.rule() + ": " + reason.why()).toList();
		double band = planned.comparison().settings().band();
		List<Control> controls = new ArrayList<>();
		for (ControlPlans.Checked checked : planned.controls()) {
			List<String> lines = new ArrayList<>();
			List<ControlOutcome.Before> before = new ArrayList<>(checked.outcome().before());
			// The metric the confound moved most first (decode, in the seed story).
			before.sort(Comparator.comparingDouble(claim -> -Math.abs(Math.log(claim.medianRatio()))));
			for (ControlOutcome.Before claim : before) {
				Headline now = checked.comparison().headline(claim.metric()).orElse(null);
				lines.add(line(claim, now, band));
			}
			if (lines.isEmpty()) {
				lines.add("no greyed number of this comparison is comparable in the control's");
			}
			List<String> missed = checked.outcome()
				.missed()
				.stream()
				.map(miss -> miss.field() + ": expected " + text(miss.expected()) + ", measured "
						+ text(miss.measured()))
				.toList();
			String reason = "Control run “" + checked.run().title() + "” (" + checked.path() + "): "
					+ (lines.isEmpty() ? "" : lines.get(0));
			controls.add(new Control(checked.run().id().value(), checked.run().title(), checked.path(), lines, missed,
					checked.contradicts(), reason));
		}
		return new ControlSection(plan.settled(), plan.rerun() == null ? null : plan.rerun().side(),
				plan.rerun() == null ? null : plan.rerun().run(), changes, cannot, plan.cells().size(), serve, bench,
				"/api/compare/" + pair + "/control" + query, controls,
				json.writeValueAsString(Map.of("changes", plan.changes())));
	}

	/**
	 * {@code decode_tps median ratio 1.52 over 9 cells (confounded) → 9 of 9 comparable within ±10 %, median 1.011}.
	 */
	static String line(ControlOutcome.Before claim, @Nullable Headline now, double band) {
		String then = claim.metric() + " median ratio " + ratio(claim.medianRatio()) + " over " + claim.cells()
				+ (claim.cells() == 1 ? " cell" : " cells") + " (confounded) → ";
		if (now == null || now.comparable() == 0 || now.medianRatio() == null) {
			return then + "no comparable cells";
		}
		return then + now.withinBand() + " of " + now.comparable() + " comparable within ±" + Math.round(band * 100)
				+ " %, median " + ratio(now.medianRatio());
	}

	private static Change change(ControlChange change) {
		String check = change.check() == null ? null : "check before measuring: " + change.check().measure() + " "
				+ number(change.check().target()) + " ±" + Math.round(change.check().tolerance() * 100) + " %";
		return new Change(change.rule(), change.field(), text(change.from()), text(change.to()), change.how(), check);
	}

	private static String text(@Nullable Object value) {
		if (value == null) {
			return "(unset)";
		}
		if (value instanceof Double number) {
			return number(number);
		}
		return value.toString();
	}

	private static String number(double value) {
		return value == Math.rint(value) ? String.valueOf((long) value) : String.format(Locale.ROOT, "%.1f", value);
	}

	private static String ratio(double ratio) {
		return String.format(Locale.ROOT, "%.3f", ratio);
	}

}
