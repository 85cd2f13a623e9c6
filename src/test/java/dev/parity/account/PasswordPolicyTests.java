package dev.parity.account;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 23, findings 6 and 12: one password policy, which refuses repetition, sequences,
 * keyboard walks and common passwords, and which the first administrator from the
 * environment meets too (Parity refuses to start otherwise).
 */
class PasswordPolicyTests {

	private static final PasswordPolicy POLICY = new PasswordPolicy();

	@ParameterizedTest(name = "\"{0}\"")
	@ValueSource(strings = { "aaaaaaaaaaaa", "            ", "qwertyuiopasdfgh", "abcdefghijkl", "123456789012",
			"1qaz2wsx3edc4rfv", "Password1234", "zxcvbnmasdfg", "abcabcabcabcabc" })
	void repetitionSequencesAndKeyboardWalksAreRefused(String password) {
		assertThat(POLICY.problem("someone", password)).as(password)
			.isNotNull()
			.containsAnyOf("too easy to guess", "most common");
	}

	@Test
	void theRefusalSaysWhy() {
		assertThat(POLICY.problem("someone", "aaaaaaaaaaaa")).contains("too easy to guess")
			.containsAnyOf("Repeats", "Sequences");
		assertThat(POLICY.problem("someone", " ".repeat(12))).contains("too easy to guess").contains("Repeats");
		assertThat(POLICY.problem("someone", "qwertyuiopasdfgh")).containsAnyOf("keys", "common");
		assertThat(POLICY.problem("someone", "admin")).contains("at least 12 characters");
		assertThat(POLICY.problem("someone", "password1234")).contains("most common");
	}

	@ParameterizedTest(name = "\"{0}\"")
	@ValueSource(strings = { "ochre-lantern-walrus-93", "correct horse battery staple", "lantern-quay-secret-5",
			"viewing-secret-41", "Tz8#qv!L2m@pW9", "bench-quay-lantern-7" })
	void passwordsHardToGuessAreAccepted(String password) {
		assertThat(POLICY.problem("someone", password)).as(password).isNull();
	}

	@Test
	void theUserNameDoesNotMakeAPassword() {
		assertThat(POLICY.problem("marguerite-ops", "marguerite-ops-2")).isNotNull();
	}

	@ParameterizedTest(name = "\"{0}\"")
	@ValueSource(strings = { "admin", "aaaaaaaaaaaa", "            ", "qwertyuiopasdfgh", "admin-admin-admin" })
	void aWeakFirstAdministratorFromTheEnvironmentStopsTheStart(String password) {
		assertThatThrownBy(
				() -> FirstAdministrator.check(new FirstAdministrator.AdminProperties("admin", password), POLICY))
			.isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("PARITY_ADMIN_PASSWORD")
			.hasMessageContaining("admin");
	}

	@Test
	void aStrongFirstAdministratorOrNoneStarts() {
		FirstAdministrator.check(new FirstAdministrator.AdminProperties("admin", "ochre-lantern-walrus-93"), POLICY);
		FirstAdministrator.check(new FirstAdministrator.AdminProperties(null, null), POLICY);
	}

}
