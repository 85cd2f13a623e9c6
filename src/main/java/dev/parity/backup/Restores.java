package dev.parity.backup;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import dev.parity.audit.AuditTrail;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Restores a backup into an empty instance, in one transaction: every run with its id,
 * upload time, uploader, rows and files, then caveats, status changes, publications,
 * retractions, control links and the audit trail. The archive is checked before anything
 * is written; the instance is locked against uploads meanwhile; anything wrong stores
 * nothing.
 */
@Service
public class Restores {

	private final JdbcClient jdbc;

	private final JsonMapper json;

	private final RunRestore runs;

	private final Backups backups;

	private final AuditTrail audit;

	private final TransactionTemplate transaction;

	Restores(JdbcClient jdbc, JsonMapper json, RunRestore runs, Backups backups, AuditTrail audit,
			PlatformTransactionManager transactions) {
		this.jdbc = jdbc;
		this.json = json;
		this.runs = runs;
		this.backups = backups;
		this.audit = audit;
		this.transaction = new TransactionTemplate(transactions);
	}

	/**
	 * Restores the archive at {@code path}, and records in the audit trail who restored
	 * what, from which archive.
	 * @param archiveName the name the archive was uploaded under, for the audit trail
	 * @return what was restored
	 * @throws BackupRejected when the archive is not a backup, is damaged or inconsistent
	 * (nothing is stored)
	 * @throws InstanceNotEmpty when this instance holds any run, caveat, status change,
	 * publication, retraction or control link
	 */
	public BackupContents restore(Path path, String archiveName) {
		String name = archiveName.replaceAll("\\p{Cntrl}", "?");
		try (BackupArchive archive = BackupArchive.open(path, json, backups.schemaVersion())) {
			String sha256 = sha256(path);
			return transaction.execute(status -> restore(archive, name, sha256));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (DataIntegrityViolationException ex) {
			BackupRejected rejected = new BackupRejected(
					"the archive is inconsistent, nothing was restored: " + ex.getMostSpecificCause().getMessage(), ex);
			audit.refused("restore-backup", name, rejected.getMessage());
			throw rejected;
		}
		catch (BackupRejected rejected) {
			audit.refused("restore-backup", name, rejected.getMessage());
			throw rejected;
		}
	}

	/** The SHA-256 of a file read as a stream: an archive may be larger than memory. */
	private static String sha256(Path path) throws IOException {
		try (InputStream in = Files.newInputStream(path)) {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			byte[] buffer = new byte[1 << 16];
			for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
				digest.update(buffer, 0, n);
			}
			return HexFormat.of().formatHex(digest.digest());
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is part of every Java runtime", ex);
		}
	}

	private BackupContents restore(BackupArchive archive, String archiveName, String sha256) {
		// Uploads and records wait until the restore commits; reading goes on. The
		// application's database role may not
		// lock append-only tables itself: a function of the schema's owner does (V13).
		jdbc.sql("select 1 from parity_lock_append_only('run', 'run_file', 'cell', 'caveat', 'hypothesis_status',"
				+ " 'publication', 'retraction', 'control_link')")
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
		// An archive made before control links were backed up holds none.
		if (manifest.has("control_links")) {
			insertAll("control_link", manifest.path("control_links"));
		}
		if (manifest.has("saved_formats")) {
			insertAll("saved_format", manifest.path("saved_formats"));
		}
		JsonNode history = manifest.path("history");
		for (String table : new String[] { "series", "series_run", "series_settings", "alert", "alert_status",
				"alert_confirmation", "webhook", "webhook_delivery", "webhook_attempt" }) {
			if (history.has(table)) {
				insertAll(table, history.path(table));
			}
		}
		for (String table : new String[] { "alert_status", "webhook", "webhook_delivery", "webhook_attempt" }) {
			jdbc.sql("select setval(pg_get_serial_sequence('" + table + "', 'id'), greatest((select max(id) from "
					+ table + "), 1))")
				.query()
				.singleRow();
		}
		// The trail of this instance may have begun already (a refused upload): the
		// archive's entries join it with
		// new ids, in their order, and keep their times.
		jdbc.sql("""
				insert into audit_event (at, username, action, subject, outcome, detail, remote)
				select at, username, action, subject, outcome, detail, remote
				from jsonb_populate_recordset(null::audit_event, ?::jsonb) order by id""")
			.param(json.writeValueAsString(manifest.path("audit_events")))
			.update();
		for (String table : new String[] { "hypothesis_status", "retraction" }) {
			jdbc.sql("select setval(pg_get_serial_sequence('" + table + "', 'id'), greatest((select max(id) from "
					+ table + "), 1))")
				.query()
				.singleRow();
		}
		BackupContents restored = backups.contents();
		// Authors and dates stay as the archive has them; this entry says who restored
		// them, and from what.
		audit.done("restore-backup", archiveName,
				"from " + archiveName + " (SHA-256 " + sha256 + "), made " + manifest.path("created_at").asString("")
						+ " by " + manifest.path("created_by").asString("") + ": " + archive.contents());
		return restored;
	}

	/**
	 * Inserts rows as the backup holds them ({@code to_jsonb} of each): the same ids and
	 * values.
	 */
	private void insertAll(String table, JsonNode rows) {
		jdbc.sql("insert into " + table + " select * from jsonb_populate_recordset(null::" + table + ", ?::jsonb)")
			.param(json.writeValueAsString(rows))
			.update();
	}

}
