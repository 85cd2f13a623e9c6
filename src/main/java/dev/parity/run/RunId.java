package dev.parity.run;

import java.security.SecureRandom;
import java.util.regex.Pattern;

/**
 * A run's permanent id: 10 random characters from {@code [a-z0-9]} (about 51 bits), never
 * reused.
 */
public record RunId(String value) {

	private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

	private static final Pattern FORM = Pattern.compile("[a-z0-9]{10}");

	private static final SecureRandom RANDOM = new SecureRandom();

	public RunId {
		if (value == null || !FORM.matcher(value).matches()) {
			throw new IllegalArgumentException("not a run id: " + value);
		}
	}

	public static RunId random() {
		char[] chars = new char[10];
		for (int i = 0; i < chars.length; i++) {
			chars[i] = ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length()));
		}
		return new RunId(new String(chars));
	}

	public static boolean isValid(String value) {
		return value != null && FORM.matcher(value).matches();
	}

	@Override
	public String toString() {
		return value;
	}

}
