package dev.parity.record;

import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * What the record now holds about a publication, in one line read by one query: everything a published page shows
 * beside its frozen numbers that can change after publication — its own retraction or supersession, what it
 * supersedes, the retractions of its two runs, and the caveats and hypothesis statuses on them and on their
 * comparison. Everything here is append-only, so counts and the newest ids say whether anything was added.
 */
@Component
public class PublicationRecordState {

	private final JdbcClient jdbc;

	PublicationRecordState(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/** The state of the record of this publication, or empty when there is no such publication. */
	public Optional<String> of(String publicationId) {
		return jdbc.sql("""
				select p.id || '|' || p.rules_version
				  || '|r' || (select count(*) || ':' || coalesce(max(r.id), 0) from retraction r
				              where (r.subject_kind = 'publication' and (r.subject_id = p.id or r.replacement_id = p.id))
				                 or (r.subject_kind = 'run' and r.subject_id in (p.baseline_id, p.contender_id)))
				  || '|c' || (select count(*) from caveat c
				              where c.run_id in (p.baseline_id, p.contender_id)
				                 or (c.baseline_id = p.baseline_id and c.contender_id = p.contender_id))
				  || '|h' || (select count(*) || ':' || coalesce(max(h.id), 0) from hypothesis_status h
				              join caveat c on c.id = h.caveat_id
				              where c.run_id in (p.baseline_id, p.contender_id)
				                 or (c.baseline_id = p.baseline_id and c.contender_id = p.contender_id))
				from publication p where p.id = ?""").param(publicationId).query(String.class).optional();
	}

}
