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

import com.nulabinc.zxcvbn.Strength;
import com.nulabinc.zxcvbn.Zxcvbn;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * What a password must be, wherever it is set (the account and user forms, and the first
 * administrator from the environment): 12 characters or more, at most 72 bytes in UTF-8
 * (bcrypt reads no further, so a longer one would be cut silently), not one of the 30,000
 * most common passwords ({@code account/common-passwords.txt}, with its source), not
 * containing the user name, and hard to guess: zxcvbn's estimate (zxcvbn4j) of at least
 * {@value #MIN_SCORE} out of 4, which refuses repetition ({@code aaaaaaaaaaaa}, twelve
 * spaces), sequences, keyboard walks ({@code qwertyuiopasdfgh}), dictionary words with
 * common substitutions, dates and the user name itself.
 */
@Component
public class PasswordPolicy {

	static final int MIN_CHARACTERS = 12;

	public static final int MAX_BYTES = 72;

	/**
	 * zxcvbn's score out of 4: 3 is "safely unguessable" (about 10^8 guesses or more).
	 */
	static final int MIN_SCORE = 3;

	private final Set<String> common;

	private final Zxcvbn strength = new Zxcvbn();

	PasswordPolicy() {
		this.common = load();
	}

	/** Why this password will not do for this user, or {@code null} when it will. */
	@Nullable String problem(String username, @Nullable String password) {
		List<String> problems = problems(username, password);
		return problems.isEmpty() ? null : problems.get(0);
	}

	/**
	 * Every reason this password will not do for this user, at once; empty when it will.
	 */
	public List<String> problems(String username, @Nullable String password) {
		List<String> problems = new ArrayList<>();
		if (password == null || password.length() < MIN_CHARACTERS) {
			problems.add("A password has at least " + MIN_CHARACTERS + " characters.");
			if (password == null) {
				return problems;
			}
		}
		int bytes = password.getBytes(StandardCharsets.UTF_8).length;
		if (bytes > MAX_BYTES) {
			problems.add("A password has at most " + MAX_BYTES
					+ " bytes in UTF-8 (bcrypt ignores the rest): this one has " + bytes + " bytes.");
		}
		String lower = password.toLowerCase(Locale.ROOT);
		if (common.contains(lower)) {
			problems.add("That password is among the 30,000 most common ones: choose another.");
		}
		String name = username.strip().toLowerCase(Locale.ROOT);
		if (!password.isEmpty() && (name.length() >= 3 ? lower.contains(name) : lower.equals(name))) {
			problems.add("A password must not contain the user name.");
		}
		if (problems.isEmpty()) {
			// Measured only within bcrypt's 72 bytes: zxcvbn's work grows with the length
			// it is given.
			Strength measured = strength.measure(password, List.of(name, "parity"));
			if (measured.getScore() < MIN_SCORE) {
				problems.add(tooEasy(measured));
			}
		}
		return problems;
	}

	/** Why zxcvbn finds it easy to guess, in its words, and what would help. */
	private static String tooEasy(Strength measured) {
		StringBuilder message = new StringBuilder("That password is too easy to guess (strength ")
			.append(measured.getScore())
			.append(" of 4, at least ")
			.append(MIN_SCORE)
			.append(" needed)");
		String warning = measured.getFeedback().getWarning(Locale.ENGLISH);
		message.append(warning == null || warning.isBlank() ? "." : ": " + warning);
		List<String> suggestions = measured.getFeedback().getSuggestions(Locale.ENGLISH);
		suggestions.forEach(suggestion -> message.append(' ').append(suggestion));
		if (suggestions.isEmpty()) {
			message.append(" Use a few unrelated words, or a longer mix of letters, digits and symbols.");
		}
		return message.toString();
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
