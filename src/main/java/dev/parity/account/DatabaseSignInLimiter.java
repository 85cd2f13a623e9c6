package dev.parity.account;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The sign-in limit, kept in PostgreSQL so that every instance of a deployment counts the
 * same failures. Per (user name, address): after {@code max-failures} failures within
 * {@code window}, refused until the window has passed. Per user name from any address:
 * after {@code user-max-failures} failures, each further failure doubles a back-off from
 * {@code backoff} up to {@code window}, which slows guessing spread over many addresses.
 * The back-off never holds back an address the user has signed in from before (within
 * {@code known-for}): failures elsewhere, however many and from however many addresses,
 * cannot keep the owner out where they usually sign in — only failures from that very
 * address can, and only for the window. (Sessions and API tokens are never limited at
 * all.) Requests that are refused are not counted: a refused attacker does not prolong
 * anything. Times are the database's, so instances whose clocks differ still agree.
 *
 * <p>
 * Keys are SHA-256 digests of the user name (and address): a password typed into the
 * user-name field is never stored. Storage is bounded: every {@code max-tracked / 10}
 * failures an instance deletes what has expired and the rows least recently failed beyond
 * the newest {@code max-tracked - max-tracked / 10} of each table, so that a table never
 * holds more than {@code max-tracked} rows (plus {@code max-tracked / 10} for each
 * further instance failing at once).
 */
@Component
class DatabaseSignInLimiter implements SignInLimiter {

	/**
	 * The limits.
	 *
	 * @param maxFailures failures allowed per user name and address within the window
	 * @param window how long failures are remembered, and the longest back-off
	 * @param userMaxFailures failures per user name from all addresses before the
	 * back-off starts
	 * @param backoff the first back-off, doubled by each further failure
	 * @param maxTracked the most (user name, address) pairs and the most user names
	 * remembered
	 * @param knownFor how long an address a user signed in from stays exempt from the
	 * back-off per user name
	 */
	@ConfigurationProperties("parity.login")
	record LoginLimits(int maxFailures, Duration window, int userMaxFailures, Duration backoff, int maxTracked,
			Duration knownFor) {

		LoginLimits {
			knownFor = knownFor == null ? Duration.ofDays(90) : knownFor;
			maxFailures = maxFailures <= 0 ? 5 : maxFailures;
			window = window == null ? Duration.ofMinutes(5) : window;
			userMaxFailures = userMaxFailures <= 0 ? 4 * maxFailures : userMaxFailures;
			backoff = backoff == null ? Duration.ofSeconds(10) : backoff;
			maxTracked = maxTracked <= 0 ? 10_000 : maxTracked;
		}
	}

	/**
	 * Counts a failure for the pair and for the name in one statement; a count older than
	 * the window starts over.
	 */
	private static final String FAILED = """
			with pair as (
				insert into sign_in_failure_by_source as f (pair, failures, first_at, last_at) values (:pair, 1, now(), now())
				on conflict (pair) do update set
					failures = case when f.first_at + :window * interval '1 millisecond' < now() then 1 else f.failures + 1 end,
					first_at = case when f.first_at + :window * interval '1 millisecond' < now() then now() else f.first_at end,
					last_at = now()
				returning 1)
			insert into sign_in_failure_by_name as f (name, failures, first_at, last_at) values (:name, 1, now(), now())
			on conflict (name) do update set
				failures = case when f.first_at + :window * interval '1 millisecond' < now() then 1 else f.failures + 1 end,
				first_at = case when f.first_at + :window * interval '1 millisecond' < now() then now() else f.first_at end,
				last_at = now()""";

	private static final String COUNTS = """
			select now() as now, p.failures as pair_failures, p.first_at as pair_first, n.failures as name_failures,
			       n.last_at as name_last,
			       k.last_success_at > now() - :knownFor * interval '1 millisecond' as known
			from (select 1) one
			left join sign_in_failure_by_source p on p.pair = :pair
			left join sign_in_failure_by_name n on n.name = :name
			left join sign_in_known_source k on k.pair = :pair""";

	private final LoginLimits limits;

	private final JdbcClient jdbc;

	private final AtomicLong failuresSincePruning = new AtomicLong();

	private final AtomicLong successesSincePruning = new AtomicLong();

	DatabaseSignInLimiter(LoginLimits limits, JdbcClient jdbc) {
		this.limits = limits;
		this.jdbc = jdbc;
	}

	/** What the database holds about one sign-in's name and address. */
	private record Counts(Instant now, int pairFailures, Instant pairFirst, int nameFailures, Instant nameLast,
			boolean known) {
	}

	@Override
	public Duration refusedFor(String username, String source) {
		Counts counts = jdbc.sql(COUNTS)
			.param("pair", pairKey(username, source))
			.param("name", nameKey(username))
			.param("knownFor", limits.knownFor().toMillis())
			.query((rs, row) -> new Counts(instant(rs.getObject("now", OffsetDateTime.class)),
					rs.getInt("pair_failures"), instant(rs.getObject("pair_first", OffsetDateTime.class)),
					rs.getInt("name_failures"), instant(rs.getObject("name_last", OffsetDateTime.class)),
					rs.getBoolean("known")))
			.single();
		Duration wait = Duration.ZERO;
		if (counts.pairFailures() >= limits.maxFailures()) {
			wait = max(wait, Duration.between(counts.now(), counts.pairFirst().plus(limits.window())));
		}
		// An address the user signed in from before is not held back by failures from
		// elsewhere.
		if (!counts.known() && counts.nameFailures() >= limits.userMaxFailures()) {
			wait = max(wait, Duration.between(counts.now(), counts.nameLast().plus(backoff(counts.nameFailures()))));
		}
		return wait;
	}

	@Override
	public void failed(String username, String source) {
		jdbc.sql(FAILED)
			.param("pair", pairKey(username, source))
			.param("name", nameKey(username))
			.param("window", limits.window().toMillis())
			.update();
		if (failuresSincePruning.incrementAndGet() >= pruneEvery()) {
			failuresSincePruning.set(0);
			prune();
		}
	}

	@Override
	public void succeeded(String username, String source) {
		// The count per name stays: the owner's success elsewhere gives an attacker no
		// new guesses.
		jdbc.sql("""
				with pair as (delete from sign_in_failure_by_source where pair = :pair returning 1)
				insert into sign_in_known_source as k (pair, last_success_at) values (:pair, now())
				on conflict (pair) do update set last_success_at = now()""")
			.param("pair", pairKey(username, source))
			.update();
		if (successesSincePruning.incrementAndGet() >= pruneEvery()) {
			successesSincePruning.set(0);
			jdbc.sql(
					"delete from sign_in_known_source where last_success_at < now() - :knownFor * interval '1 millisecond'")
				.param("knownFor", limits.knownFor().toMillis())
				.update();
		}
	}

	/**
	 * Forgets what has expired and the rows least recently failed beyond room for the
	 * failures until the next time.
	 */
	void prune() {
		for (String table : new String[] { "sign_in_failure_by_source", "sign_in_failure_by_name" }) {
			jdbc.sql("delete from " + table + " where last_at < now() - :window * interval '1 millisecond'")
				.param("window", limits.window().toMillis())
				.update();
			String key = table.endsWith("source") ? "pair" : "name";
			jdbc.sql("delete from " + table + " where " + key + " in (select " + key + " from " + table
					+ " order by last_at desc offset :keep)")
				.param("keep", limits.maxTracked() - pruneEvery())
				.update();
		}
	}

	private int pruneEvery() {
		return Math.max(1, limits.maxTracked() / 10);
	}

	/** How many rows both tables hold now. */
	long tracked() {
		return jdbc.sql(
				"select (select count(*) from sign_in_failure_by_source) + (select count(*) from sign_in_failure_by_name)")
			.query(Long.class)
			.single();
	}

	/** The most rows each table holds after pruning. */
	int maxTracked() {
		return limits.maxTracked();
	}

	/**
	 * The back-off after this many failures for one user name: doubling from the first,
	 * at most the window.
	 */
	private Duration backoff(int failures) {
		int doublings = Math.min(failures - limits.userMaxFailures(), 30);
		Duration backoff = limits.backoff().multipliedBy(1L << doublings);
		return backoff.compareTo(limits.window()) > 0 ? limits.window() : backoff;
	}

	private static byte[] nameKey(String username) {
		return sha256(SignInLimiter.key(username));
	}

	private static byte[] pairKey(String username, String source) {
		return sha256(SignInLimiter.key(username) + "\n" + (source.length() > 64 ? source.substring(0, 64) : source));
	}

	private static byte[] sha256(String text) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every Java runtime has SHA-256", ex);
		}
	}

	private static Instant instant(@Nullable OffsetDateTime time) {
		return time == null ? Instant.EPOCH : time.toInstant();
	}

	private static Duration max(Duration a, Duration b) {
		return a.compareTo(b) >= 0 ? a : b;
	}

}
