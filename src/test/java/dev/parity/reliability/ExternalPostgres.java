package dev.parity.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * A PostgreSQL server the test owns, as an operator owns one: on a known port with its
 * own data directory, so it can be stopped in the middle of things and started again on
 * the same data and port while the application keeps running against {@link #jdbcUrl()}.
 */
final class ExternalPostgres implements AutoCloseable {

	private final Path dataDirectory;

	private final int port;

	private EmbeddedPostgres server;

	private ExternalPostgres(Path dataDirectory, int port) {
		this.dataDirectory = dataDirectory;
		this.port = port;
	}

	/**
	 * Starts a new server on a free port with an empty data directory under
	 * {@code target/}.
	 */
	static ExternalPostgres start(String name) {
		try {
			Path directory = Files.createTempDirectory(Files.createDirectories(Path.of("target", "reliability")),
					name + "-");
			ExternalPostgres postgres = new ExternalPostgres(directory, freePort());
			postgres.startAgain();
			return postgres;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Starts the server on the same data directory and port. */
	void startAgain() {
		try {
			server = EmbeddedPostgres.builder()
				.setDataDirectory(dataDirectory)
				.setCleanDataDirectory(false)
				.setPort(port)
				.setPGStartupWait(Duration.ofSeconds(60))
				// Throw-away test data: no fsync (a stop here is a clean shutdown
				// anyway).
				.setServerConfig("fsync", "off")
				.setServerConfig("synchronous_commit", "off")
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Stops the server the way an operator does ({@code pg_ctl stop}, fast mode: open
	 * sessions are cut).
	 */
	void stop() {
		try {
			server.close();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		server = null;
	}

	String jdbcUrl() {
		return "jdbc:postgresql://localhost:" + port + "/postgres";
	}

	int port() {
		return port;
	}

	@Override
	public void close() {
		if (server != null) {
			stop();
		}
	}

	static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			socket.setReuseAddress(true);
			return socket.getLocalPort();
		}
	}

}
