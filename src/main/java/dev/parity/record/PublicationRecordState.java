package dev.parity.record;

import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * What the record now holds about a publication, in one line read by one query:
 * everything a published page shows beside its frozen numbers that can change after
 * publication — its own retraction or supersession, what it supersedes, the retractions
 * of its runs (the baseline and every contender), and the caveats and hypothesis statuses
 * on them and on their comparison. Everything here is append-only, so counts and the
 * newest ids say whether anything was added.
 */
@Component
public class PublicationRecordState {

	private final JdbcClient jdbc;

	PublicationRecordState(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * The state of the record of this publication, or empty when there is no such
	 * publication.
	 */
	public Optional<String> of(String publicationId) {
		return jdbc
			.sql("""
					with q as (select p.id, p.rules_version, p.baseline_id,
					                  -- every contender's run: with several contenders, all of them
					                  case when p.contenders is null then array[p.contender_id]::text[]
					                       else array(select jsonb_array_elements_text(p.contenders)) end as contenders
					           from publication p where p.id = ?),
					     p as (select q.*, array[q.baseline_id]::text[] || q.contenders as runs from q)
					select p.id || '|' || p.rules_version
					  || '|r' || (select count(*) || ':' || coalesce(max(r.id), 0) from retraction r
					              where (r.subject_kind = 'publication' and (r.subject_id = p.id or r.replacement_id = p.id))
					                 or (r.subject_kind = 'run' and r.subject_id = any(p.runs)))
					  || '|c' || (select count(*) from caveat c
					              where c.run_id = any(p.runs)
					                 or (c.baseline_id = p.baseline_id and c.contender_id = any(p.contenders)))
					  || '|h' || (select count(*) || ':' || coalesce(max(h.id), 0) from hypothesis_status h
					              join caveat c on c.id = h.caveat_id
					              where c.run_id = any(p.runs)
					                 or (c.baseline_id = p.baseline_id and c.contender_id = any(p.contenders)))
					  || '|k' || (select count(*) from control_link k
					              where k.baseline_id = p.baseline_id and k.contender_id = any(p.contenders))
					from p""")
			.param(publicationId)
			.query(String.class)
			.optional();
	}

}
