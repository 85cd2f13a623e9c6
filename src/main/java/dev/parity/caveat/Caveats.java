package dev.parity.caveat;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.parity.audit.AuditTrail;
import dev.parity.compare.ControlChange;
import dev.parity.run.Cell;
import dev.parity.run.Run;
import dev.parity.run.RunId;
import dev.parity.run.RunRepository;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.util.StringUtils;

/**
 * Records caveats and hypothesis status changes (never editing one) and finds those of a
 * run or a comparison.
 */
@Service
public class Caveats {

	/** The statuses a hypothesis can have. */
	public static final List<String> STATUSES = List.of("suspected", "confirmed", "refuted");

	static final int MAX_TEXT = 10_000;

	private final JdbcClient jdbc;

	private final RunRepository runs;

	private final ApplicationEventPublisher events;

	private final AuditTrail audit;

	private final JsonMapper json;

	Caveats(JdbcClient jdbc, RunRepository runs, ApplicationEventPublisher events, AuditTrail audit, JsonMapper json) {
		this.json = json;
		this.audit = audit;
		this.jdbc = jdbc;
		this.runs = runs;
		this.events = events;
	}

	/**
	 * Something changed in the record of these runs: computed views of them are stale.
	 */
	public record RecordChanged(Set<String> runIds) {
	}

	/**
	 * Records a caveat, or a hypothesis (which starts {@code suspected}).
	 * @throws CaveatRejected when the text is empty or too long, or the target does not
	 * exist
	 */
	@Transactional
	public Caveat add(Caveat.Target target, String text, @Nullable String decidingExperiment, String user) {
		return add(target, text, decidingExperiment, List.of(), user);
	}

	/**
	 * Records a caveat, or a hypothesis (which starts {@code suspected}) whose deciding
	 * experiment is text, a structured plan (the changes of a control plan, already
	 * checked by {@link DecidingPlan}), or both.
	 * @throws CaveatRejected when the text is empty or too long, or the target does not
	 * exist
	 */
	@Transactional
	public Caveat add(Caveat.Target target, String text, @Nullable String decidingExperiment,
			List<ControlChange> decidingPlan, String user) {
		String cleanText = required(text, "the caveat's text");
		boolean hypothesis = StringUtils.hasText(decidingExperiment) || !decidingPlan.isEmpty();
		if (StringUtils.hasText(decidingExperiment)) {
			required(decidingExperiment, "the deciding experiment");
		}
		checkTarget(target);
		String experiment = !hypothesis ? null : StringUtils.hasText(decidingExperiment) ? decidingExperiment.strip()
				: DecidingPlan.summary(decidingPlan);
		String plan = decidingPlan.isEmpty() ? null : json.writeValueAsString(Map.of("changes", decidingPlan));
		String id = RunId.random().value();
		jdbc.sql("""
				insert into caveat (id, run_id, baseline_id, contender_id, cell_anchor, metric, text, kind,
				                    deciding_experiment, deciding_plan, created_by)
				values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?)""")
			.params(id, target.runId(), target.baselineId(), target.contenderId(), blankToNull(target.cellAnchor()),
					blankToNull(target.metric()), cleanText, hypothesis ? "hypothesis" : "caveat", experiment, plan,
					user)
			.update();
		if (hypothesis) {
			jdbc.sql(
					"insert into hypothesis_status (caveat_id, status, reason, created_by) values (?, 'suspected', ?, ?)")
				.params(id, "stated", user)
				.update();
		}
		events.publishEvent(new RecordChanged(involvedRuns(target)));
		audit.done(hypothesis ? "add-hypothesis" : "add-caveat", id, target.describe());
		return find(id).orElseThrow();
	}

	/**
	 * Appends a status change to a hypothesis.
	 * @throws CaveatRejected when it is not a hypothesis, the status is unknown, the
	 * reason empty, or the deciding run unknown
	 */
	@Transactional
	public Caveat changeStatus(String caveatId, String status, String reason, @Nullable String decidedBy, String user) {
		Caveat caveat = find(caveatId).orElseThrow(() -> new CaveatNotFoundException(caveatId));
		if (!caveat.hypothesis()) {
			throw new CaveatRejected("caveat " + caveatId + " is not a hypothesis: only hypotheses have a status");
		}
		if (!STATUSES.contains(status)) {
			throw new CaveatRejected("status must be one of " + STATUSES + ", not '" + status + "'");
		}
		String cleanReason = required(reason, "the reason for the change");
		String decidingRun = blankToNull(decidedBy);
		if (decidingRun != null && (!RunId.isValid(decidingRun) || !runs.exists(new RunId(decidingRun)))) {
			throw new CaveatRejected("no run with id '" + decidingRun + "' to have decided it");
		}
		jdbc.sql(
				"insert into hypothesis_status (caveat_id, status, reason, decided_by, created_by) values (?, ?, ?, ?, ?)")
			.params(caveatId, status, cleanReason, decidingRun, user)
			.update();
		events.publishEvent(new RecordChanged(involvedRuns(caveat.target())));
		audit.done("change-hypothesis-status", caveatId,
				status + (decidingRun == null ? "" : ", decided by run " + decidingRun));
		return find(caveatId).orElseThrow();
	}

	/**
	 * Declares a run the experiment of a hypothesis: a status change that names it, the
	 * status staying what it was. Declaring the same run again changes nothing.
	 * @throws CaveatNotFoundException when there is no such caveat
	 * @throws CaveatRejected when it is not a hypothesis or the run is unknown
	 */
	@Transactional
	public Caveat declareExperiment(String caveatId, @Nullable String runId, String user) {
		Caveat caveat = find(caveatId).orElseThrow(() -> new CaveatNotFoundException(caveatId));
		if (!caveat.hypothesis()) {
			throw new CaveatRejected("caveat " + caveatId + " is not a hypothesis: only hypotheses have an experiment");
		}
		String run = blankToNull(runId);
		if (run == null) {
			throw new CaveatRejected("run: name the run made as the experiment", "run");
		}
		if (!RunId.isValid(run) || !runs.exists(new RunId(run))) {
			throw new CaveatRejected("run: no run with id '" + run + "'", "run");
		}
		if (caveat.experiments().contains(run)) {
			return caveat;
		}
		jdbc.sql("""
				insert into hypothesis_status (caveat_id, status, reason, experiment, created_by)
				values (?, ?, ?, ?, ?)""")
			.params(caveatId, caveat.status(), "run " + run + " declared as its experiment", run, user)
			.update();
		events.publishEvent(new RecordChanged(involvedRuns(caveat.target())));
		audit.done("declare-hypothesis-experiment", caveatId, "run " + run);
		return find(caveatId).orElseThrow();
	}

	public Optional<Caveat> find(String id) {
		return load("c.id = ?", id).stream().findFirst();
	}

	/** The caveats on a run and on its cells, oldest first. */
	public List<Caveat> forRun(String runId) {
		return load("c.run_id = ?", runId);
	}

	/**
	 * The caveats on a comparison of these two runs (whole, cells, cell × metric), oldest
	 * first.
	 */
	public List<Caveat> forComparison(String baselineId, String contenderId) {
		return load("c.baseline_id = ? and c.contender_id = ?", baselineId, contenderId);
	}

	private List<Caveat> load(String where, Object... params) {
		Map<String, Caveat> caveats = new LinkedHashMap<>();
		jdbc.sql("""
				select c.id, c.run_id, c.baseline_id, c.contender_id, c.cell_anchor, c.metric, c.text, c.kind,
				       c.deciding_experiment, c.deciding_plan, c.created_at, c.created_by
				from caveat c where %s order by c.created_at, c.id""".formatted(where))
			.params(params)
			.query((ResultSet rs) -> {
				caveats.put(rs.getString("id"), caveat(rs, List.of()));
			});
		if (caveats.isEmpty()) {
			return List.of();
		}
		Map<String, List<Caveat.StatusChange>> history = new LinkedHashMap<>();
		jdbc.sql("""
				select caveat_id, status, reason, decided_by, experiment, created_at, created_by
				from hypothesis_status where caveat_id = any(?) order by id""")
			.param(caveats.keySet().toArray(String[]::new))
			.query((ResultSet rs) -> {
				history.computeIfAbsent(rs.getString("caveat_id"), k -> new ArrayList<>())
					.add(new Caveat.StatusChange(rs.getString("status"), rs.getString("reason"),
							rs.getString("decided_by"), rs.getString("experiment"),
							rs.getTimestamp("created_at").toInstant(), rs.getString("created_by")));
			});
		List<Caveat> result = new ArrayList<>();
		caveats.values()
			.forEach(c -> result.add(new Caveat(c.id(), c.target(), c.text(), c.hypothesis(), c.decidingExperiment(),
					c.decidingPlan(), c.createdAt(), c.createdBy(), history.getOrDefault(c.id(), List.of()))));
		return result;
	}

	private Caveat caveat(ResultSet rs, List<Caveat.StatusChange> history) throws SQLException {
		return new Caveat(rs.getString("id"),
				new Caveat.Target(rs.getString("run_id"), rs.getString("baseline_id"), rs.getString("contender_id"),
						rs.getString("cell_anchor"), rs.getString("metric")),
				rs.getString("text"), "hypothesis".equals(rs.getString("kind")), rs.getString("deciding_experiment"),
				plan(rs.getString("deciding_plan")), rs.getTimestamp("created_at").toInstant(),
				rs.getString("created_by"), history);
	}

	/** A stored plan's changes, read back as they were checked. */
	private List<ControlChange> plan(@Nullable String stored) {
		return stored == null ? List.of() : DecidingPlan.parse(json.readTree(stored), json);
	}

	private void checkTarget(Caveat.Target target) {
		List<String> ids = target.onRun() ? List.of(String.valueOf(target.runId()))
				: List.of(String.valueOf(target.baselineId()), String.valueOf(target.contenderId()));
		if (!target.onRun() && (target.baselineId() == null || target.contenderId() == null)) {
			throw new CaveatRejected("a comparison caveat needs both the baseline and the contender");
		}
		List<RunId> runIds = new ArrayList<>();
		for (String id : ids) {
			if (!RunId.isValid(id)) {
				throw new CaveatRejected("no run with id '" + id + "'");
			}
			runIds.add(new RunId(id));
		}
		Map<RunId, Run> found = runs.findAll(runIds);
		for (RunId id : runIds) {
			if (!found.containsKey(id)) {
				throw new CaveatRejected("no run with id '" + id + "'");
			}
		}
		String anchor = blankToNull(target.cellAnchor());
		if (anchor != null && found.values()
			.stream()
			.flatMap(r -> r.cells().stream())
			.map(Cell::anchor)
			.noneMatch(anchor::equals)) {
			throw new CaveatRejected("no cell '" + anchor + "' in " + target.describe().replace(", " + anchor, ""));
		}
		String metric = blankToNull(target.metric());
		if (metric != null && anchor == null) {
			throw new CaveatRejected("a caveat on a metric names the cell too");
		}
	}

	private static Set<String> involvedRuns(Caveat.Target target) {
		return target.onRun() ? Set.of(String.valueOf(target.runId()))
				: Set.of(String.valueOf(target.baselineId()), String.valueOf(target.contenderId()));
	}

	private static String required(@Nullable String text, String what) {
		if (!StringUtils.hasText(text)) {
			throw new CaveatRejected(what + " must not be empty");
		}
		String clean = text.strip();
		if (clean.indexOf('\u0000') >= 0) {
			throw new CaveatRejected(what + " holds a NUL character, which cannot be stored");
		}
		if (clean.length() > MAX_TEXT) {
			throw new CaveatRejected(what + " is " + clean.length() + " characters; at most " + MAX_TEXT);
		}
		return clean;
	}

	private static @Nullable String blankToNull(@Nullable String text) {
		return StringUtils.hasText(text) ? text.strip() : null;
	}

}
