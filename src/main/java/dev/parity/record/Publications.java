package dev.parity.record;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import dev.parity.audit.AuditTrail;
import dev.parity.caveat.Caveats.RecordChanged;
import dev.parity.run.RunId;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.util.StringUtils;

/**
 * Publishes comparisons under their own permalinks, and records retractions and supersessions of
 * runs and publications. A published result is stored as computed and never recomputed.
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

	/** Stores a computed comparison under a new permalink. */
	@Transactional
	public Publication publish(String baselineId, String contenderId, JsonNode settings, String title, String caption,
			JsonNode result, String rulesVersion, String user) {
		if (!StringUtils.hasText(title)) {
			throw new RecordRejected("a published comparison needs a title");
		}
		if (title.strip().length() > 200) {
			throw new RecordRejected("the title is " + title.strip().length() + " characters; at most 200");
		}
		if ((title + caption).indexOf('\u0000') >= 0) {
			throw new RecordRejected("the title or caption holds a NUL character, which cannot be stored");
		}
		String id = RunId.random().value();
		jdbc.sql("""
				insert into publication (id, baseline_id, contender_id, settings, title, caption, result, rules_version, created_by)
				values (?, ?, ?, ?::jsonb, ?, ?, ?::jsonb, ?, ?)""")
			.params(id, baselineId, contenderId, json.writeValueAsString(settings), title.strip(),
					caption == null ? "" : caption.strip(), json.writeValueAsString(result), rulesVersion, user)
			.update();
		audit.done("publish-comparison", id, baselineId + "..." + contenderId);
		return find(id).orElseThrow();
	}

	public Optional<Publication> find(String id) {
		return jdbc.sql("""
				select id, baseline_id, contender_id, settings, title, caption, result, rules_version, created_at, created_by
				from publication where id = ?""").param(id).query(this::publication).optional();
	}

	/** The newest publications. */
	public List<Publication> recent(int limit) {
		return jdbc.sql("""
				select id, baseline_id, contender_id, settings, title, caption, result, rules_version, created_at, created_by
				from publication order by created_at desc, id limit ?""").param(limit).query(this::publication).list();
	}

	/** The publications of a comparison of these two runs, newest first. */
	public List<Publication> ofPair(String baselineId, String contenderId) {
		return jdbc.sql("""
				select id, baseline_id, contender_id, settings, title, caption, result, rules_version, created_at, created_by
				from publication where baseline_id = ? and contender_id = ? order by created_at desc, id""")
			.params(baselineId, contenderId).query(this::publication).list();
	}

	/**
	 * Retracts a run or a publication, or supersedes it by another of the same kind.
	 *
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
			.params(subjectKind, subjectId, replacement == null ? "retracted" : "superseded", reason.strip(), replacement, user)
			.update();
		if ("run".equals(subjectKind)) {
			events.publishEvent(new RecordChanged(Set.of(subjectId)));
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
			.params(subjectKind, subjectId).query(Publications::retraction).optional();
	}

	/** What this run or publication superseded (so that the replacement links back). */
	public List<Retraction> superseded(String subjectKind, String replacementId) {
		return jdbc.sql("""
				select subject_kind, subject_id, kind, reason, replacement_id, created_at, created_by
				from retraction where subject_kind = ? and replacement_id = ? order by id""")
			.params(subjectKind, replacementId).query(Publications::retraction).list();
	}

	/** Every retracted or superseded run. */
	public Set<String> retractedRuns() {
		return Set.copyOf(jdbc.sql("select distinct subject_id from retraction where subject_kind = 'run'").query(String.class).list());
	}

	/** The ids of the retracted or superseded subjects of one kind among these. */
	public Set<String> retractedAmong(String subjectKind, java.util.Collection<String> ids) {
		if (ids.isEmpty()) {
			return Set.of();
		}
		return Set.copyOf(jdbc.sql("select distinct subject_id from retraction where subject_kind = ? and subject_id = any(?)")
			.params(subjectKind, ids.toArray(String[]::new)).query(String.class).list());
	}

	private boolean exists(String kind, String id) {
		String table = "run".equals(kind) ? "run" : "publication";
		return jdbc.sql("select count(*) from " + table + " where id = ?").param(id).query(Integer.class).single() > 0;
	}

	private Publication publication(ResultSet rs, int row) throws SQLException {
		return new Publication(rs.getString("id"), rs.getString("baseline_id"), rs.getString("contender_id"),
				json.readTree(rs.getString("settings")), rs.getString("title"), rs.getString("caption"),
				json.readTree(rs.getString("result")), rs.getString("rules_version"), rs.getTimestamp("created_at").toInstant(),
				rs.getString("created_by"));
	}

	private static Retraction retraction(ResultSet rs, int row) throws SQLException {
		return new Retraction(rs.getString("subject_kind"), rs.getString("subject_id"), rs.getString("kind"),
				rs.getString("reason"), rs.getString("replacement_id"), rs.getTimestamp("created_at").toInstant(),
				rs.getString("created_by"));
	}

}
