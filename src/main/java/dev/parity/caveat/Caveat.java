package dev.parity.caveat;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

import dev.parity.compare.ControlChange;
import org.jspecify.annotations.Nullable;

/**
 * A note written by a person, shown next to the number it concerns. A hypothesis is a
 * caveat with a status and the experiment that would settle it. A caveat never un-greys
 * anything: a disclosed confound is still a confound.
 *
 * @param id the caveat's permanent id
 * @param target what it is about
 * @param text what it says
 * @param hypothesis whether it is a hypothesis
 * @param decidingExperiment for a hypothesis, the experiment that would settle it (in
 * words; for one stated as a plan only, the plan in words)
 * @param decidingPlan for a hypothesis whose experiment is a structured plan, its changes
 * (those of a control plan); empty otherwise
 * @param createdAt when it was written
 * @param createdBy who wrote it
 * @param history for a hypothesis, its status changes, oldest first (the first is
 * {@code suspected})
 */
public record Caveat(String id, Target target, String text, boolean hypothesis, @Nullable String decidingExperiment,
		List<ControlChange> decidingPlan, Instant createdAt, String createdBy, List<StatusChange> history) {

	public Caveat {
		decidingPlan = List.copyOf(decidingPlan);
		history = List.copyOf(history);
	}

	/** The runs declared as this hypothesis's experiment, first declared first. */
	public List<String> experiments() {
		return history.stream().map(StatusChange::experiment).filter(Objects::nonNull).distinct().toList();
	}

	/**
	 * The current status of a hypothesis (its latest change); {@code null} for a plain
	 * caveat.
	 */
	public @Nullable String status() {
		return history.isEmpty() ? null : history.get(history.size() - 1).status();
	}

	/**
	 * What a caveat is about: a run (optionally one of its cells), or a comparison
	 * (optionally one cell, optionally one metric of that cell).
	 */
	public record Target(@Nullable String runId, @Nullable String baselineId, @Nullable String contenderId,
			@Nullable String cellAnchor, @Nullable String metric) {

		public static Target run(String runId, @Nullable String cellAnchor) {
			return new Target(runId, null, null, cellAnchor, null);
		}

		public static Target comparison(String baselineId, String contenderId, @Nullable String cellAnchor,
				@Nullable String metric) {
			return new Target(null, baselineId, contenderId, cellAnchor, metric);
		}

		public boolean onRun() {
			return runId != null;
		}

		/** In words: "run k3v9…, cell cell-…", "comparison a...b, cell …, decode_tps". */
		public String describe() {
			StringBuilder text = new StringBuilder(
					onRun() ? "run " + runId : "comparison " + baselineId + "..." + contenderId);
			if (cellAnchor != null) {
				text.append(", ").append(cellAnchor);
			}
			if (metric != null) {
				text.append(", ").append(metric);
			}
			return text.toString();
		}
	}

	/**
	 * One change of a hypothesis's status.
	 *
	 * @param status suspected, confirmed or refuted
	 * @param reason why
	 * @param decidedBy the run that decided it, if one did
	 * @param experiment the run this change declares the hypothesis's experiment (the
	 * status stays what it was)
	 * @param at when
	 * @param by who
	 */
	public record StatusChange(String status, String reason, @Nullable String decidedBy, @Nullable String experiment,
			Instant at, String by) {
	}

}
