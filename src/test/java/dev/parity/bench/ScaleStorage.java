package dev.parity.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a database at scale takes on disk and to back up and restore: the bytes per run
 * (all tables with their indexes and TOAST, with and without samples), the application's
 * backup (the zip of {@code /admin/backup}, streamed), and a byte-level copy of the
 * database's files taken between {@code pg_backup_start} and {@code pg_backup_stop} and
 * started as a second server (the restore: recovery to a consistent state, then a query).
 */
final class ScaleStorage {

	private ScaleStorage() {
	}

	static void measure(Connection db, Report report, ObjectNode details, Path out, String jdbcUrl, Http http,
			Consumer<String> log) throws Exception {
		ObjectNode storage = details.putObject("storage");
		long runs = single(db, "select count(*) from run");
		long withSamples = single(db, "select count(distinct run_id) from cell_median_window");
		long total = single(db, """
				select sum(pg_total_relation_size(c.oid)) from pg_class c join pg_namespace n on n.oid = c.relnamespace
				where n.nspname = 'public' and c.relkind in ('r', 'm')""");
		long samples = single(db,
				"select coalesce(sum(pg_column_size(samples)), 0) from cell where samples is not null");
		long statistics = single(db,
				"select pg_total_relation_size('cell_statistics') + pg_total_relation_size('cell_median_window')");
		ObjectNode tables = storage.putObject("tables_bytes");
		try (Statement statement = db.createStatement(); ResultSet rs = statement.executeQuery("""
				select c.relname, pg_total_relation_size(c.oid), pg_relation_size(c.oid) from pg_class c
				join pg_namespace n on n.oid = c.relnamespace
				where n.nspname = 'public' and c.relkind = 'r' order by 2 desc limit 12""")) {
			while (rs.next()) {
				tables.put(rs.getString(1), rs.getLong(2));
			}
		}
		double without = (total - samples - statistics) / (double) runs;
		double with = without + (samples + statistics) / (double) Math.max(1, withSamples);
		long database = single(db, "select pg_database_size(current_database())");
		storage.put("runs", runs);
		storage.put("runs_with_samples", withSamples);
		storage.put("tables_total_bytes", total);
		storage.put("database_bytes", database);
		storage.put("samples_bytes", samples);
		storage.put("statistics_and_medians_bytes", statistics);
		storage.put("bytes_per_run_without_samples", without);
		storage.put("bytes_per_run_with_samples", with);
		storage.put("bytes_per_run_average", total / (double) runs);
		// The seed stores a 2-byte stand-in for each uploaded document; what a real one
		// takes, as the application stores it (bytea, compressed by PostgreSQL):
		long[] document = documentBytes(db, 0);
		long[] documentWithSamples = documentBytes(db, ScaleSeed.SAMPLES);
		storage.put("document_bytes_200_cells", document[0]);
		storage.put("document_stored_bytes_200_cells", document[1]);
		storage.put("document_bytes_200_cells_with_samples", documentWithSamples[0]);
		storage.put("document_stored_bytes_200_cells_with_samples", documentWithSamples[1]);
		log.accept(String.format(Locale.ROOT,
				"scale: %,d bytes in tables for %,d runs (database %,d): %,.0f bytes per run without samples, "
						+ "%,.0f with %d samples per cell (%,d runs); a real document adds %,d (%,d with samples) "
						+ "stored bytes",
				total, runs, database, without, with, ScaleSeed.SAMPLES, withSamples, document[1],
				documentWithSamples[1]));
		report.check("scale",
				"bytes per run (tables, indexes, TOAST), without samples / with " + ScaleSeed.SAMPLES
						+ " samples per cell",
				String.format(Locale.ROOT, "%,.0f / %,.0f B (+ the uploaded document: %,d / %,d B stored)", without,
						with, document[1], documentWithSamples[1]),
				"reported", true);
		report.write(out);
		// The quick one first: the figures so far are written before each.
		copy(db, report, storage, out, log);
		report.write(out);
		backup(report, storage, http, log);
	}

	/** The application's backup: the zip of /admin/backup, read to its end. */
	private static void backup(Report report, ObjectNode storage, Http http, Consumer<String> log) throws Exception {
		HttpClient client = HttpClient.newHttpClient();
		String credentials = Base64.getEncoder()
			.encodeToString("bench-admin:bench-quay-lantern-7".getBytes(StandardCharsets.UTF_8));
		long start = System.nanoTime();
		HttpResponse<InputStream> answer = client.send(HttpRequest.newBuilder(URI.create(http.base() + "/admin/backup"))
			.header("Authorization", "Basic " + credentials)
			.timeout(Duration.ofHours(1))
			.GET()
			.build(), HttpResponse.BodyHandlers.ofInputStream());
		long bytes = 0;
		// Read to its end, or for -Dbench.backupMinutes (then the rate so far is
		// reported).
		long limit = start + Duration.ofMinutes(Long.getLong("bench.backupMinutes", 60)).toNanos();
		boolean whole = true;
		try (InputStream body = answer.body()) {
			byte[] buffer = new byte[1 << 16];
			for (int n; (n = body.read(buffer)) > 0;) {
				bytes += n;
				if (System.nanoTime() > limit) {
					whole = false;
					break;
				}
			}
		}
		double seconds = (System.nanoTime() - start) / 1e9;
		ObjectNode row = storage.putObject("application_backup");
		row.put("status", answer.statusCode());
		row.put("bytes", bytes);
		row.put("seconds", seconds);
		row.put("whole", whole);
		log.accept(String.format(Locale.ROOT, "scale: /admin/backup answered %d, %,d bytes in %.1f s%s",
				answer.statusCode(), bytes, seconds, whole ? "" : " (stopped there: not the whole backup)"));
		report.check("scale",
				"application backup (/admin/backup zip, streamed" + (whole ? " to its end)" : ", stopped early)"),
				String.format(Locale.ROOT, "%.1f s, %,d bytes (HTTP %d)%s", seconds, bytes, answer.statusCode(),
						whole ? "" : String.format(Locale.ROOT, ", %,.0f bytes/s", bytes / seconds)),
				"reported", answer.statusCode() == 200);
	}

	/**
	 * A byte-level backup: the database's files copied between pg_backup_start and
	 * pg_backup_stop (the server keeps running), then that copy started as a second
	 * server, which recovers, and answers a count of the runs.
	 */
	private static void copy(Connection db, Report report, ObjectNode storage, Path out, Consumer<String> log)
			throws Exception {
		Path data;
		try (Statement statement = db.createStatement(); ResultSet rs = statement.executeQuery("show data_directory")) {
			rs.next();
			data = Path.of(rs.getString(1));
		}
		Path copy = out.resolve("postgres-copy");
		run(List.of("rm", "-rf", copy.toString()));
		long start = System.nanoTime();
		String label;
		boolean autoCommit = db.getAutoCommit();
		try (Statement statement = db.createStatement()) {
			statement.execute("select pg_backup_start('bench', true)");
			copyLive(data, copy);
			try (ResultSet rs = statement.executeQuery("select labelfile from pg_backup_stop(true)")) {
				rs.next();
				label = rs.getString(1);
			}
		}
		// The WAL written during the copy, and the label that tells the copy where to
		// start recovering.
		run(List.of("cp", "-a", data.resolve("pg_wal").toString() + "/.", copy.resolve("pg_wal").toString()));
		Files.writeString(copy.resolve("backup_label"), label);
		Files.deleteIfExists(copy.resolve("postmaster.pid"));
		double backupSeconds = (System.nanoTime() - start) / 1e9;
		long bytes = Long.parseLong(run(List.of("du", "-sb", copy.toString())).split("\\s+")[0]);
		start = System.nanoTime();
		long runs;
		try (EmbeddedPostgres restored = EmbeddedPostgres.builder()
			.setDataDirectory(copy)
			.setCleanDataDirectory(false)
			.setPGStartupWait(Duration.ofMinutes(30))
			.start();
				Connection connection = DriverManager
					.getConnection("jdbc:postgresql://localhost:" + restored.getPort() + "/postgres", "postgres", "")) {
			runs = single(connection, "select count(*) from run");
		}
		double restoreSeconds = (System.nanoTime() - start) / 1e9;
		db.setAutoCommit(autoCommit);
		ObjectNode row = storage.putObject("file_copy");
		row.put("bytes", bytes);
		row.put("backup_seconds", backupSeconds);
		row.put("start_on_copy_seconds", restoreSeconds);
		row.put("runs_in_copy", runs);
		log.accept(String.format(Locale.ROOT,
				"scale: file copy of the database %,d bytes in %.1f s; started on the copy and counted %,d runs in %.1f s",
				bytes, backupSeconds, runs, restoreSeconds));
		report.check("scale", "byte-level backup (files copied between pg_backup_start/stop) and its restore",
				String.format(Locale.ROOT,
						"%.1f s for %,d bytes; a server started on the copy recovered and counted %,d runs in %.1f s",
						backupSeconds, bytes, runs, restoreSeconds),
				"reported", runs > 0);
		run(List.of("rm", "-rf", copy.toString()));
	}

	/**
	 * An uploaded document of 200 cells (with {@code samples} per cell) in bytes, and as
	 * stored (compressed) in a {@code bytea} column.
	 */
	private static long[] documentBytes(Connection db, int samples) throws SQLException {
		byte[] document = RunDocuments.document("Sweep of a size", "h100-node", 200, samples, 3);
		try (Statement statement = db.createStatement()) {
			statement.execute("create temporary table if not exists document_size (content bytea)");
			statement.execute("truncate document_size");
		}
		try (PreparedStatement insert = db.prepareStatement("insert into document_size values (?)")) {
			insert.setBytes(1, document);
			insert.executeUpdate();
		}
		return new long[] { document.length, single(db, "select pg_column_size(content) from document_size") };
	}

	private static long single(Connection connection, String sql) throws SQLException {
		try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
			rs.next();
			return rs.getLong(1);
		}
	}

	/**
	 * The files of a running server's data directory, copied: a file the server removes
	 * meanwhile (a relation cache file, a temporary file) is left out, as pg_basebackup
	 * leaves it out; recovery from the WAL makes the copy whole.
	 */
	private static void copyLive(Path from, Path to) throws IOException {
		Files.walkFileTree(from, new SimpleFileVisitor<>() {

			@Override
			public FileVisitResult preVisitDirectory(Path directory, BasicFileAttributes attributes)
					throws IOException {
				Path copied = to.resolve(from.relativize(directory).toString());
				Files.createDirectories(copied);
				// A data directory open to others is one the server refuses to start on.
				Files.setPosixFilePermissions(copied, Files.getPosixFilePermissions(directory));
				return FileVisitResult.CONTINUE;
			}

			@Override
			public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
				try {
					Files.copy(file, to.resolve(from.relativize(file).toString()), StandardCopyOption.COPY_ATTRIBUTES);
				}
				catch (NoSuchFileException vanished) {
					// Removed by the server since it was listed.
				}
				return FileVisitResult.CONTINUE;
			}

			@Override
			public FileVisitResult visitFileFailed(Path file, IOException failure) throws IOException {
				if (failure instanceof NoSuchFileException) {
					return FileVisitResult.CONTINUE;
				}
				throw failure;
			}

		});
	}

	private static String run(List<String> command) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (process.waitFor() != 0) {
			throw new IOException(command + " failed: " + output);
		}
		return output;
	}

}
