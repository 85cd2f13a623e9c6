package dev.parity.system;

import java.nio.file.Files;
import java.nio.file.Path;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;

/** The embedded PostgreSQL keeps its data across restarts and survives an orphan left by a hard kill. */
class EmbeddedDatabaseTests {

	private final DatabaseConfiguration configuration = new DatabaseConfiguration();

	@Test
	void keepsDataAcrossRestartsWithDurableSettings() throws Exception {
		Path dir = Files.createTempDirectory(Path.of("target"), "pg-restart-");
		DatabaseConfiguration.DatabaseProperties properties = properties(dir);

		DataSource first = configuration.dataSource(properties);
		JdbcClient jdbc = JdbcClient.create(first);
		jdbc.sql("create table kept (note text)").update();
		jdbc.sql("insert into kept values ('still here')").update();
		assertThat(jdbc.sql("show fsync").query(String.class).single()).isEqualTo("on");
		assertThat(jdbc.sql("show synchronous_commit").query(String.class).single()).isEqualTo("on");
		((EmbeddedDataSource) first).close();

		DataSource second = configuration.dataSource(properties);
		assertThat(JdbcClient.create(second).sql("select note from kept").query(String.class).single()).isEqualTo("still here");
		((EmbeddedDataSource) second).close();
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

		DataSource restarted = configuration.dataSource(properties(dir));
		assertThat(ProcessHandle.of(orphanPid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
		assertThat(JdbcClient.create(restarted).sql("select count(*) from left_behind").query(Integer.class).single()).isZero();
		((EmbeddedDataSource) restarted).close();
	}

	private static DatabaseConfiguration.DatabaseProperties properties(Path dir) {
		return new DatabaseConfiguration.DatabaseProperties(null, null, null,
				new DatabaseConfiguration.DatabaseProperties.Embedded(dir.toString(), 0, true, false), 2);
	}

}
