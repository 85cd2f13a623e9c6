package dev.parity.reliability;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * An uploader for the tests, as a CI job signs in: HTTP Basic, role uploader. Its
 * password is stored in plain text ({@code {noop}}): bcrypt is slow on purpose, and
 * hundreds of sign-ins would measure it rather than the uploads.
 */
final class TestAccounts {

	static final String UPLOADER = "ci-uploader";

	static final String PASSWORD = "ci-secret";

	private TestAccounts() {
	}

	/** Creates the uploader unless it exists. */
	static void uploader(JdbcClient jdbc) {
		jdbc.sql("""
				insert into app_user (username, password_hash, role) values (?, ?, 'uploader')
				on conflict (username) do nothing""").params(UPLOADER, "{noop}" + PASSWORD).update();
	}

}
