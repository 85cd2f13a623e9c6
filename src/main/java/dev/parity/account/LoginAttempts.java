package dev.parity.account;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.event.EventListener;
import org.springframework.security.authentication.event.AbstractAuthenticationFailureEvent;
import org.springframework.security.authentication.event.AuthenticationSuccessEvent;
import org.springframework.stereotype.Component;

/**
 * Rate-limits sign-in: after {@code max-failures} failed attempts for one user name within
 * {@code window}, further attempts for it are refused until the window has passed.
 */
@Component
class LoginAttempts {

	/**
	 * The limit.
	 *
	 * @param maxFailures failures allowed in the window
	 * @param window how long failures are remembered
	 */
	@ConfigurationProperties("parity.login")
	record LoginLimits(int maxFailures, Duration window) {

		LoginLimits {
			maxFailures = maxFailures <= 0 ? 5 : maxFailures;
			window = window == null ? Duration.ofMinutes(5) : window;
		}
	}

	private final Map<String, Deque<Instant>> failures = new ConcurrentHashMap<>();

	private final LoginLimits limits;

	private final Clock clock = Clock.systemUTC();

	LoginAttempts(LoginLimits limits) {
		this.limits = limits;
	}

	/** Whether attempts for this user name are refused now. */
	boolean blocked(String username) {
		Deque<Instant> recent = failures.get(key(username));
		if (recent == null) {
			return false;
		}
		synchronized (recent) {
			prune(recent);
			return recent.size() >= limits.maxFailures();
		}
	}

	/** How long a refused client should wait before trying again. */
	long retryAfterSeconds() {
		return limits.window().toSeconds();
	}

	@EventListener
	void onFailure(AbstractAuthenticationFailureEvent event) {
		Deque<Instant> recent = failures.computeIfAbsent(key(event.getAuthentication().getName()), k -> new ArrayDeque<>());
		synchronized (recent) {
			prune(recent);
			recent.addLast(clock.instant());
		}
	}

	@EventListener
	void onSuccess(AuthenticationSuccessEvent event) {
		failures.remove(key(event.getAuthentication().getName()));
	}

	private void prune(Deque<Instant> recent) {
		Instant horizon = clock.instant().minus(limits.window());
		while (!recent.isEmpty() && recent.peekFirst().isBefore(horizon)) {
			recent.removeFirst();
		}
	}

	private static String key(String username) {
		return username == null ? "" : username.toLowerCase(java.util.Locale.ROOT);
	}

}
