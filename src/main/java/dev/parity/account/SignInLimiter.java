package dev.parity.account;

import java.time.Duration;
import java.util.Locale;

/**
 * Limits password sign-ins (form and HTTP Basic alike): per user name and source address,
 * and per user name from anywhere with a back-off that never holds back an address the
 * user signed in from before, so that nobody can guess on and nobody can lock another
 * user out where they sign in. User names are compared as signing in compares them:
 * without surrounding spaces, in any case.
 */
public interface SignInLimiter {

	/**
	 * How long a sign-in for this user name from this address is refused from now; zero
	 * when it may go ahead.
	 */
	Duration refusedFor(String username, String source);

	/** A sign-in with a wrong password (or for an unknown user name). */
	void failed(String username, String source);

	/**
	 * A sign-in that succeeded: what was counted against the user name from this address
	 * is forgotten, and the address is known for the user (the back-off per user name
	 * does not hold it back).
	 */
	void succeeded(String username, String source);

	/** The key that user names are counted under. */
	static String key(String username) {
		String key = username.strip().toLowerCase(Locale.ROOT);
		// No user name is longer than 100 characters: a longer one is counted under its
		// first 101, in bounded memory.
		return key.length() > 101 ? key.substring(0, 101) : key;
	}

}
