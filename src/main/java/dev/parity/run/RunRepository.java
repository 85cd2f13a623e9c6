package dev.parity.run;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Stores runs (append-only: the database refuses UPDATE and DELETE) and loads them back.
 * Loading a run or a pair of runs takes a fixed number of queries whatever the number of cells.
 */
@Repository
public class RunRepository {

	private static final List<String> NOT_PROVENANCE = List.of("format", "title", "role", "recorded_at", "cells");

	private final JdbcClient jdbc;

	private final JdbcTemplate jdbcTemplate;

	private final JsonMapper json;

	RunRepository(JdbcClient jdbc, JdbcTemplate jdbcTemplate, JsonMapper json) {
		this.jdbc = jdbc;
		this.jdbcTemplate = jdbcTemplate;
		this.json = json;
	}

	/** A run to store: the validated document (as read and as JSON), what was uploaded, and by whom. */
	public record NewRun(RunDocument document, JsonNode documentJson, String uploadSha256, List<UploadedFile> files,
			String uploadedBy) {
	}

	/** An uploaded file, kept byte for byte. */
	public record UploadedFile(String fileName, String mediaType, byte[] content) {
	}

	/** Where a store ended: the run's id, and whether this call created it or found it already stored. */
	public record Stored(RunId id, boolean created) {
	}

	/**
	 * Stores a run in one transaction. The same upload (by SHA-256) stored before, or concurrently by
	 * another request, returns the existing run instead of a duplicate.
	 */
	@Transactional
	public Stored store(NewRun run) {
		Optional<RunId> existing = findIdByUploadSha(run.uploadSha256());
		if (existing.isPresent()) {
			return new Stored(existing.get(), false);
		}
		RunDocument document = run.document();
		Provenance provenance = document.provenance();
		ObjectNode provenanceJson = json.createObjectNode();
		run.documentJson().forEachEntry((name, value) -> {
			if (!NOT_PROVENANCE.contains(name)) {
				provenanceJson.set(name, value);
			}
		});
		RunId id = RunId.random();
		// ON CONFLICT waits for a concurrent insert of the same upload and then yields nothing:
		// the other request's run is the one, and no constraint error reaches anybody.
		List<String> inserted = jdbc.sql("""
				insert into run (id, upload_sha256, title, role, system_name, model_repo, model_revision, model_commit,
				                 engine_name, engine_version, harness_name, harness_version, source_url, recorded_at,
				                 workload_fingerprint, provenance, cell_count, uploaded_by)
				values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?)
				on conflict (upload_sha256) do nothing
				returning id""")
			.params(id.value(), run.uploadSha256(), document.title(), document.role().id(), provenance.system().name(),
					provenance.model().repo(), provenance.model().revision(),
					provenance.model().commit() == null ? null : provenance.model().commit().value(),
					provenance.engine().name(), provenance.engine().version(), provenance.harness().name(),
					provenance.harness().version(), provenance.source() == null ? null : provenance.source().url(),
					document.recordedAt() == null ? null : Timestamp.from(document.recordedAt()),
					WorkloadFingerprint.of(provenance.workload(), document.cells()), json.writeValueAsString(provenanceJson),
					document.cells().size(), run.uploadedBy())
			.query(String.class)
			.list();
		if (inserted.isEmpty()) {
			return new Stored(findIdByUploadSha(run.uploadSha256()).orElseThrow(), false);
		}
		insertFiles(id, run.files());
		insertCells(id, document.cells(), run.documentJson().get("cells"));
		return new Stored(id, true);
	}

	/**
	 * A run as a backup holds it: the rows of the run, of its files (without their content) and of its cells, as
	 * PostgreSQL wrote them ({@code to_jsonb} of each row), and the files' content.
	 *
	 * @param run the run's row, must not be {@literal null}
	 * @param files the rows of its files, in position order, must not be {@literal null}
	 * @param contents the content of each file, in the same order, must not be {@literal null}
	 * @param cells the rows of its cells, as one JSON array, must not be {@literal null}
	 */
	public record RestoredRun(JsonNode run, List<JsonNode> files, List<byte[]> contents, JsonNode cells) {

		public RestoredRun {
			if (files.size() != contents.size()) {
				throw new IllegalArgumentException(files.size() + " file rows but " + contents.size() + " contents");
			}
		}

	}

	/**
	 * Inserts a run from a backup exactly as it was stored: the same id, upload time and uploader, the same rows (ids
	 * included). Only for restoring into an empty instance, in the caller's transaction; it never changes a stored run
	 * (the tables refuse that anyway), and a run whose id or upload exists already is refused by their keys.
	 */
	@Transactional(propagation = Propagation.MANDATORY)
	public RunId restore(RestoredRun run) {
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
		jdbc.sql("select setval(pg_get_serial_sequence('run_file', 'id'), (select max(id) from run_file))").query().singleRow();
		jdbc.sql("select setval(pg_get_serial_sequence('cell', 'id'), greatest((select max(id) from cell), 1))").query()
			.singleRow();
		return id;
	}

	private void insertFiles(RunId id, List<UploadedFile> files) {
		List<Object[]> rows = new ArrayList<>();
		for (int i = 0; i < files.size(); i++) {
			UploadedFile file = files.get(i);
			rows.add(new Object[] { id.value(), i, file.fileName(), file.mediaType(), Sha256.hex(file.content()),
					(long) file.content().length, file.content() });
		}
		jdbcTemplate.batchUpdate("""
				insert into run_file (run_id, position, file_name, media_type, sha256, size_bytes, content)
				values (?, ?, ?, ?, ?, ?, ?)""", rows);
	}

	private void insertCells(RunId id, List<Cell> cells, JsonNode cellsJson) {
		List<Object[]> rows = new ArrayList<>(cells.size());
		for (int i = 0; i < cells.size(); i++) {
			Cell cell = cells.get(i);
			JsonNode node = cellsJson.get(i);
			rows.add(new Object[] { id.value(), i, json.writeValueAsString(node.get("params")), cell.anchor(),
					cell.order(), cell.requests().completed(), cell.requests().failed(), cell.requests().cancelled(),
					jsonOrNull(node.get("output_tokens")), jsonOrNull(node.get("reasoning_tokens")),
					json.writeValueAsString(node.get("metrics")), jsonOrNull(node.get("samples")) });
		}
		jdbcTemplate.batchUpdate("""
				insert into cell (run_id, position, params, anchor, exec_order, completed, failed, cancelled,
				                  output_tokens, reasoning_tokens, metrics, samples)
				values (?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?::jsonb)""", rows);
	}

	private @Nullable String jsonOrNull(@Nullable JsonNode node) {
		return node == null || node.isNull() ? null : json.writeValueAsString(node);
	}

	public Optional<RunId> findIdByUploadSha(String sha256) {
		return jdbc.sql("select id from run where upload_sha256 = ?").param(sha256).query(String.class).optional()
			.map(RunId::new);
	}

	public boolean exists(RunId id) {
		return jdbc.sql("select count(*) from run where id = ?").param(id.value()).query(Integer.class).single() > 0;
	}

	/** The run, or empty; three queries whatever its size. */
	@Transactional(readOnly = true)
	public Optional<Run> find(RunId id) {
		Map<RunId, Run> runs = findAll(List.of(id));
		return Optional.ofNullable(runs.get(id));
	}

	/** Several runs at once, by id; three queries whatever their number and size. */
	@Transactional(readOnly = true)
	public Map<RunId, Run> findAll(Collection<RunId> ids) {
		if (ids.isEmpty()) {
			return Map.of();
		}
		String[] idArray = ids.stream().map(RunId::value).distinct().toArray(String[]::new);
		Map<String, ObjectNode> documents = new LinkedHashMap<>();
		Map<String, Object[]> meta = new HashMap<>();
		jdbc.sql("""
				select id, title, role, recorded_at, provenance, workload_fingerprint, uploaded_at, uploaded_by
				from run where id = any(?)""").param(idArray).query((ResultSet rs) -> {
				ObjectNode document = json.createObjectNode();
				document.put("format", RunDocumentReader.FORMAT);
				document.put("title", rs.getString("title"));
				document.put("role", rs.getString("role"));
				Timestamp recordedAt = rs.getTimestamp("recorded_at");
				if (recordedAt != null) {
					document.put("recorded_at", recordedAt.toInstant().toString());
				}
				json.readTree(rs.getString("provenance")).forEachEntry(document::set);
				document.putArray("cells");
				documents.put(rs.getString("id"), document);
				meta.put(rs.getString("id"), new Object[] { rs.getString("workload_fingerprint"),
						rs.getTimestamp("uploaded_at").toInstant(), rs.getString("uploaded_by") });
		});
		jdbc.sql("""
				select run_id, params, exec_order, completed, failed, cancelled, output_tokens, reasoning_tokens,
				       metrics, samples
				from cell where run_id = any(?) order by run_id, position""").param(idArray).query((ResultSet rs) -> {
				ArrayNode cells = (ArrayNode) documents.get(rs.getString("run_id")).get("cells");
				ObjectNode cell = cells.addObject();
				cell.set("params", json.readTree(rs.getString("params")));
				putInt(cell, "order", rs, "exec_order");
				ObjectNode requests = cell.putObject("requests");
				putInt(requests, "completed", rs, "completed");
				putInt(requests, "failed", rs, "failed");
				putInt(requests, "cancelled", rs, "cancelled");
				putJson(cell, "output_tokens", rs.getString("output_tokens"));
				putJson(cell, "reasoning_tokens", rs.getString("reasoning_tokens"));
				putJson(cell, "metrics", rs.getString("metrics"));
				putJson(cell, "samples", rs.getString("samples"));
		});
		Map<String, List<Run.RunFile>> files = new HashMap<>();
		jdbc.sql("""
				select run_id, position, file_name, media_type, sha256, size_bytes
				from run_file where run_id = any(?) order by run_id, position""").param(idArray).query((ResultSet rs) -> {
				files.computeIfAbsent(rs.getString("run_id"), k -> new ArrayList<>())
					.add(new Run.RunFile(rs.getInt("position"), rs.getString("file_name"), rs.getString("media_type"),
							rs.getString("sha256"), rs.getLong("size_bytes")));
		});
		Map<RunId, Run> runs = new LinkedHashMap<>();
		documents.forEach((id, document) -> {
			Object[] m = meta.get(id);
			runs.put(new RunId(id), new Run(new RunId(id), RunDocumentReader.read(document), (String) m[0],
					(Instant) m[1], (String) m[2], files.getOrDefault(id, List.of())));
		});
		return runs;
	}

	/** The bytes of an uploaded file, exactly as uploaded. */
	public Optional<StoredFile> file(RunId id, int position) {
		return jdbc.sql("select file_name, media_type, content from run_file where run_id = ? and position = ?")
			.params(id.value(), position)
			.query((rs, n) -> new StoredFile(rs.getString("file_name"), rs.getString("media_type"), rs.getBytes("content")))
			.optional();
	}

	/** An uploaded file with its content. */
	public record StoredFile(String fileName, String mediaType, byte[] content) {
	}

	private void putJson(ObjectNode node, String field, @Nullable String value) {
		if (value != null) {
			node.set(field, json.readTree(value));
		}
	}

	private static void putInt(ObjectNode node, String field, ResultSet rs, String column) throws SQLException {
		int value = rs.getInt(column);
		if (rs.wasNull()) {
			node.putNull(field);
		}
		else {
			node.put(field, value);
		}
	}

}
