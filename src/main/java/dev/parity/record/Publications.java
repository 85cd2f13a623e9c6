package dev.parity.record;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import dev.parity.audit.AuditTrail;
import dev.parity.caveat.Caveats.RecordChanged;
import dev.parity.run.RunId;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.util.StringUtils;

/**
 * Publishes comparisons under their own permalinks, and records retractions and
 * supersessions of runs and publications. A published result is stored as computed and
 * never recomputed.
 */
@Service
public class Publications {

	private final JdbcClient jdbc;

	private final JsonMapper json;

	private final ApplicationEventPublisher events;

	private final AuditTrail audit;

	Publications(JdbcClient jdbc, JsonMapper json, ApplicationEventPublisher events, AuditTrail audit) {
		this.audit = audit;
		this.jdbc = jdbc;
		this.json = json;
		this.events = events;
	}

	/**
	 * What a publication stores, as computed, with the facts its guard rails check. The
	 * body is opaque here: whoever froze it writes and reads it.
	 *
	 * @param body the frozen result, stored as it is
	 * @param settings the settings (URL parameters) it was computed with
	 * @param rulesVersion the version of the rules that computed it
	 * @param comparisons how many comparisons it holds: one per contender
	 * @param nonDefaultSettings the settings other than the server's defaults, each as
	 * the refusal names it ({@code output_tolerance 10 (default 0.1)}); empty under the
	 * defaults
	 * @param anyComparable whether any cell of any of its comparisons is comparable
	 * @param metrics the metrics its comparisons compare (a chart may draw one of them)
	 */
	public record Frozen(JsonNode body, JsonNode settings, String rulesVersion, int comparisons,
			List<String> nonDefaultSettings, boolean anyComparable, List<String> metrics) {

		public Frozen {
			nonDefaultSettings = List.copyOf(nonDefaultSettings);
			metrics = List.copyOf(metrics);
		}

	}

	/**
	 * Stores a computed comparison of one baseline with one contender or several (2 to 8)
	 * under a new permalink. A result computed with settings other than the defaults is
	 * published only with a reason, which it shows; a result with no comparable cell (in
	 * any contender's comparison) only with an explicit confirmation, which it says.
	 * @param contenderIds the contenders' runs, in the order published
	 * @param settingsReason why the settings differ from the defaults; required when they
	 * do
	 * @param confirmNoComparable that the author means to publish a comparison with no
	 * comparable cell
	 * @throws RecordRejected saying what is missing or wrong; nothing is stored then
	 */
	@Transactional
	public Publication publish(String baselineId, List<String> contenderIds, Frozen frozen, String title,
			String caption, @Nullable String settingsReason, boolean confirmNoComparable, String user) {
		return publish(baselineId, contenderIds, frozen, title, caption, settingsReason, confirmNoComparable, null,
				user);
	}

	/**
	 * Stores a computed comparison as
	 * {@link #publish(String, List, Frozen, String, String, String, boolean, String)}
	 * does, with the metric whose chart it draws.
	 * @param chartMetric one of the frozen comparisons' metrics; {@code null} for the one
	 * chosen by default (see {@link #chartMetricOf(String)})
	 * @throws RecordRejected saying what is missing or wrong; nothing is stored then
	 */
	@Transactional
	public Publication publish(String baselineId, List<String> contenderIds, Frozen frozen, String title,
			String caption, @Nullable String settingsReason, boolean confirmNoComparable, @Nullable String chartMetric,
			String user) {
		String unknownMetric = chartMetricProblem(frozen, chartMetric);
		if (unknownMetric != null) {
			throw new RecordRejected(unknownMetric);
		}
		if (contenderIds.isEmpty() || contenderIds.size() > 8) {
			throw new RecordRejected("a publication has 1 to 8 contenders, not " + contenderIds.size());
		}
		boolean several = contenderIds.size() > 1;
		if (several && frozen.comparisons() != contenderIds.size()) {
			throw new RecordRejected(
					"the result lists " + frozen.comparisons() + " contenders, not " + contenderIds.size());
		}
		String contenderId = contenderIds.get(0);
		Map<String, String> problems = problems(title, caption, frozen, settingsReason, confirmNoComparable);
		if (!problems.isEmpty()) {
			throw new RecordRejected(String.join("; ", problems.values()));
		}
		String reason = frozen.nonDefaultSettings().isEmpty() ? null : settingsReason.strip();
		boolean noComparable = !frozen.anyComparable();
		String id = RunId.random().value();
		jdbc.sql(
				"""
						insert into publication (id, baseline_id, contender_id, settings, title, caption, result, rules_version, created_by,
							settings_reason, no_comparable_confirmed, contenders, chart_metric)
						values (?, ?, ?, ?::jsonb, ?, ?, ?::jsonb, ?, ?, ?, ?, ?::jsonb, ?)""")
			.params(id, baselineId, contenderId, json.writeValueAsString(frozen.settings()), title.strip(),
					caption == null ? "" : caption.strip(), json.writeValueAsString(frozen.body()),
					frozen.rulesVersion(), user, reason, noComparable,
					several ? json.writeValueAsString(contenderIds) : null,
					StringUtils.hasText(chartMetric) ? chartMetric : null)
			.update();
		audit.done("publish-comparison", id, baselineId + "..." + String.join(",", contenderIds));
		// A publication is part of its runs' record: the pages of those runs' comparisons
		// list it.
		Set<String> runs = new LinkedHashSet<>(contenderIds);
		runs.add(baselineId);
		events.publishEvent(new RecordChanged(runs));
		return find(id).orElseThrow();
	}

	/**
	 * Everything that keeps this comparison from being published, by the form field it
	 * concerns ({@code title}, {@code caption}, {@code reason},
	 * {@code confirm_no_comparable}), all at once; empty when it can be published.
	 */
	public static Map<String, String> problems(String title, @Nullable String caption, Frozen frozen,
			@Nullable String settingsReason, boolean confirmNoComparable) {
		Map<String, String> problems = new LinkedHashMap<>();
		if (!StringUtils.hasText(title)) {
			problems.put("title", "a published comparison needs a title");
		}
		else if (title.strip().length() > 200) {
			problems.put("title", "the title is " + title.strip().length() + " characters; at most 200");
		}
		else if (title.indexOf('\u0000') >= 0) {
			problems.put("title", "the title holds a NUL character, which cannot be stored");
		}
		if (caption != null && caption.indexOf('\u0000') >= 0) {
			problems.put("caption", "the caption holds a NUL character, which cannot be stored");
		}
		if (!frozen.nonDefaultSettings().isEmpty()) {
			if (!StringUtils.hasText(settingsReason)) {
				problems.put("reason",
						"this comparison uses settings other than the defaults ("
								+ String.join(", ", frozen.nonDefaultSettings())
								+ "): publishing it needs a reason (field 'reason'), which the publication shows");
			}
			else if (settingsReason.strip().length() > 10000) {
				problems.put("reason",
						"the reason is " + settingsReason.strip().length() + " characters; at most 10000");
			}
			else if (settingsReason.indexOf('\u0000') >= 0) {
				problems.put("reason", "the reason holds a NUL character, which cannot be stored");
			}
		}
		if (!frozen.anyComparable() && !confirmNoComparable) {
			problems.put("confirm_no_comparable", (frozen.comparisons() > 1
					? "no cell of any contender's comparison with the baseline is comparable"
					: "no cell of this comparison is comparable")
					+ ": publishing it needs an explicit confirmation (field 'confirm_no_comparable'), and the publication says so");
		}
		return problems;
	}

	/**
	 * Why a publication of this result cannot draw this metric's chart: it is not one of
	 * the frozen comparisons' metrics; {@code null} when it can, or when none is chosen.
	 */
	public static @Nullable String chartMetricProblem(Frozen frozen, @Nullable String chartMetric) {
		if (!StringUtils.hasText(chartMetric) || frozen.metrics().contains(chartMetric)) {
			return null;
		}
		return "the chart's metric (field 'chart_metric') must be one of the comparison's metrics ("
				+ String.join(", ", new TreeSet<>(frozen.metrics())) + "), not \"" + chartMetric + "\"";
	}

	/**
	 * The metric whose chart a publication draws, as its publisher chose it; empty when
	 * none was chosen, and the chart draws the one named in the title or the first with a
	 * comparable cell. Not part of what the publication compares with its live
	 * comparison.
	 */
	public Optional<String> chartMetricOf(String id) {
		return jdbc.sql("select chart_metric from publication where id = ?")
			.param(id)
			.query((rs, row) -> Optional.ofNullable(rs.getString(1)))
			.optional()
			.flatMap(metric -> metric);
	}

	public Optional<Publication> find(String id) {
		return jdbc
			.sql("""
					select id, baseline_id, contender_id, settings, title, caption, result, rules_version, created_at, created_by, contenders,
					settings_reason, no_comparable_confirmed
					from publication where id = ?""")
			.param(id)
			.query(this::publication)
			.optional();
	}

	/** The newest publications. */
	public List<Publication> recent(int limit) {
		return jdbc
			.sql("""
					select id, baseline_id, contender_id, settings, title, caption, result, rules_version, created_at, created_by, contenders,
					settings_reason, no_comparable_confirmed
					from publication order by created_at desc, id limit ?""")
			.param(limit)
			.query(this::publication)
			.list();
	}

	/** A page of the publications, newest first. */
	public List<Publication> page(int offset, int limit) {
		return jdbc
			.sql("""
					select id, baseline_id, contender_id, settings, title, caption, result, rules_version, created_at, created_by, contenders,
					settings_reason, no_comparable_confirmed
					from publication order by created_at desc, id limit ? offset ?""")
			.params(limit, offset)
			.query(this::publication)
			.list();
	}

	/** How many publications there are. */
	public long count() {
		return jdbc.sql("select count(*) from publication").query(Long.class).single();
	}

	/**
	 * The publications of a comparison of these two runs (alone or among other
	 * contenders), newest first.
	 */
	public List<Publication> ofPair(String baselineId, String contenderId) {
		return jdbc
			.sql("""
					select id, baseline_id, contender_id, settings, title, caption, result, rules_version, created_at, created_by, contenders,
					settings_reason, no_comparable_confirmed
					from publication where baseline_id = ?
					  and (contender_id = ? or contenders @> jsonb_build_array(?::text))
					order by created_at desc, id""")
			.params(baselineId, contenderId, contenderId)
			.query(this::publication)
			.list();
	}

	/** The runs a publication compares: its baseline and its contender or contenders. */
	private static Set<String> runsOf(Publication publication) {
		Set<String> runs = new LinkedHashSet<>();
		runs.add(publication.baselineId());
		runs.add(publication.contenderId());
		if (publication.contenders() != null) {
			runs.addAll(publication.contenders());
		}
		return runs;
	}

	/**
	 * Retracts a run or a publication, or supersedes it by another of the same kind.
	 * @param replacementId {@code null} to retract, the replacement's id to supersede
	 */
	@Transactional
	public Retraction retract(String subjectKind, String subjectId, String reason, String replacementId, String user) {
		if (!Set.of("run", "publication").contains(subjectKind)) {
			throw new RecordRejected("only a run or a publication can be retracted, not a " + subjectKind);
		}
		if (!exists(subjectKind, subjectId)) {
			throw new RecordRejected("no " + subjectKind + " with id '" + subjectId + "'");
		}
		if (!StringUtils.hasText(reason)) {
			throw new RecordRejected("a retraction says why: the reason must not be empty");
		}
		if (reason.indexOf('\u0000') >= 0) {
			throw new RecordRejected("the reason holds a NUL character, which cannot be stored");
		}
		String replacement = StringUtils.hasText(replacementId) ? replacementId.strip() : null;
		if (replacement != null) {
			if (replacement.equals(subjectId)) {
				throw new RecordRejected("a " + subjectKind + " cannot supersede itself");
			}
			if (!exists(subjectKind, replacement)) {
				throw new RecordRejected("no " + subjectKind + " with id '" + replacement + "' to supersede it");
			}
		}
		jdbc.sql("""
				insert into retraction (subject_kind, subject_id, kind, reason, replacement_id, created_by)
				values (?, ?, ?, ?, ?, ?)""")
			.params(subjectKind, subjectId, replacement == null ? "retracted" : "superseded", reason.strip(),
					replacement, user)
			.update();
		if ("run".equals(subjectKind)) {
			events.publishEvent(new RecordChanged(Set.of(subjectId)));
		}
		else {
			// The pages of its runs' comparisons mark it taken back.
			find(subjectId).ifPresent(publication -> events.publishEvent(new RecordChanged(runsOf(publication))));
		}
		audit.done(replacement == null ? "retract-" + subjectKind : "supersede-" + subjectKind, subjectId,
				replacement == null ? null : "by " + replacement);
		return retractionOf(subjectKind, subjectId).orElseThrow();
	}

	/** The latest retraction or supersession of a run or publication, if any. */
	public Optional<Retraction> retractionOf(String subjectKind, String subjectId) {
		return jdbc.sql("""
				select subject_kind, subject_id, kind, reason, replacement_id, created_at, created_by
				from retraction where subject_kind = ? and subject_id = ? order by id desc limit 1""")
			.params(subjectKind, subjectId)
			.query(Publications::retraction)
			.optional();
	}

	/** What this run or publication superseded (so that the replacement links back). */
	public List<Retraction> superseded(String subjectKind, String replacementId) {
		return jdbc.sql("""
				select subject_kind, subject_id, kind, reason, replacement_id, created_at, created_by
				from retraction where subject_kind = ? and replacement_id = ? order by id""")
			.params(subjectKind, replacementId)
			.query(Publications::retraction)
			.list();
	}

	/**
	 * The latest retraction or supersession of each of these runs or publications that
	 * has one, by id: what lists mark next to each item.
	 */
	public Map<String, Retraction> retractionsAmong(String subjectKind, Collection<String> ids) {
		if (ids.isEmpty()) {
			return Map.of();
		}
		Map<String, Retraction> latest = new HashMap<>();
		jdbc.sql(
				"""
						select distinct on (subject_id) subject_kind, subject_id, kind, reason, replacement_id, created_at, created_by
						from retraction where subject_kind = ? and subject_id = any(?) order by subject_id, id desc""")
			.params(subjectKind, ids.toArray(String[]::new))
			.query(Publications::retraction)
			.list()
			.forEach(r -> latest.put(r.subjectId(), r));
		return Map.copyOf(latest);
	}

	/** Every retracted or superseded run. */
	public Set<String> retractedRuns() {
		return Set.copyOf(jdbc.sql("select distinct subject_id from retraction where subject_kind = 'run'")
			.query(String.class)
			.list());
	}

	/** The ids of the retracted or superseded subjects of one kind among these. */
	public Set<String> retractedAmong(String subjectKind, Collection<String> ids) {
		if (ids.isEmpty()) {
			return Set.of();
		}
		return Set.copyOf(
				jdbc.sql("select distinct subject_id from retraction where subject_kind = ? and subject_id = any(?)")
					.params(subjectKind, ids.toArray(String[]::new))
					.query(String.class)
					.list());
	}

	private boolean exists(String kind, String id) {
		String table = "run".equals(kind) ? "run" : "publication";
		return jdbc.sql("select count(*) from " + table + " where id = ?").param(id).query(Integer.class).single() > 0;
	}

	private Publication publication(ResultSet rs, int row) throws SQLException {
		return new Publication(rs.getString("id"), rs.getString("baseline_id"), rs.getString("contender_id"),
				json.readTree(rs.getString("settings")), rs.getString("title"), rs.getString("caption"),
				json.readTree(rs.getString("result")), rs.getString("rules_version"),
				rs.getTimestamp("created_at").toInstant(), rs.getString("created_by"), rs.getString("settings_reason"),
				rs.getBoolean("no_comparable_confirmed"), rs.getString("contenders") == null ? null
						: json.readTree(rs.getString("contenders")).valueStream().map(JsonNode::asString).toList());
	}

	private static Retraction retraction(ResultSet rs, int row) throws SQLException {
		return new Retraction(rs.getString("subject_kind"), rs.getString("subject_id"), rs.getString("kind"),
				rs.getString("reason"), rs.getString("replacement_id"), rs.getTimestamp("created_at").toInstant(),
				rs.getString("created_by"));
	}

}
