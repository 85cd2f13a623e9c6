package dev.parity.account;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.stereotype.Component;

/**
 * The sign-in limit of one instance, in two bounded caches. Per (user name, address): after {@code max-failures}
 * failures within {@code window}, refused until the window has passed. Per user name from any address: after
 * {@code user-max-failures} failures, each further failure doubles a back-off from {@code backoff} up to
 * {@code window}, so that failures from many addresses slow the name down without shutting its owner out.
 * Requests that are refused are not counted: a refused attacker does not prolong anything.
 */
@Component
class MemorySignInLimiter implements SignInLimiter {

	/**
	 * The limits.
	 *
	 * @param maxFailures failures allowed per user name and address within the window
	 * @param window how long failures are remembered, and the longest back-off
	 * @param userMaxFailures failures per user name from all addresses before the back-off starts
	 * @param backoff the first back-off, doubled by each further failure
	 * @param maxTracked the most (user name, address) pairs and the most user names remembered
	 */
	@ConfigurationProperties("parity.login")
	record LoginLimits(int maxFailures, Duration window, int userMaxFailures, Duration backoff, int maxTracked) {

		LoginLimits {
			maxFailures = maxFailures <= 0 ? 5 : maxFailures;
			window = window == null ? Duration.ofMinutes(5) : window;
			userMaxFailures = userMaxFailures <= 0 ? 4 * maxFailures : userMaxFailures;
			backoff = backoff == null ? Duration.ofSeconds(10) : backoff;
			maxTracked = maxTracked <= 0 ? 10_000 : maxTracked;
		}
	}

	/** Failures counted since {@code first}; the last at {@code last}. */
	private record Failures(int count, Instant first, Instant last) {
	}

	private final LoginLimits limits;

	private final Clock clock = Clock.systemUTC();

	private final Cache<String, Failures> byNameAndSource;

	private final Cache<String, Failures> byName;

	MemorySignInLimiter(LoginLimits limits) {
		this.limits = limits;
		this.byNameAndSource = cache(limits);
		this.byName = cache(limits);
	}

	private static Cache<String, Failures> cache(LoginLimits limits) {
		// Evictions run on the calling thread, so the size never lags behind the maximum.
		return Caffeine.newBuilder().maximumSize(limits.maxTracked()).expireAfterWrite(limits.window())
			.executor(Runnable::run).build();
	}

	@Override
	public Duration refusedFor(String username, String source) {
		Instant now = clock.instant();
		Duration wait = Duration.ZERO;
		Failures pair = byNameAndSource.getIfPresent(pairKey(username, source));
		if (pair != null && pair.count() >= limits.maxFailures()) {
			wait = max(wait, Duration.between(now, pair.first().plus(limits.window())));
		}
		Failures name = byName.getIfPresent(SignInLimiter.key(username));
		if (name != null && name.count() >= limits.userMaxFailures()) {
			wait = max(wait, Duration.between(now, name.last().plus(backoff(name.count()))));
		}
		return wait;
	}

	@Override
	public void failed(String username, String source) {
		Instant now = clock.instant();
		byNameAndSource.asMap().compute(pairKey(username, source), (key, old) -> count(old, now));
		byName.asMap().compute(SignInLimiter.key(username), (key, old) -> count(old, now));
	}

	@Override
	public void succeeded(String username, String source) {
		byNameAndSource.invalidate(pairKey(username, source));
		byName.invalidate(SignInLimiter.key(username));
	}

	/** How many entries both caches hold now. */
	long tracked() {
		byNameAndSource.cleanUp();
		byName.cleanUp();
		return byNameAndSource.estimatedSize() + byName.estimatedSize();
	}

	/** The most entries each cache holds. */
	int maxTracked() {
		return limits.maxTracked();
	}

	private Failures count(Failures old, Instant now) {
		if (old == null || old.first().plus(limits.window()).isBefore(now)) {
			return new Failures(1, now, now);
		}
		return new Failures(old.count() + 1, old.first(), now);
	}

	/** The back-off after this many failures for one user name: doubling from the first, at most the window. */
	private Duration backoff(int failures) {
		int doublings = Math.min(failures - limits.userMaxFailures(), 30);
		Duration backoff = limits.backoff().multipliedBy(1L << doublings);
		return backoff.compareTo(limits.window()) > 0 ? limits.window() : backoff;
	}

	private static String pairKey(String username, String source) {
		return SignInLimiter.key(username) + "\n" + (source.length() > 64 ? source.substring(0, 64) : source);
	}

	private static Duration max(Duration a, Duration b) {
		return a.compareTo(b) >= 0 ? a : b;
	}

}
