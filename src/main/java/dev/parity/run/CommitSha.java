package dev.parity.run;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A resolved checkpoint commit: 40 hexadecimal characters, accepted in any case, kept
 * lower-case.
 */
public record CommitSha(String value) {

	private static final Pattern HEX40 = Pattern.compile("[0-9a-fA-F]{40}");

	public CommitSha {
		if (!isValid(value)) {
			throw new IllegalArgumentException("a commit is 40 hexadecimal characters, not '" + value + "'");
		}
		value = value.toLowerCase(Locale.ROOT);
	}

	public static CommitSha of(String value) {
		return new CommitSha(value);
	}

	public static boolean isValid(String value) {
		return value != null && HEX40.matcher(value).matches();
	}

	/** The first seven characters, as people quote commits. */
	public String shortForm() {
		return value.substring(0, 7);
	}

	@Override
	public String toString() {
		return value;
	}

}
