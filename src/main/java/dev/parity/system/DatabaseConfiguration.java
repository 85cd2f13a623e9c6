package dev.parity.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.StringUtils;

/**
 * The one database: an external PostgreSQL when {@code PARITY_DB_URL} is set, otherwise an
 * embedded PostgreSQL whose data directory persists across restarts.
 */
@Configuration(proxyBeanMethods = false)
class DatabaseConfiguration {

	private static final Logger log = LoggerFactory.getLogger(DatabaseConfiguration.class);

	/**
	 * Connection settings.
	 *
	 * @param url JDBC URL of an external PostgreSQL; blank means "start the embedded one"
	 * @param user user for the external server
	 * @param password password for the external server
	 * @param embedded settings of the embedded server
	 * @param poolSize maximum number of pooled connections
	 * @param connectionTimeout how long a request waits for a connection before it fails (with a 503): short, so
	 * that a database that went away is reported at once instead of holding every request for the pool's default
	 * 30 seconds
	 */
	@ConfigurationProperties("parity.db")
	record DatabaseProperties(String url, String user, String password, Embedded embedded, int poolSize,
			Duration connectionTimeout) {

		@ConstructorBinding
		DatabaseProperties {
			embedded = embedded == null ? new Embedded(null, 0, true, false) : embedded;
			poolSize = poolSize <= 0 ? 10 : poolSize;
			connectionTimeout = connectionTimeout == null ? Duration.ofSeconds(5) : connectionTimeout;
		}

		DatabaseProperties(String url, String user, String password, Embedded embedded, int poolSize) {
			this(url, user, password, embedded, poolSize, null);
		}

		/**
		 * The embedded server.
		 *
		 * @param dataDir where its data lives (kept across restarts unless {@code clean})
		 * @param port a fixed port, or 0 for a free one
		 * @param durable fsync and synchronous commit on; off only for throw-away test data
		 * @param clean start from an empty data directory (tests only)
		 */
		record Embedded(String dataDir, int port, boolean durable, boolean clean) {
			Embedded {
				dataDir = StringUtils.hasText(dataDir) ? dataDir : "data/postgres";
			}
		}
	}

	@Bean(destroyMethod = "close")
	DataSource dataSource(DatabaseProperties properties) throws IOException, SQLException {
		HikariDataSource pool = new HikariDataSource();
		pool.setMaximumPoolSize(properties.poolSize());
		pool.setPoolName("parity");
		pool.setConnectionTimeout(properties.connectionTimeout().toMillis());
		pool.setValidationTimeout(Math.min(properties.connectionTimeout().toMillis(), Duration.ofSeconds(5).toMillis()));
		if (StringUtils.hasText(properties.url())) {
			log.info("Using the external PostgreSQL at {}", properties.url());
			pool.setJdbcUrl(properties.url());
			pool.setUsername(properties.user());
			pool.setPassword(properties.password());
			return pool;
		}
		EmbeddedPostgres postgres = startEmbedded(properties.embedded());
		pool.setJdbcUrl(postgres.getJdbcUrl("postgres", "postgres"));
		pool.setUsername("postgres");
		checkDataDirectory(pool, Path.of(properties.embedded().dataDir()));
		return new EmbeddedDataSource(pool, postgres);
	}

	private static EmbeddedPostgres startEmbedded(DatabaseProperties.Embedded settings) throws IOException {
		Path dataDir = Path.of(settings.dataDir()).toAbsolutePath();
		Files.createDirectories(dataDir);
		stopOrphanedPostmaster(dataDir);
		String onOff = settings.durable() ? "on" : "off";
		EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
			.setDataDirectory(dataDir)
			.setCleanDataDirectory(settings.clean())
			.setPGStartupWait(Duration.ofSeconds(60))
			// zonky turns these off by default; real data must survive a power cut.
			.setServerConfig("fsync", onOff)
			.setServerConfig("synchronous_commit", onOff)
			.setServerConfig("full_page_writes", onOff);
		if (settings.port() > 0) {
			builder.setPort(settings.port());
		}
		EmbeddedPostgres postgres = builder.start();
		log.info("Embedded PostgreSQL on port {} with data in {} (durable: {})", postgres.getPort(), dataDir,
				settings.durable());
		return postgres;
	}

	/**
	 * After a {@code kill -9} of the application the postmaster lives on and holds the data
	 * directory; stop it before starting a new one.
	 */
	private static void stopOrphanedPostmaster(Path dataDir) throws IOException {
		Path pidFile = dataDir.resolve("postmaster.pid");
		if (!Files.exists(pidFile)) {
			return;
		}
		List<String> lines = Files.readAllLines(pidFile);
		if (lines.isEmpty()) {
			return;
		}
		long pid;
		try {
			pid = Long.parseLong(lines.get(0).trim());
		}
		catch (NumberFormatException ex) {
			return;
		}
		Optional<ProcessHandle> orphan = ProcessHandle.of(pid)
			.filter(p -> p.info().command().map(c -> c.contains("postgres")).orElse(false));
		if (orphan.isEmpty()) {
			return;
		}
		log.warn("Stopping the orphaned PostgreSQL (pid {}) left running in {}", pid, dataDir);
		ProcessHandle process = orphan.get();
		process.destroy();
		try {
			process.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			process.destroyForcibly();
		}
	}

	/** Refuse to run on a server that serves another data directory than ours. */
	private static void checkDataDirectory(DataSource dataSource, Path expected) throws SQLException, IOException {
		try (Connection connection = dataSource.getConnection();
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SHOW data_directory")) {
			rs.next();
			Path actual = Path.of(rs.getString(1)).toRealPath();
			if (!actual.equals(expected.toAbsolutePath().toRealPath())) {
				throw new IllegalStateException(
						"The embedded PostgreSQL serves " + actual + ", not " + expected + ": another instance holds the port");
			}
		}
	}

}
