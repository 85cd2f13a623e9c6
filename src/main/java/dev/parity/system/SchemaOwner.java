package dev.parity.system;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import org.postgresql.Driver;

/**
 * The database role that owns the schema: Flyway migrates as it, and
 * {@link ApplicationRoleGrants} gives the application's role what it needs after every
 * migration. The application itself serves as the other role, which on the append-only
 * tables may only read and insert, so nothing it runs can change or bypass a trigger.
 *
 * <p>
 * With the embedded PostgreSQL the two are always apart
 * ({@value EmbeddedCredentials#OWNER} and {@value EmbeddedCredentials#APPLICATION}). An
 * external PostgreSQL configured with one user only ({@code PARITY_DB_USER} without
 * {@code PARITY_DB_OWNER_USER}) is served as its owner: {@link #separate()} is false.
 */
public final class SchemaOwner {

	private final String url;

	private final String user;

	private final String password;

	private final String applicationUser;

	SchemaOwner(String url, String user, String password, String applicationUser) {
		this.url = url;
		this.user = user;
		this.password = password;
		this.applicationUser = applicationUser;
	}

	/** The owner's role name. */
	public String user() {
		return user;
	}

	/** The role the application serves as. */
	public String applicationUser() {
		return applicationUser;
	}

	/**
	 * Whether the application serves as another role than the owner (false: one user for
	 * both, a warning at start).
	 */
	public boolean separate() {
		return !user.equals(applicationUser);
	}

	/**
	 * Connections as the owner, one per call, not pooled: for migrations (and tests that
	 * check the schema itself).
	 */
	public DataSource dataSource() {
		return new SimpleDriverDataSource(new Driver(), url, user, password);
	}

	String url() {
		return url;
	}

	String password() {
		return password;
	}

	/** Never the password. */
	@Override
	public String toString() {
		return "SchemaOwner[" + user + " at " + url.replaceFirst("\\?.*", "") + ", application: " + applicationUser
				+ "]";
	}

}
