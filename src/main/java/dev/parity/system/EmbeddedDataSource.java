package dev.parity.system;

import java.io.Closeable;
import java.io.IOException;

import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * The connection pool of the embedded PostgreSQL; closing it stops the server too.
 */
class EmbeddedDataSource extends DelegatingDataSource implements Closeable {

	private final HikariDataSource pool;

	private final EmbeddedPostgres postgres;

	EmbeddedDataSource(HikariDataSource pool, EmbeddedPostgres postgres) {
		super(pool);
		this.pool = pool;
		this.postgres = postgres;
	}

	/** The port the embedded server listens on. */
	int port() {
		return postgres.getPort();
	}

	@Override
	public void close() throws IOException {
		pool.close();
		postgres.close();
	}

}
