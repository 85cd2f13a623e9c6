package dev.parity.system;

import java.io.Closeable;
import java.io.IOException;

import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * The connection pool of the embedded PostgreSQL (as the application's role); closing it
 * stops the server too.
 */
class EmbeddedDataSource extends DelegatingDataSource implements Closeable {

	private final HikariDataSource pool;

	private final EmbeddedPostgres postgres;

	private final SchemaOwner owner;

	EmbeddedDataSource(HikariDataSource pool, EmbeddedPostgres postgres, SchemaOwner owner) {
		super(pool);
		this.pool = pool;
		this.postgres = postgres;
		this.owner = owner;
	}

	/** The superuser that owns the schema. */
	SchemaOwner owner() {
		return owner;
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
