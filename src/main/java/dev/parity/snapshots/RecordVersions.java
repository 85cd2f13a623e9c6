package dev.parity.snapshots;

import java.sql.ResultSet;
import java.util.Set;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * How often the record of each run (caveats, hypothesis statuses, retractions) has
 * changed, in the database: moved on in the transaction that records the change, read by
 * every instance. A view that shows the record and is kept has the versions of its runs,
 * read <em>before</em> the record itself, in its key; a view rendered from an older
 * record is then never served after the change has committed, by this instance or any
 * other.
 */
@Component
public class RecordVersions {

	private final JdbcClient jdbc;

	RecordVersions(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * The versions of two runs' records now, in one query: {@code [first, second]}, 0 for
	 * one that never changed.
	 */
	long[] of(String first, String second) {
		long[] versions = new long[2];
		jdbc.sql("select run_id, version from run_record_version where run_id in (?, ?)")
			.params(first, second)
			.query((ResultSet rs) -> {
				long version = rs.getLong("version");
				String runId = rs.getString("run_id");
				if (runId.equals(first)) {
					versions[0] = version;
				}
				if (runId.equals(second)) {
					versions[1] = version;
				}
			});
		return versions;
	}

	/**
	 * Moves the versions of these runs on, in the caller's transaction (the change's
	 * own).
	 */
	void moveOn(Set<String> runIds) {
		for (String runId : runIds) {
			jdbc.sql("""
					insert into run_record_version (run_id, version) values (?, 1)
					on conflict (run_id) do update set version = run_record_version.version + 1""")
				.param(runId)
				.update();
		}
	}

}
