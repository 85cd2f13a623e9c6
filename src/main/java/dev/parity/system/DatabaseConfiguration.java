package dev.parity.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.StringUtils;

/**
 * The one database: an external PostgreSQL when {@code PARITY_DB_URL} is set, otherwise
 * an embedded PostgreSQL whose data directory persists across restarts. Two roles use it:
 * the schema's owner, which Flyway migrates as, and the application's role, which serves
 * requests and may only read and insert on the append-only tables (see
 * {@link SchemaOwner}).
 */
@Configuration(proxyBeanMethods = false)
class DatabaseConfiguration {

	private static final Logger log = LoggerFactory.getLogger(DatabaseConfiguration.class);

	/**
	 * Connection settings.
	 *
	 * @param url JDBC URL of an external PostgreSQL; blank means "start the embedded one"
	 * @param user the role the application serves as on the external server
	 * @param password its password
	 * @param ownerUser the role that owns the schema on the external server, which Flyway
	 * migrates as; blank means "the same as {@code user}" (one role for both: it can
	 * bypass the append-only triggers, so a warning is logged)
	 * @param ownerPassword its password
	 * @param embedded settings of the embedded server
	 * @param poolSize maximum number of pooled connections
	 * @param connectionTimeout how long a request waits for a connection before it fails
	 * (with a 503): short, so that a database that went away is reported at once instead
	 * of holding every request for the pool's default 30 seconds
	 */
	@ConfigurationProperties("parity.db")
	record DatabaseProperties(String url, String user, String password, String ownerUser, String ownerPassword,
			Embedded embedded, int poolSize, Duration connectionTimeout) {

		@ConstructorBinding
		DatabaseProperties {
			embedded = embedded == null ? new Embedded(null, 0, true, false) : embedded;
			poolSize = poolSize <= 0 ? 10 : poolSize;
			connectionTimeout = connectionTimeout == null ? Duration.ofSeconds(5) : connectionTimeout;
		}

		/** The embedded server in {@code embedded}. */
		DatabaseProperties(Embedded embedded, int poolSize) {
			this(null, null, null, null, null, embedded, poolSize, null);
		}

		/**
		 * The embedded server.
		 *
		 * @param dataDir where its data lives (kept across restarts unless {@code clean})
		 * @param port a fixed port, or 0 for a free one
		 * @param durable fsync and synchronous commit on; off only for throw-away test
		 * data
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
		// A batch of inserts (a run's statistics, its median windows) as a few statements
		// of many rows each, not one statement a row.
		pool.addDataSourceProperty("reWriteBatchedInserts", "true");
		pool.setConnectionTimeout(properties.connectionTimeout().toMillis());
		pool.setValidationTimeout(
				Math.min(properties.connectionTimeout().toMillis(), Duration.ofSeconds(5).toMillis()));
		if (StringUtils.hasText(properties.url())) {
			log.info("Using the external PostgreSQL at {}", properties.url());
			pool.setJdbcUrl(properties.url());
			pool.setUsername(properties.user());
			pool.setPassword(properties.password());
			return pool;
		}
		return startEmbedded(properties.embedded(), pool);
	}

	/**
	 * The schema's owner: the embedded server's superuser, or
	 * {@code PARITY_DB_OWNER_USER} on an external server (without it, the application's
	 * own user, with a warning).
	 */
	@Bean
	SchemaOwner schemaOwner(DataSource dataSource, DatabaseProperties properties) throws SQLException {
		// The pool may have been wrapped (to count statements, say) since it was made.
		if (dataSource.isWrapperFor(EmbeddedDataSource.class)) {
			return dataSource.unwrap(EmbeddedDataSource.class).owner();
		}
		String user = Objects.requireNonNullElse(properties.user(), "");
		if (!StringUtils.hasText(properties.ownerUser()) || properties.ownerUser().equals(user)) {
			log.warn("One database user ({}) owns the schema and serves the application: it could change or remove"
					+ " runs and the audit trail past the append-only triggers. Set PARITY_DB_OWNER_USER and"
					+ " PARITY_DB_OWNER_PASSWORD for the owner, and let PARITY_DB_USER be a role without those rights"
					+ " (README, Configuration).", user);
			return new SchemaOwner(properties.url(), user, Objects.requireNonNullElse(properties.password(), ""), user);
		}
		return new SchemaOwner(properties.url(), properties.ownerUser(),
				Objects.requireNonNullElse(properties.ownerPassword(), ""), user);
	}

	/** Flyway migrates as the schema's owner. */
	@Bean
	FlywayConfigurationCustomizer migrateAsSchemaOwner(SchemaOwner owner) {
		return configuration -> {
			if (owner.separate()) {
				configuration.dataSource(owner.url(), owner.user(), owner.password());
			}
		};
	}

	/** ... and then gives the application's role what it needs, table by table. */
	@Bean
	ApplicationRoleGrants applicationRoleGrants(SchemaOwner owner) {
		return new ApplicationRoleGrants(owner);
	}

	/**
	 * Starts the embedded server: password authentication for every connection,
	 * {@value EmbeddedCredentials#OWNER} owning the schema, and the pool connecting as
	 * {@value EmbeddedCredentials#APPLICATION}.
	 */
	private static EmbeddedDataSource startEmbedded(DatabaseProperties.Embedded settings, HikariDataSource pool)
			throws IOException, SQLException {
		Path dataDir = Path.of(settings.dataDir()).toAbsolutePath();
		Files.createDirectories(dataDir);
		stopOrphanedPostmaster(dataDir);
		boolean fresh = settings.clean() || !Files.exists(dataDir.resolve("postgresql.conf"));
		Optional<EmbeddedCredentials> kept = fresh ? Optional.empty() : EmbeddedCredentials.read(dataDir);
		// A data directory from a version of Parity that trusted every local connection:
		// no passwords yet.
		boolean trusting = !fresh && kept.isEmpty();
		EmbeddedCredentials credentials = kept.orElseGet(EmbeddedCredentials::generate);
		String onOff = settings.durable() ? "on" : "off";
		EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
			.setDataDirectory(dataDir)
			.setCleanDataDirectory(settings.clean())
			.setPGStartupWait(Duration.ofSeconds(60))
			// zonky turns these off by default; real data must survive a power cut.
			.setServerConfig("fsync", onOff)
			.setServerConfig("synchronous_commit", onOff)
			.setServerConfig("full_page_writes", onOff)
			.setServerConfig("password_encryption", "scram-sha-256")
			// zonky waits for the server by signing in as the superuser.
			.setConnectConfig("password", credentials.ownerPassword());
		if (settings.port() > 0) {
			builder.setPort(settings.port());
		}
		Path initdbPassword = null;
		if (fresh) {
			// zonky hands these to initdb as --name=value: the superuser gets its
			// password before the server ever runs.
			initdbPassword = credentials.ownerPasswordFile(dataDir.getParent());
			builder.setLocaleConfig("pwfile", initdbPassword.toString()).setLocaleConfig("auth", "scram-sha-256");
		}
		if (!trusting) {
			// After initdb, before every start.
			builder.setDataDirectoryCustomizer(dir -> {
				try {
					credentials.write(dir.toPath());
					EmbeddedCredentials.writeHba(dir.toPath());
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			});
		}
		EmbeddedPostgres postgres;
		try {
			postgres = builder.start();
		}
		finally {
			if (initdbPassword != null) {
				Files.deleteIfExists(initdbPassword);
			}
		}
		String url = "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres";
		try {
			SchemaOwner owner = new SchemaOwner(url, EmbeddedCredentials.OWNER, credentials.ownerPassword(),
					EmbeddedCredentials.APPLICATION);
			checkDataDirectory(owner.dataSource(), dataDir);
			if (trusting) {
				requirePasswords(url, dataDir, credentials);
			}
			createApplicationRole(owner.dataSource(), credentials);
			pool.setJdbcUrl(url);
			pool.setUsername(EmbeddedCredentials.APPLICATION);
			pool.setPassword(credentials.applicationPassword());
			log.info("Embedded PostgreSQL on port {} with data in {} (durable: {}); passwords in {}",
					postgres.getPort(), dataDir, settings.durable(), dataDir.resolve(EmbeddedCredentials.FILE));
			return new EmbeddedDataSource(pool, postgres, owner);
		}
		catch (SQLException | IOException | RuntimeException ex) {
			postgres.close();
			throw ex;
		}
	}

	/**
	 * A data directory made by an earlier version trusted every local connection: give
	 * the superuser its password (over a trusted connection, the last one), keep the
	 * passwords, and from now on ask every connection for one.
	 */
	private static void requirePasswords(String url, Path dataDir, EmbeddedCredentials credentials)
			throws SQLException, IOException {
		log.warn("The embedded PostgreSQL in {} trusted every local connection; from now on it asks for a password"
				+ " (kept in {})", dataDir, dataDir.resolve(EmbeddedCredentials.FILE));
		try (Connection connection = DriverManager.getConnection(url, EmbeddedCredentials.OWNER, "");
				Statement statement = connection.createStatement()) {
			statement
				.execute("alter role " + EmbeddedCredentials.OWNER + " password '" + credentials.ownerPassword() + "'");
			credentials.write(dataDir);
			EmbeddedCredentials.writeHba(dataDir);
			statement.execute("select pg_reload_conf()");
		}
		catch (SQLException ex) {
			throw new SQLException("The embedded PostgreSQL in " + dataDir + " asks for a password, and "
					+ EmbeddedCredentials.FILE + " is missing: restore it from a backup of the data directory",
					ex.getSQLState(), ex);
		}
	}

	/**
	 * The role the application serves as: no superuser, no right to make roles or
	 * databases; its password kept.
	 */
	private static void createApplicationRole(DataSource owner, EmbeddedCredentials credentials) throws SQLException {
		String role = EmbeddedCredentials.APPLICATION;
		try (Connection connection = owner.getConnection(); Statement statement = connection.createStatement()) {
			try (ResultSet rs = statement.executeQuery("select 1 from pg_roles where rolname = '" + role + "'")) {
				if (!rs.next()) {
					statement.execute("create role " + role);
				}
			}
			statement.execute("alter role " + role + " with login nosuperuser nocreatedb nocreaterole noreplication"
					+ " nobypassrls password '" + credentials.applicationPassword() + "'");
		}
	}

	/**
	 * After a {@code kill -9} of the application the postmaster lives on and holds the
	 * data directory; stop it before starting a new one.
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
			process.onExit().get(30, TimeUnit.SECONDS);
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
				throw new IllegalStateException("The embedded PostgreSQL serves " + actual + ", not " + expected
						+ ": another instance holds the port");
			}
		}
	}

}
