package dev.parity.system;

import java.nio.file.Path;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Starts an embedded PostgreSQL in a data directory, writes a table, and dies the way a
 * {@code kill -9} kills: no shutdown hook runs, so the postmaster lives on as an orphan.
 */
public final class OrphanMaker {

	private OrphanMaker() {
	}

	public static void main(String[] args) throws Exception {
		EmbeddedPostgres postgres = EmbeddedPostgres.builder()
			.setDataDirectory(Path.of(args[0]))
			.setCleanDataDirectory(false)
			.setRegisterShutdownHook(false)
			.start();
		JdbcClient.create(postgres.getPostgresDatabase()).sql("create table left_behind (n int)").update();
		Runtime.getRuntime().halt(137);
	}

}
