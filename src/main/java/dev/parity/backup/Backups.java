package dev.parity.backup;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import dev.parity.audit.AuditTrail;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Writes the whole record as one zip ({@value #FORMAT}): {@code manifest.json} with every
 * row as PostgreSQL holds it (runs, caveats, hypothesis status changes, publications,
 * retractions, control links, the audit trail), then per run its cells' rows
 * ({@code runs/<id>/cells.json}) and its uploaded files byte for byte
 * ({@code runs/<id>/files/<position>}). Read in one snapshot, so uploads going on
 * meanwhile are either wholly in it or not at all.
 */
@Service
public class Backups {

	/** The archive format this version writes and reads. */
	public static final String FORMAT = "parity-backup/1";

	static final String MANIFEST = "manifest.json";

	private final JdbcClient jdbc;

	private final JsonMapper json;

	private final AuditTrail audit;

	Backups(JdbcClient jdbc, JsonMapper json, AuditTrail audit) {
		this.jdbc = jdbc;
		this.json = json;
		this.audit = audit;
	}

	/** What this instance holds. */
	@Transactional(readOnly = true)
	public BackupContents contents() {
		Map<String, Long> counts = new LinkedHashMap<>();
		counts.put("runs", count("run"));
		counts.put("files", count("run_file"));
		counts.put("cells", count("cell"));
		counts.put("caveats", count("caveat"));
		counts.put("hypothesis_status", count("hypothesis_status"));
		counts.put("publications", count("publication"));
		counts.put("retractions", count("retraction"));
		counts.put("control_links", count("control_link"));
		counts.put("audit_events", count("audit_event"));
		return new BackupContents(counts);
	}

	/**
	 * Writes the archive.
	 * @param out where to, left open
	 * @param user who asks, for the manifest
	 * @return what the archive holds
	 */
	@Transactional(readOnly = true, isolation = Isolation.REPEATABLE_READ)
	public BackupContents write(OutputStream out, String user) {
		BackupContents contents = contents();
		ObjectNode manifest = json.createObjectNode();
		manifest.put("format", FORMAT);
		manifest.put("created_at", Instant.now().toString());
		manifest.put("created_by", user);
		manifest.put("schema_version", schemaVersion());
		ObjectNode counts = manifest.putObject("counts");
		contents.counts().forEach(counts::put);
		Map<String, List<JsonNode>> files = new LinkedHashMap<>();
		rows("select to_jsonb(f) - 'content' from run_file f order by run_id, position")
			.forEach(file -> files.computeIfAbsent(file.path("run_id").asString(), id -> new ArrayList<>()).add(file));
		ArrayNode runs = manifest.putArray("runs");
		List<String> runIds = new ArrayList<>();
		for (JsonNode run : rows("select to_jsonb(r) from run r order by uploaded_at, id")) {
			String id = run.path("id").asString();
			runIds.add(id);
			ObjectNode entry = runs.addObject();
			entry.set("run", run);
			entry.put("cells", cellsPath(id));
			ArrayNode fileEntries = entry.putArray("files");
			for (JsonNode file : files.getOrDefault(id, List.of())) {
				ObjectNode fileEntry = fileEntries.addObject();
				fileEntry.set("row", file);
				fileEntry.put("path", filePath(id, file.path("position").asInt()));
			}
		}
		manifest.set("caveats", array("select to_jsonb(t) from caveat t order by created_at, id"));
		manifest.set("hypothesis_status", array("select to_jsonb(t) from hypothesis_status t order by id"));
		manifest.set("publications", array("select to_jsonb(t) from publication t order by created_at, id"));
		manifest.set("retractions", array("select to_jsonb(t) from retraction t order by id"));
		manifest.set("control_links", array("select to_jsonb(t) from control_link t order by declared_at, id"));
		manifest.set("audit_events", array("select to_jsonb(t) from audit_event t order by id"));
		manifest.set("saved_formats", array("select to_jsonb(t) from saved_format t order by name, version"));
		// History: series and their runs, settings, alerts with their status records and
		// confirmation reruns, webhooks (without their URL and
		// signing secret: an admin registers them again) and the delivery log. Analyses
		// are recomputed, not kept.
		ObjectNode history = manifest.putObject("history");
		history.set("series", array("select to_jsonb(t) from series t order by id"));
		history.set("series_run", array("select to_jsonb(t) from series_run t order by series_id, run_id"));
		history.set("series_settings", array("select to_jsonb(t) from series_settings t order by series_id"));
		history.set("alert", array("select to_jsonb(t) from alert t order by created_at, id"));
		history.set("alert_status", array("select to_jsonb(t) from alert_status t order by id"));
		history.set("alert_confirmation", array("select to_jsonb(t) from alert_confirmation t order by linked_at, id"));
		history.set("webhook", array(
				"select to_jsonb(t) || '{\"url\": \"\", \"signing_secret\": \"\"}'::jsonb from webhook t order by id"));
		history.set("webhook_delivery", array("select to_jsonb(t) from webhook_delivery t order by id"));
		history.set("webhook_attempt", array("select to_jsonb(t) from webhook_attempt t order by id"));
		try {
			ZipOutputStream zip = new ZipOutputStream(out, StandardCharsets.UTF_8);
			entry(zip, MANIFEST, json.writeValueAsBytes(manifest));
			for (String id : runIds) {
				entry(zip, cellsPath(id),
						jdbc.sql("""
								select coalesce(jsonb_agg(to_jsonb(c) order by c.position), '[]'::jsonb)::text
								from cell c where c.run_id = ?""")
							.param(id)
							.query(String.class)
							.single()
							.getBytes(StandardCharsets.UTF_8));
				for (JsonNode file : files.getOrDefault(id, List.of())) {
					int position = file.path("position").asInt();
					byte[] content = jdbc.sql("select content from run_file where run_id = ? and position = ?")
						.params(id, position)
						.query(byte[].class)
						.single();
					entry(zip, filePath(id, position), content);
				}
			}
			zip.finish();
			zip.flush();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return contents;
	}

	/** Records in the audit trail that the whole record was exported. */
	@Transactional
	public void recordExport(BackupContents contents) {
		audit.done("export-backup", null, contents.toString());
	}

	/**
	 * The version of the newest migration applied: an archive is restored only by a
	 * Parity at least as new.
	 */
	String schemaVersion() {
		return jdbc.sql("""
				select version from flyway_schema_history where success and version is not null
				order by installed_rank desc limit 1""").query(String.class).optional().orElse("0");
	}

	static String cellsPath(String runId) {
		return "runs/" + runId + "/cells.json";
	}

	static String filePath(String runId, int position) {
		return "runs/" + runId + "/files/" + position;
	}

	private List<JsonNode> rows(String sql) {
		return jdbc.sql(sql).query(String.class).list().stream().map(json::readTree).toList();
	}

	private JsonNode array(String sql) {
		ArrayNode array = json.createArrayNode();
		rows(sql).forEach(array::add);
		return array;
	}

	private long count(String table) {
		return jdbc.sql("select count(*) from " + table).query(Long.class).single();
	}

	private static void entry(ZipOutputStream zip, String name, byte[] content) throws IOException {
		zip.putNextEntry(new ZipEntry(name));
		zip.write(content);
		zip.closeEntry();
	}

}
