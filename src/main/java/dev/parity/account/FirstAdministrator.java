package dev.parity.account;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.annotation.Order;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.util.StringUtils;

/**
 * Makes sure somebody can sign in: the administrator named by {@code PARITY_ADMIN_USER} /
 * {@code PARITY_ADMIN_PASSWORD}, or, when neither is set and nobody exists yet, an
 * {@code admin} with a random password printed once in the log. A password from the
 * environment meets the same {@link PasswordPolicy} as any other: with a weak one, Parity
 * refuses to start, saying which rule it breaks.
 */
@Component
@Order(0)
class FirstAdministrator implements ApplicationRunner {

	private static final Logger log = LoggerFactory.getLogger(FirstAdministrator.class);

	/**
	 * The first administrator.
	 *
	 * @param user the user name
	 * @param password the password
	 */
	@ConfigurationProperties("parity.admin")
	record AdminProperties(String user, String password) {
	}

	private final AppUsers users;

	private final PasswordEncoder passwordEncoder;

	private final AdminProperties properties;

	private final JdbcClient jdbc;

	FirstAdministrator(AppUsers users, PasswordEncoder passwordEncoder, AdminProperties properties, JdbcClient jdbc,
			PasswordPolicy policy) {
		check(properties, policy);
		this.jdbc = jdbc;
		this.users = users;
		this.passwordEncoder = passwordEncoder;
		this.properties = properties;
	}

	/**
	 * Refuses a first administrator's password from the environment that the policy would
	 * refuse in the user form.
	 * @throws IllegalStateException naming every rule the password breaks
	 */
	static void check(AdminProperties properties, PasswordPolicy policy) {
		if (StringUtils.hasText(properties.user()) && properties.password() != null
				&& !properties.password().isEmpty()) {
			List<String> problems = policy.problems(properties.user(), properties.password());
			if (!problems.isEmpty()) {
				throw new IllegalStateException("PARITY_ADMIN_PASSWORD (parity.admin.password) will not do for the"
						+ " administrator '" + properties.user().strip() + "': " + String.join(" ", problems)
						+ " Choose another and start again.");
			}
		}
	}

	@Override
	@Transactional
	public void run(ApplicationArguments args) {
		// Instances starting together on one database: one at a time, so that the
		// administrator is made once.
		jdbc.sql("select pg_advisory_xact_lock(hashtext('parity-first-administrator'))").query().singleRow();
		String user = properties.user();
		String password = properties.password();
		if (StringUtils.hasText(user) != StringUtils.hasText(password)) {
			throw new IllegalStateException("Set both PARITY_ADMIN_USER and PARITY_ADMIN_PASSWORD, or neither");
		}
		if (StringUtils.hasText(user)) {
			if (users.findByUsername(user).isEmpty()) {
				users.save(new AppUser(user, passwordEncoder.encode(password), "admin"));
				log.info("Created the administrator '{}' from PARITY_ADMIN_USER", user);
			}
			return;
		}
		if (users.count() == 0) {
			byte[] random = new byte[18];
			new SecureRandom().nextBytes(random);
			String generated = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
			users.save(new AppUser("admin", passwordEncoder.encode(generated), "admin"));
			log.warn("""

					No user existed: created the administrator 'admin' with the password

					    {}

					It is shown this once. Set PARITY_ADMIN_USER and PARITY_ADMIN_PASSWORD to choose your own.
					""", generated);
		}
	}

}
