package dev.parity.backup;

import java.util.List;

import dev.parity.run.Cell;
import dev.parity.run.BootstrapJobs;
import dev.parity.run.CellStatistics;
import dev.parity.run.RunId;
import dev.parity.run.RunRepository;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The restore step of a run: its rows from a backup inserted exactly as they were stored.
 * The ingest side writes runs through {@code RunWriter}; this is the only other way in,
 * and only into an empty instance ({@link Restores}).
 */
@Repository
class RunRestore {

	private final JdbcClient jdbc;

	private final JsonMapper json;

	private final RunRepository runs;

	private final CellStatistics statistics;

	private final BootstrapJobs bootstraps;

	RunRestore(JdbcClient jdbc, JsonMapper json, RunRepository runs, CellStatistics statistics,
			BootstrapJobs bootstraps) {
		this.jdbc = jdbc;
		this.json = json;
		this.runs = runs;
		this.statistics = statistics;
		this.bootstraps = bootstraps;
	}

	/**
	 * A run as a backup holds it: the rows of the run, of its files (without their
	 * content) and of its cells, as PostgreSQL wrote them ({@code to_jsonb} of each row),
	 * and the files' content.
	 *
	 * @param run the run's row, must not be {@literal null}
	 * @param files the rows of its files, in position order, must not be {@literal null}
	 * @param contents the content of each file, in the same order, must not be
	 * {@literal null}
	 * @param cells the rows of its cells, as one JSON array, must not be {@literal null}
	 */
	record RestoredRun(JsonNode run, List<JsonNode> files, List<byte[]> contents, JsonNode cells) {

		RestoredRun {
			if (files.size() != contents.size()) {
				throw new IllegalArgumentException(files.size() + " file rows but " + contents.size() + " contents");
			}
		}

	}

	/**
	 * Inserts a run from a backup exactly as it was stored: the same id, upload time and
	 * uploader, the same rows (ids included). Only for restoring into an empty instance,
	 * in the caller's transaction; it never changes a stored run (the tables refuse that
	 * anyway), and a run whose id or upload exists already is refused by their keys.
	 */
	@Transactional(propagation = Propagation.MANDATORY)
	RunId restore(RestoredRun run) {
		RunId id = new RunId(run.run().path("id").asString());
		jdbc.sql("insert into run select * from jsonb_populate_record(null::run, ?::jsonb)")
			.param(json.writeValueAsString(run.run()))
			.update();
		for (int i = 0; i < run.files().size(); i++) {
			jdbc.sql("""
					insert into run_file (id, run_id, position, file_name, media_type, sha256, size_bytes, content)
					select id, run_id, position, file_name, media_type, sha256, size_bytes, ?
					from jsonb_populate_record(null::run_file, ?::jsonb)""")
				.params(run.contents().get(i), json.writeValueAsString(run.files().get(i)))
				.update();
		}
		jdbc.sql("insert into cell select * from jsonb_populate_recordset(null::cell, ?::jsonb)")
			.param(json.writeValueAsString(run.cells()))
			.update();
		// The rows kept their ids: later inserts must not take them again.
		jdbc.sql("select setval(pg_get_serial_sequence('run_file', 'id'), (select max(id) from run_file))")
			.query()
			.singleRow();
		jdbc.sql("select setval(pg_get_serial_sequence('cell', 'id'), greatest((select max(id) from cell), 1))")
			.query()
			.singleRow();
		// What ingest derives from the samples, derived again from the samples restored
		// (a backup does not hold it):
		// comparisons of restored runs read these, as they do of uploaded ones. The
		// bootstrap medians, as after an
		// upload, are computed after the commit (BootstrapJobs); comparisons compute the
		// same ones until then.
		List<Cell> cells = runs.find(id).orElseThrow().cells();
		statistics.store(id, cells);
		bootstraps.enqueue(id);
		return id;
	}

}
