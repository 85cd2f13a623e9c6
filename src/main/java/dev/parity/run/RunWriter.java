package dev.parity.run;

import java.io.ByteArrayInputStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Stores runs, the ingest side: a run's cells go to the database as they are read
 * ({@code COPY}), then its row and its files, all in one transaction. Runs are
 * append-only (the database refuses UPDATE and DELETE); the same upload stored twice,
 * even concurrently, is one run. {@link RunRepository} reads them back.
 */
@Repository
public class RunWriter {

	private static final List<String> NOT_PROVENANCE = List.of("format", "title", "role", "recorded_at", "cells");

	private final JdbcClient jdbc;

	private final JdbcTemplate jdbcTemplate;

	private final JsonMapper json;

	private final DataSource dataSource;

	private final ApplicationEventPublisher events;

	private final CellBootstraps.Medians windows;

	private final CellStatistics statistics;

	RunWriter(JdbcClient jdbc, JdbcTemplate jdbcTemplate, JsonMapper json, DataSource dataSource,
			ApplicationEventPublisher events, CellBootstraps.Medians windows, CellStatistics statistics) {
		this.events = events;
		this.windows = windows;
		this.statistics = statistics;
		this.dataSource = dataSource;
		this.jdbc = jdbc;
		this.jdbcTemplate = jdbcTemplate;
		this.json = json;
	}

	/**
	 * A run to store: the validated document (as read and as JSON), what was uploaded,
	 * and by whom.
	 */
	public record NewRun(RunDocument document, JsonNode documentJson, String uploadSha256, List<UploadedFile> files,
			String uploadedBy) {
	}

	/**
	 * An uploaded file, kept byte for byte, with its SHA-256 when the caller has it
	 * already (an upload's own, hashed to find it stored before).
	 */
	public record UploadedFile(String fileName, String mediaType, byte[] content, @Nullable String knownSha256) {

		public UploadedFile(String fileName, String mediaType, byte[] content) {
			this(fileName, mediaType, content, null);
		}

		/** Its SHA-256 as lowercase hex. */
		public String sha256() {
			return knownSha256 != null ? knownSha256 : Sha256.hex(content);
		}

	}

	/**
	 * Where a store ended: the run's id, and whether this call created it or found it
	 * already stored.
	 */
	public record Stored(RunId id, boolean created) {
	}

	/**
	 * Stores a run in one transaction. The same upload (by SHA-256) stored before, or
	 * concurrently by another request, returns the existing run instead of a duplicate.
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
			return storing.finish(run.uploadSha256(), run.document(), run.documentJson(), run.files(),
					run.uploadedBy());
		}
	}

	/**
	 * Starts storing a run whose cells are read one at a time, so that a large document
	 * is never held whole: each cell goes to the database as it comes ({@code COPY}), the
	 * run row last, all in the caller's transaction. Close it in any case; a run not
	 * {@linkplain Storing#finish finished} leaves nothing behind.
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

		/**
		 * Windows read, at least, before they are published ({@link MedianWindowsRead}).
		 */
		private static final int WINDOWS_PUBLISHED_AT = 64;

		private final RunId id = RunId.random();

		private final Connection connection;

		private final Savepoint savepoint;

		private @Nullable CopyIn copy;

		private final CopyRow row = new CopyRow(FLUSH_AT + (1 << 16));

		private int cells;

		/**
		 * The cells' sample statistics, stored after the run row
		 * ({@link CellStatistics}).
		 */
		private final List<CellStatistics.Row> summaries = new ArrayList<>();

		private final List<CellBootstraps.Row> medianWindows = new ArrayList<>();

		/**
		 * How many of {@link #medianWindows} were published ({@link MedianWindowsRead}).
		 */
		private int windowsPublished;

		private boolean finished;

		private Storing(Connection connection, Savepoint savepoint) {
			this.connection = connection;
			this.savepoint = savepoint;
		}

		/**
		 * Writes the next cell: {@code cell} as read, {@code node} its JSON (whose jsonb
		 * columns are written as they are). Ignored after {@link #discard}.
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
				row.text(id.value())
					.tab()
					.number(cells++)
					.tab()
					.json(json, node.get("params"))
					.tab()
					.text(cell.anchor())
					.tab()
					.number(cell.order())
					.tab()
					.number(cell.requests().completed())
					.tab()
					.number(cell.requests().failed())
					.tab()
					.number(cell.requests().cancelled())
					.tab()
					.json(json, node.get("output_tokens"))
					.tab()
					.json(json, node.get("reasoning_tokens"))
					.tab()
					.json(json, node.get("metrics"))
					.tab()
					.json(json, node.get("samples"))
					.newline();
				if (row.size() >= FLUSH_AT) {
					row.flushTo(copy);
				}
				int samples = node.path("samples").size();
				if (samples == 0) {
					return;
				}
				// The samples are read once, from the tree in memory, for their
				// statistics and the sorted samples around their medians (what the
				// exact bootstrap law of a median needs: a comparison right after the
				// upload reads no samples).
				Cell read = RunDocumentReader.cell(node);
				summaries.add(statistics.of(read));
				medianWindows.addAll(CellBootstraps.of(id, read, windows));
				if (medianWindows.size() - windowsPublished >= WINDOWS_PUBLISHED_AT) {
					publishWindows();
				}
			}
			catch (SQLException ex) {
				throw new IllegalStateException("cannot store the cells of run " + id, ex);
			}
		}

		/** The windows read since the last ones published, published. */
		private void publishWindows() {
			if (windowsPublished < medianWindows.size()) {
				events.publishEvent(
						new MedianWindowsRead(id, medianWindows.subList(windowsPublished, medianWindows.size())));
				windowsPublished = medianWindows.size();
			}
		}

		/**
		 * The document turned out invalid: stop writing cells (the transaction will be
		 * rolled back).
		 */
		public void discard() {
			finished = true;
			cancelCopy();
		}

		/**
		 * Stores the run row and the files after the cells.
		 * @param document the run as read; its cells need only their params (for the
		 * workload fingerprint)
		 * @param documentJson the document, of which everything but the cells is read
		 * here
		 * @return the new run, or the run stored from the same upload by a concurrent
		 * request
		 */
		public Stored finish(String uploadSha256, RunDocument document, JsonNode documentJson, List<UploadedFile> files,
				String uploadedBy) {
			if (finished) {
				throw new IllegalStateException("run " + id + " was discarded");
			}
			finished = true;
			publishWindows();
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
				// ON CONFLICT waits for a concurrent insert of the same upload and then
				// yields nothing:
				// the other request's run is the one, and no constraint error reaches
				// anybody.
				List<String> inserted = jdbc
					.sql("""
							insert into run (id, upload_sha256, title, role, system_name, model_repo, model_revision, model_commit,
							                 engine_name, engine_version, harness_name, harness_version, source_url, recorded_at,
							                 workload_fingerprint, provenance, cell_count, uploaded_by, engine_commit, branch)
							values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?)
							on conflict (upload_sha256) do nothing
							returning id""")
					.params(id.value(), uploadSha256, document.title(), document.role().id(),
							provenance.system().name(), provenance.model().repo(), provenance.model().revision(),
							provenance.model().commit() == null ? null : provenance.model().commit().value(),
							provenance.engine().name(), provenance.engine().version(), provenance.harness().name(),
							provenance.harness().version(),
							provenance.source() == null ? null : provenance.source().url(),
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
				CellBootstraps.insert(connection, id, medianWindows);
				CellStatistics.insert(connection, id, statistics.computedUnder(), summaries);
				// Listeners that follow runs (history) join it in this transaction and
				// work after the commit: see RunStored.
				events.publishEvent(new RunStored(id, document.role(), provenance));
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

	private void insertFiles(RunId id, List<UploadedFile> files) {
		for (int i = 0; i < files.size(); i++) {
			UploadedFile file = files.get(i);
			int position = i;
			// As a stream: the driver's setBytes copies the array, a second copy of a 100
			// MB upload.
			jdbcTemplate.update("""
					insert into run_file (run_id, position, file_name, media_type, sha256, size_bytes, content)
					values (?, ?, ?, ?, ?, ?, ?)""", statement -> {
				statement.setString(1, id.value());
				statement.setInt(2, position);
				statement.setString(3, file.fileName());
				statement.setString(4, file.mediaType());
				statement.setString(5, file.sha256());
				statement.setLong(6, file.content().length);
				statement.setBinaryStream(7, new ByteArrayInputStream(file.content()), file.content().length);
			});
		}
	}

	/** The run stored from the upload with this SHA-256, if any. */
	public Optional<RunId> findIdByUploadSha(String sha256) {
		return jdbc.sql("select id from run where upload_sha256 = ?")
			.param(sha256)
			.query(String.class)
			.optional()
			.map(RunId::new);
	}

}
