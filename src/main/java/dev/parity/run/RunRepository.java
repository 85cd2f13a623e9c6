package dev.parity.run;

import java.io.ByteArrayInputStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceUtils;
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

	private final DataSource dataSource;

	private final org.springframework.context.ApplicationEventPublisher events;

	RunRepository(JdbcClient jdbc, JdbcTemplate jdbcTemplate, JsonMapper json, DataSource dataSource,
			org.springframework.context.ApplicationEventPublisher events) {
		this.events = events;
		this.dataSource = dataSource;
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
		try (Storing storing = begin()) {
			JsonNode cells = run.documentJson().get("cells");
			for (int i = 0; i < run.document().cells().size(); i++) {
				storing.cell(run.document().cells().get(i), cells.get(i));
			}
			return storing.finish(run.uploadSha256(), run.document(), run.documentJson(), run.files(), run.uploadedBy());
		}
	}

	/**
	 * Starts storing a run whose cells are read one at a time, so that a large document is never held whole: each
	 * cell goes to the database as it comes ({@code COPY}), the run row last, all in the caller's transaction.
	 * Close it in any case; a run not {@linkplain Storing#finish finished} leaves nothing behind.
	 */
	@Transactional(propagation = Propagation.MANDATORY)
	public Storing begin() {
		Connection connection = DataSourceUtils.getConnection(dataSource);
		try {
			return new Storing(connection, connection.setSavepoint());
		}
		catch (SQLException ex) {
			throw new IllegalStateException("cannot start storing a run", ex);
		}
	}

	/** A run being stored: its cells as they are read, then its row and its files. */
	public final class Storing implements AutoCloseable {

		private static final int FLUSH_AT = 1 << 18;

		private final RunId id = RunId.random();

		private final Connection connection;

		private final Savepoint savepoint;

		private @Nullable CopyIn copy;

		private final CopyRow row = new CopyRow(FLUSH_AT + (1 << 16));

		private int cells;

		private boolean finished;

		private Storing(Connection connection, Savepoint savepoint) {
			this.connection = connection;
			this.savepoint = savepoint;
		}

		/**
		 * Writes the next cell: {@code cell} as read, {@code node} its JSON (whose jsonb columns are written as they
		 * are). Ignored after {@link #discard}.
		 */
		public void cell(Cell cell, JsonNode node) {
			if (finished) {
				return;
			}
			try {
				if (copy == null) {
					copy = connection.unwrap(PGConnection.class).getCopyAPI().copyIn("""
							copy cell (run_id, position, params, anchor, exec_order, completed, failed, cancelled,
							            output_tokens, reasoning_tokens, metrics, samples) from stdin""");
				}
				row.text(id.value()).tab().number(cells++).tab().json(json, node.get("params")).tab().text(cell.anchor())
					.tab().number(cell.order()).tab().number(cell.requests().completed()).tab()
					.number(cell.requests().failed()).tab().number(cell.requests().cancelled()).tab()
					.json(json, node.get("output_tokens")).tab().json(json, node.get("reasoning_tokens")).tab()
					.json(json, node.get("metrics")).tab().json(json, node.get("samples")).newline();
				if (row.size() >= FLUSH_AT) {
					row.flushTo(copy);
				}
			}
			catch (SQLException ex) {
				throw new IllegalStateException("cannot store the cells of run " + id, ex);
			}
		}

		/** The document turned out invalid: stop writing cells (the transaction will be rolled back). */
		public void discard() {
			finished = true;
			cancelCopy();
		}

		/**
		 * Stores the run row and the files after the cells.
		 *
		 * @param document the run as read; its cells need only their params (for the workload fingerprint)
		 * @param documentJson the document, of which everything but the cells is read here
		 * @return the new run, or the run stored from the same upload by a concurrent request
		 */
		public Stored finish(String uploadSha256, RunDocument document, JsonNode documentJson, List<UploadedFile> files,
				String uploadedBy) {
			if (finished) {
				throw new IllegalStateException("run " + id + " was discarded");
			}
			finished = true;
			try {
				if (copy != null) {
					row.flushTo(copy);
					copy.endCopy();
					copy = null;
				}
				Provenance provenance = document.provenance();
				ObjectNode provenanceJson = json.createObjectNode();
				documentJson.forEachEntry((name, value) -> {
					if (!NOT_PROVENANCE.contains(name)) {
						provenanceJson.set(name, value);
					}
				});
				// ON CONFLICT waits for a concurrent insert of the same upload and then yields nothing:
				// the other request's run is the one, and no constraint error reaches anybody.
				List<String> inserted = jdbc.sql("""
						insert into run (id, upload_sha256, title, role, system_name, model_repo, model_revision, model_commit,
						                 engine_name, engine_version, harness_name, harness_version, source_url, recorded_at,
						                 workload_fingerprint, provenance, cell_count, uploaded_by, engine_commit, branch)
						values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?)
						on conflict (upload_sha256) do nothing
						returning id""")
					.params(id.value(), uploadSha256, document.title(), document.role().id(), provenance.system().name(),
							provenance.model().repo(), provenance.model().revision(),
							provenance.model().commit() == null ? null : provenance.model().commit().value(),
							provenance.engine().name(), provenance.engine().version(), provenance.harness().name(),
							provenance.harness().version(), provenance.source() == null ? null : provenance.source().url(),
							document.recordedAt() == null ? null : Timestamp.from(document.recordedAt()),
							WorkloadFingerprint.of(provenance.workload(), document.cells()),
							json.writeValueAsString(provenanceJson), document.cells().size(), uploadedBy,
							provenance.engine().commit() == null ? null : provenance.engine().commit().value(),
							provenance.branch())
					.query(String.class)
					.list();
				if (inserted.isEmpty()) {
					// The cells written above belong to no run: take them back.
					connection.rollback(savepoint);
					return new Stored(findIdByUploadSha(uploadSha256).orElseThrow(), false);
				}
				insertFiles(id, files);
				events.publishEvent(new RunStored(id));
				return new Stored(id, true);
			}
			catch (SQLException ex) {
				throw new IllegalStateException("cannot store run " + id, ex);
			}
		}

		/** Takes back every cell written so far; this run can then only be closed. */
		public void rollback() {
			discard();
			try {
				connection.rollback(savepoint);
			}
			catch (SQLException ex) {
				throw new IllegalStateException("cannot take back the cells of run " + id, ex);
			}
		}

		@Override
		public void close() {
			finished = true;
			cancelCopy();
		}

		private void cancelCopy() {
			if (copy != null) {
				try {
					if (copy.isActive()) {
						copy.cancelCopy();
					}
				}
				catch (SQLException ex) {
					// The transaction is being rolled back anyway.
				}
				copy = null;
			}
		}

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
		for (int i = 0; i < files.size(); i++) {
			UploadedFile file = files.get(i);
			int position = i;
			// As a stream: the driver's setBytes copies the array, a second copy of a 100 MB upload.
			jdbcTemplate.update("""
					insert into run_file (run_id, position, file_name, media_type, sha256, size_bytes, content)
					values (?, ?, ?, ?, ?, ?, ?)""", statement -> {
				statement.setString(1, id.value());
				statement.setInt(2, position);
				statement.setString(3, file.fileName());
				statement.setString(4, file.mediaType());
				statement.setString(5, Sha256.hex(file.content()));
				statement.setLong(6, file.content().length);
				statement.setBinaryStream(7, new ByteArrayInputStream(file.content()), file.content().length);
			});
		}
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
		Map<String, List<Cell>> cells = new HashMap<>();
		jdbc.sql("""
				select run_id, params, exec_order, completed, failed, cancelled, output_tokens, reasoning_tokens,
				       metrics, samples
				from cell where run_id = any(?) order by run_id, position""").param(idArray).query((ResultSet rs) -> {
				ObjectNode cell = json.createObjectNode();
				cell.set("params", json.readTree(rs.getString("params")));
				putInt(cell, "order", rs, "exec_order");
				ObjectNode requests = cell.putObject("requests");
				putInt(requests, "completed", rs, "completed");
				putInt(requests, "failed", rs, "failed");
				putInt(requests, "cancelled", rs, "cancelled");
				putJson(cell, "output_tokens", rs.getString("output_tokens"));
				putJson(cell, "reasoning_tokens", rs.getString("reasoning_tokens"));
				putJson(cell, "metrics", rs.getString("metrics"));
				// Samples are most of a run: read straight into samples, as RunDocumentReader reads them from a tree.
				Cell read = RunDocumentReader.cell(cell);
				cells.computeIfAbsent(rs.getString("run_id"), k -> new ArrayList<>())
					.add(new Cell(read.params(), read.order(), read.requests(), read.outputTokens(), read.reasoningTokens(),
							read.metrics(), samples(rs.getString("samples"))));
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
			RunDocument read = RunDocumentReader.read(document);
			RunDocument run = new RunDocument(read.title(), read.role(), read.recordedAt(), read.provenance(),
					cells.getOrDefault(id, List.of()));
			runs.put(new RunId(id), new Run(new RunId(id), run, (String) m[0], (Instant) m[1], (String) m[2],
					files.getOrDefault(id, List.of())));
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

	/**
	 * A cell's samples read from their stored JSON without building a tree: the same samples
	 * {@link RunDocumentReader#cells} makes of the same JSON (status and token counts by name, every other number a
	 * metric, in stored order).
	 */
	private List<Sample> samples(@Nullable String text) {
		List<Sample> samples = new ArrayList<>();
		if (text == null) {
			return samples;
		}
		try (JsonParser parser = json.createParser(text)) {
			if (parser.nextToken() != JsonToken.START_ARRAY) {
				return samples;
			}
			JsonToken token;
			while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
				if (token != JsonToken.START_OBJECT) {
					parser.skipChildren();
					samples.add(new Sample(null, null, null, Map.of()));
					continue;
				}
				String status = null;
				Double outputTokens = null;
				Double reasoningTokens = null;
				Map<String, Double> metrics = new LinkedHashMap<>();
				while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
					String name = parser.currentName();
					JsonToken value = parser.nextToken();
					boolean number = value == JsonToken.VALUE_NUMBER_INT || value == JsonToken.VALUE_NUMBER_FLOAT;
					switch (name) {
						case "status" -> status = value.isScalarValue() && value != JsonToken.VALUE_NULL
								? parser.<JsonNode>readValueAsTree().asString() : skip(parser);
						case "output_tokens" -> outputTokens = number ? parser.getDoubleValue() : skip(parser);
						case "reasoning_tokens" -> reasoningTokens = number ? parser.getDoubleValue() : skip(parser);
						default -> {
							if (number) {
								metrics.put(name, parser.getDoubleValue());
							}
							else {
								parser.skipChildren();
							}
						}
					}
				}
				samples.add(new Sample(status, outputTokens, reasoningTokens, metrics));
			}
		}
		return samples;
	}

	private static <T> @Nullable T skip(JsonParser parser) {
		parser.skipChildren();
		return null;
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
