package dev.parity.backup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

import dev.parity.audit.AuditTrail;
import dev.parity.run.RunRepository;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Restores a backup into an empty instance, in one transaction: every run with its id, upload time, uploader, rows
 * and files, then caveats, status changes, publications, retractions and the audit trail. The archive is checked
 * before anything is written; the instance is locked against uploads meanwhile; anything wrong stores nothing.
 */
@Service
public class Restores {

	private final JdbcClient jdbc;

	private final JsonMapper json;

	private final RunRepository runs;

	private final Backups backups;

	private final AuditTrail audit;

	private final TransactionTemplate transaction;

	Restores(JdbcClient jdbc, JsonMapper json, RunRepository runs, Backups backups, AuditTrail audit,
			PlatformTransactionManager transactions) {
		this.jdbc = jdbc;
		this.json = json;
		this.runs = runs;
		this.backups = backups;
		this.audit = audit;
		this.transaction = new TransactionTemplate(transactions);
	}

	/**
	 * Restores the archive at {@code path}.
	 * @return what was restored
	 * @throws BackupRejected when the archive is not a backup, is damaged or inconsistent (nothing is stored)
	 * @throws InstanceNotEmpty when this instance holds any run, caveat, status change, publication or retraction
	 */
	public BackupContents restore(Path path) {
		try (BackupArchive archive = BackupArchive.open(path, json, backups.schemaVersion())) {
			return transaction.execute(status -> restore(archive));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (DataIntegrityViolationException ex) {
			throw new BackupRejected("the archive is inconsistent, nothing was restored: "
					+ ex.getMostSpecificCause().getMessage(), ex);
		}
	}

	private BackupContents restore(BackupArchive archive) {
		// Uploads and records wait until the restore commits; reading goes on. The application's database role may not
		// lock append-only tables itself: a function of the schema's owner does (V13).
		jdbc.sql("select 1 from parity_lock_append_only('run', 'run_file', 'cell', 'caveat', 'hypothesis_status',"
				+ " 'publication', 'retraction')")
			.query(Integer.class)
			.single();
		BackupContents present = backups.contents();
		if (!present.emptyRecord()) {
			throw new InstanceNotEmpty("this instance is not empty (" + present + "): a backup is restored only into an"
					+ " empty instance, never merged into another record. Start a new one on an empty database and"
					+ " restore there.");
		}
		try {
			for (JsonNode entry : archive.runEntries()) {
				runs.restore(archive.run(entry));
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		JsonNode manifest = archive.manifest();
		insertAll("caveat", manifest.path("caveats"));
		insertAll("hypothesis_status", manifest.path("hypothesis_status"));
		insertAll("publication", manifest.path("publications"));
		insertAll("retraction", manifest.path("retractions"));
		// The trail of this instance may have begun already (a refused upload): the archive's entries join it with
		// new ids, in their order, and keep their times.
		jdbc.sql("""
				insert into audit_event (at, username, action, subject, outcome, detail, remote)
				select at, username, action, subject, outcome, detail, remote
				from jsonb_populate_recordset(null::audit_event, ?::jsonb) order by id""")
			.param(json.writeValueAsString(manifest.path("audit_events")))
			.update();
		for (String table : new String[] { "hypothesis_status", "retraction" }) {
			jdbc.sql("select setval(pg_get_serial_sequence('" + table + "', 'id'), greatest((select max(id) from " + table
					+ "), 1))").query().singleRow();
		}
		BackupContents restored = backups.contents();
		audit.done("restore-backup", null, "made " + manifest.path("created_at").asString("") + " by "
				+ manifest.path("created_by").asString("") + ": " + restored);
		return restored;
	}

	/** Inserts rows as the backup holds them ({@code to_jsonb} of each): the same ids and values. */
	private void insertAll(String table, JsonNode rows) {
		jdbc.sql("insert into " + table + " select * from jsonb_populate_recordset(null::" + table + ", ?::jsonb)")
			.param(json.writeValueAsString(rows))
			.update();
	}

}
