package dev.parity.run;

import java.time.Instant;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Finds a run's replicates: the other runs whose whole provenance is identical (see
 * {@code compare.Replicates}), compared in the database on the stored provenance without
 * what describes a run rather than what it ran (the engine's printed warnings, disclosed
 * caveats, the CI context).
 */
@Repository
public class RunReplicates {

	/** At most this many are listed. */
	static final int LIMIT = 100;

	private final JdbcClient jdbc;

	RunReplicates(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/** A replicate as a run page lists it. */
	public record Replicate(String id, String title, Instant uploadedAt) {

		public String url() {
			return "/runs/" + id;
		}
	}

	/** The run's replicates, oldest first, without the run itself. */
	public List<Replicate> of(RunId run) {
		return jdbc.sql("""
				select other.id, other.title, other.uploaded_at
				from run me join run other
				  on other.system_name = me.system_name and other.model_repo = me.model_repo
				 and other.engine_name = me.engine_name and other.harness_name = me.harness_name
				 and other.role = me.role and other.id <> me.id
				where me.id = ?
				  and (other.provenance #- '{engine,warnings}') - 'caveats' - 'context'
				    = (me.provenance #- '{engine,warnings}') - 'caveats' - 'context'
				order by other.uploaded_at, other.id
				limit ?""")
			.params(run.value(), LIMIT)
			.query((rs, row) -> new Replicate(rs.getString("id"), rs.getString("title"),
					rs.getTimestamp("uploaded_at").toInstant()))
			.list();
	}

}
