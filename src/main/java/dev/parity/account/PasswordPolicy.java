package dev.parity.account;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * What a new password must be: 12 characters or more, at most 72 bytes in UTF-8 (bcrypt reads no further, so a
 * longer one would be cut silently), not one of the 30,000 most common passwords
 * ({@code account/common-passwords.txt}, with its source) and not containing the user name.
 */
@Component
class PasswordPolicy {

	static final int MIN_CHARACTERS = 12;

	static final int MAX_BYTES = 72;

	private final Set<String> common;

	PasswordPolicy() {
		this.common = load();
	}

	/** Why this password will not do for this user, or {@code null} when it will. */
	@Nullable String problem(String username, @Nullable String password) {
		List<String> problems = problems(username, password);
		return problems.isEmpty() ? null : problems.get(0);
	}

	/** Every reason this password will not do for this user, at once; empty when it will. */
	List<String> problems(String username, @Nullable String password) {
		List<String> problems = new ArrayList<>();
		if (password == null || password.length() < MIN_CHARACTERS) {
			problems.add("A password has at least " + MIN_CHARACTERS + " characters.");
			if (password == null) {
				return problems;
			}
		}
		int bytes = password.getBytes(StandardCharsets.UTF_8).length;
		if (bytes > MAX_BYTES) {
			problems.add("A password has at most " + MAX_BYTES + " bytes in UTF-8 (bcrypt ignores the rest): this one has "
					+ bytes + " bytes.");
		}
		String lower = password.toLowerCase(Locale.ROOT);
		if (common.contains(lower)) {
			problems.add("That password is among the 30,000 most common ones: choose another.");
		}
		String name = username.strip().toLowerCase(Locale.ROOT);
		if (!password.isEmpty() && (name.length() >= 3 ? lower.contains(name) : lower.equals(name))) {
			problems.add("A password must not contain the user name.");
		}
		return problems;
	}

	private static Set<String> load() {
		Set<String> passwords = new HashSet<>(40_000);
		try (InputStream in = PasswordPolicy.class.getResourceAsStream("/account/common-passwords.txt")) {
			if (in == null) {
				throw new IllegalStateException("account/common-passwords.txt is missing from the class path");
			}
			BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
			for (String line = reader.readLine(); line != null; line = reader.readLine()) {
				if (!line.isEmpty() && !line.startsWith("# ")) {
					passwords.add(line);
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return Set.copyOf(passwords);
	}

}
