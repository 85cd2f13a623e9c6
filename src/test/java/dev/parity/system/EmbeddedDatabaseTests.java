package dev.parity.system;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.DriverManager;
import java.time.Duration;

import javax.sql.DataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The embedded PostgreSQL keeps its data across restarts, survives an orphan left by a
 * hard kill, and lets nobody in without a password: not a local user, not the
 * application's own roles.
 */
class EmbeddedDatabaseTests {

	private final DatabaseConfiguration configuration = new DatabaseConfiguration();

	@Test
	void keepsDataAcrossRestartsWithDurableSettings() throws Exception {
		Path dir = Files.createTempDirectory(Path.of("target"), "pg-restart-");
		DatabaseConfiguration.DatabaseProperties properties = properties(dir);

		EmbeddedDataSource first = (EmbeddedDataSource) configuration.dataSource(properties);
		JdbcClient owner = JdbcClient.create(first.owner().dataSource());
		owner.sql("create table kept (note text)").update();
		owner.sql("insert into kept values ('still here')").update();
		assertThat(owner.sql("show fsync").query(String.class).single()).isEqualTo("on");
		assertThat(owner.sql("show synchronous_commit").query(String.class).single()).isEqualTo("on");
		first.close();

		EmbeddedDataSource second = (EmbeddedDataSource) configuration.dataSource(properties);
		assertThat(JdbcClient.create(second.owner().dataSource())
			.sql("select note from kept")
			.query(String.class)
			.single()).isEqualTo("still here");
		second.close();
	}

	@Test
	void asksEveryConnectionForAPasswordKeptPrivateInTheDataDirectory() throws Exception {
		Path dir = Files.createTempDirectory(Path.of("target"), "pg-password-");
		EmbeddedDataSource dataSource = (EmbeddedDataSource) configuration.dataSource(properties(dir));
		try {
			String url = dataSource.owner().url();
			Path credentials = dir.resolve(EmbeddedCredentials.FILE);
			assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(credentials)))
				.isEqualTo("rw-------");
			assertRefusedWithoutThePassword(url);
			// Local socket connections too: every rule the server applies asks for a
			// password.
			assertThat(JdbcClient.create(dataSource.owner().dataSource())
				.sql("select distinct auth_method from pg_hba_file_rules")
				.query(String.class)
				.list()).containsExactly("scram-sha-256");

			// The application connects as its own role, which is no superuser.
			JdbcClient application = JdbcClient.create(dataSource);
			assertThat(application.sql("select current_user").query(String.class).single())
				.isEqualTo(EmbeddedCredentials.APPLICATION);
			assertThat(application.sql("select rolsuper from pg_roles where rolname = current_user")
				.query(Boolean.class)
				.single()).isFalse();
		}
		finally {
			dataSource.close();
		}
		// The passwords stay the same across restarts.
		EmbeddedDataSource again = (EmbeddedDataSource) configuration.dataSource(properties(dir));
		assertThat(JdbcClient.create(again).sql("select 1").query(Integer.class).single()).isEqualTo(1);
		again.close();
	}

	@Test
	void aDataDirectoryThatTrustedEveryoneAsksForPasswordsFromNowOn() throws Exception {
		Path dir = Files.createTempDirectory(Path.of("target"), "pg-trusting-");
		// As the previous version of Parity made it: zonky's defaults, every local
		// connection trusted.
		try (EmbeddedPostgres trusting = EmbeddedPostgres.builder()
			.setDataDirectory(dir)
			.setCleanDataDirectory(false)
			.setPGStartupWait(Duration.ofSeconds(60))
			.start()) {
			JdbcClient.create(trusting.getPostgresDatabase()).sql("create table earlier (note text)").update();
			JdbcClient.create(trusting.getPostgresDatabase()).sql("insert into earlier values ('kept')").update();
		}
		assertThat(dir.resolve(EmbeddedCredentials.FILE)).doesNotExist();

		EmbeddedDataSource upgraded = (EmbeddedDataSource) configuration.dataSource(properties(dir));
		try {
			assertThat(
					PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(EmbeddedCredentials.FILE))))
				.isEqualTo("rw-------");
			assertRefusedWithoutThePassword(upgraded.owner().url());
			assertThat(JdbcClient.create(upgraded.owner().dataSource())
				.sql("select note from earlier")
				.query(String.class)
				.single()).isEqualTo("kept");
		}
		finally {
			upgraded.close();
		}
		// And the next start finds the passwords it kept.
		EmbeddedDataSource next = (EmbeddedDataSource) configuration.dataSource(properties(dir));
		assertRefusedWithoutThePassword(next.owner().url());
		assertThat(JdbcClient.create(next.owner().dataSource())
			.sql("select count(*) from earlier")
			.query(Integer.class)
			.single()).isOne();
		next.close();
	}

	@Test
	void stopsAnOrphanedPostmasterHoldingTheDataDirectory() throws Exception {
		Path dir = Files.createTempDirectory(Path.of("target"), "pg-orphan-");
		// A server left running, as after a kill -9 of the application that started it.
		Process dying = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), OrphanMaker.class.getName(), dir.toString())
			.inheritIO()
			.start();
		assertThat(dying.waitFor()).isEqualTo(137);
		long orphanPid = Long.parseLong(Files.readAllLines(dir.resolve("postmaster.pid")).get(0).trim());
		assertThat(ProcessHandle.of(orphanPid).map(ProcessHandle::isAlive).orElse(false)).isTrue();

		EmbeddedDataSource restarted = (EmbeddedDataSource) configuration.dataSource(properties(dir));
		assertThat(ProcessHandle.of(orphanPid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
		DataSource owner = restarted.owner().dataSource();
		assertThat(JdbcClient.create(owner).sql("select count(*) from left_behind").query(Integer.class).single())
			.isZero();
		restarted.close();
	}

	private static void assertRefusedWithoutThePassword(String url) {
		for (String user : new String[] { EmbeddedCredentials.OWNER, EmbeddedCredentials.APPLICATION, "someone" }) {
			assertThatThrownBy(() -> DriverManager.getConnection(url, user, "").close()).as(user)
				.hasMessageContaining("password");
			assertThatThrownBy(() -> DriverManager.getConnection(url, user, "wrong-password").close()).as(user)
				.hasMessageContaining("password authentication failed");
		}
	}

	private static DatabaseConfiguration.DatabaseProperties properties(Path dir) {
		return new DatabaseConfiguration.DatabaseProperties(
				new DatabaseConfiguration.DatabaseProperties.Embedded(dir.toString(), 0, true, false), 2);
	}

}
