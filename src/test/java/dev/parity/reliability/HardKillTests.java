package dev.parity.reliability;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.parity.TestUploads;
import dev.parity.reliability.ApiClient.Answer;
import dev.parity.run.Sha256;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The application killed with {@code kill -9} during a large upload (32 MB): once while
 * the document is still arriving, once in the middle of storing it (rows of the run
 * written, not committed). After a restart no trace of it exists, and the upload sent
 * again is stored whole.
 */
class HardKillTests {

	private static final int SIZE = 32 * 1024 * 1024;

	private static final Path LOG = Path.of("target", "reliability", "hard-kill-app.log");

	private static ExternalPostgres postgres;

	private static SingleConnectionDataSource connection;

	private final List<ChildApp> started = new ArrayList<>();

	@BeforeAll
	static void startTheDatabase() {
		postgres = ExternalPostgres.start("hard-kill");
		connection = new SingleConnectionDataSource(postgres.jdbcUrl(), "postgres", "", true);
	}

	@AfterEach
	void killWhatIsLeft() throws InterruptedException {
		for (ChildApp app : started) {
			app.stop();
		}
	}

	@AfterAll
	static void stopTheDatabase() {
		if (connection != null) {
			connection.destroy();
		}
		if (postgres != null) {
			postgres.close();
		}
	}

	@Test
	void aKilledUploadLeavesNoTraceAndCanBeSentAgain() throws Exception {
		byte[] document = LargeRunDocument.of(SIZE, "a large run, uploaded while the server is killed");
		String sha = Sha256.hex(document);
		assertThat(document.length).isGreaterThanOrEqualTo(SIZE);

		// 1. Killed while the document is arriving: half of it sent, in pieces, as a slow
		// network delivers it.
		ChildApp first = start();
		Rows before = rows();
		try (Socket socket = new Socket("localhost", first.port())) {
			OutputStream out = socket.getOutputStream();
			out.write(requestHead(document.length));
			for (int sent = 0; sent < document.length / 2; sent += 64 * 1024) {
				out.write(document, sent, 64 * 1024);
				out.flush();
			}
			first.killHard();
		}
		assertThat(rows()).isEqualTo(before);

		// 2. Killed while storing it: the test holds a lock on the cell table, so the
		// upload's transaction stops at
		// its first cell, with the run and its 32 MB file inserted but not committed;
		// then the process is killed.
		ChildApp second = start();
		try (Connection lock = connection()) {
			lock.setAutoCommit(false);
			try (Statement statement = lock.createStatement()) {
				statement.execute("lock table cell in share mode");
			}
			ApiClient client = second.client();
			CompletableFuture<Answer> upload = CompletableFuture.supplyAsync(() -> client.upload(document));
			await().atMost(Duration.ofMinutes(3)).until(() -> storingCells() == 1);
			assertThat(database().sql("select count(*) from pg_locks where not granted").query(Long.class).single())
				.isPositive();
			second.killHard();
			assertThat(upload).failsWithin(Duration.ofMinutes(1));
			lock.rollback();
		}
		// The server's session ends when it finds its client gone; its transaction was
		// never committed.
		await().atMost(Duration.ofMinutes(1)).until(() -> storingCells() == 0);

		// 3. After a restart: no trace of the upload, and sent again, it is stored whole.
		ChildApp third = start();
		assertThat(rows()).isEqualTo(before);
		assertThat(database().sql("select count(*) from run where upload_sha256 = ?")
			.param(sha)
			.query(Long.class)
			.single()).isZero();
		Answer stored = third.client().upload(document);
		assertThat(stored.status()).as(stored.toString()).isEqualTo(201);
		String id = TestUploads.tree(stored.body().getBytes(StandardCharsets.UTF_8)).get("id").asString();
		int cells = LargeRunDocument.CELLS;
		assertThat(database().sql("select cell_count from run where id = ?").param(id).query(Integer.class).single())
			.isEqualTo(cells);
		assertThat(rows()).isEqualTo(new Rows(before.runs() + 1, before.cells() + cells, before.files() + 1));
		assertThat(
				database().sql("select content from run_file where run_id = ?").param(id).query(byte[].class).single())
			.isEqualTo(document);
	}

	private ChildApp start() {
		ChildApp app = ChildApp.start(postgres.jdbcUrl(), LOG);
		started.add(app);
		return app;
	}

	/**
	 * How many sessions are inserting cells just now (waiting on the test's lock, or
	 * still at it).
	 */
	private static long storingCells() {
		return database().sql("""
				select count(*) from pg_stat_activity
				where pid <> pg_backend_pid() and (query like 'insert into cell%' or query like 'copy cell%')
				  and state <> 'idle'""").query(Long.class).single();
	}

	/** Rows of the run tables. */
	private record Rows(long runs, long cells, long files) {
	}

	private static Rows rows() {
		JdbcClient jdbc = database();
		return new Rows(count(jdbc, "run"), count(jdbc, "cell"), count(jdbc, "run_file"));
	}

	private static long count(JdbcClient jdbc, String table) {
		return jdbc.sql("select count(*) from " + table).query(Long.class).single();
	}

	private static JdbcClient database() {
		return JdbcClient.create(connection);
	}

	private static Connection connection() throws SQLException {
		return DriverManager.getConnection(postgres.jdbcUrl(), "postgres", "");
	}

	private static byte[] requestHead(int length) {
		String credentials = Base64.getEncoder()
			.encodeToString((TestUploads.USER + ":" + TestUploads.PASSWORD).getBytes(StandardCharsets.UTF_8));
		return ("POST /api/runs HTTP/1.1\r\nHost: localhost\r\nAuthorization: Basic " + credentials
				+ "\r\nContent-Type: application/json\r\nContent-Length: " + length + "\r\n\r\n")
			.getBytes(StandardCharsets.US_ASCII);
	}

}
