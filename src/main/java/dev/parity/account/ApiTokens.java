package dev.parity.account;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import dev.parity.audit.AuditTrail;
import dev.parity.run.Sha256;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.util.StringUtils;

/**
 * API tokens for scripts and CI. A token is shown once, when created; only its SHA-256 is
 * stored. A revoked token, or one whose owner is disabled, stops working at once: every
 * request looks the token up.
 */
@Service
public class ApiTokens {

	private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

	private static final SecureRandom RANDOM = new SecureRandom();

	private final JdbcClient jdbc;

	private final AuditTrail audit;

	ApiTokens(JdbcClient jdbc, AuditTrail audit) {
		this.jdbc = jdbc;
		this.audit = audit;
	}

	/** A token as listed: never the token itself. */
	public record TokenInfo(long id, String name, String prefix, Instant createdAt, @Nullable Instant lastUsedAt,
			@Nullable Instant revokedAt) {

		public boolean active() {
			return revokedAt == null;
		}
	}

	/** A new token: the only time its value is known. */
	public record NewToken(TokenInfo info, String token) {
	}

	/** The user a valid token belongs to. */
	public record TokenOwner(String username, String role) {
	}

	@Transactional
	public NewToken create(String username, String name) {
		if (!StringUtils.hasText(name) || name.strip().length() > 100) {
			throw new IllegalArgumentException(
					"a token needs a name of 1 to 100 characters, e.g. the CI job that uses it");
		}
		StringBuilder secret = new StringBuilder("prt_");
		for (int i = 0; i < 40; i++) {
			secret.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
		}
		String token = secret.toString();
		long id = jdbc.sql("""
				insert into api_token (user_id, name, token_hash, prefix)
				values ((select id from app_user where username = ?), ?, ?, ?) returning id""")
			.params(username, name.strip(), Sha256.hex(token.getBytes(StandardCharsets.UTF_8)), token.substring(0, 10))
			.query(Long.class)
			.single();
		audit.done("create-token", String.valueOf(id), name.strip());
		return new NewToken(list(username).stream().filter(t -> t.id() == id).findFirst().orElseThrow(), token);
	}

	public List<TokenInfo> list(String username) {
		return jdbc.sql("""
				select t.id, t.name, t.prefix, t.created_at, t.last_used_at, t.revoked_at
				from api_token t join app_user u on u.id = t.user_id
				where u.username = ? order by t.created_at desc, t.id desc""")
			.param(username)
			.query((rs, n) -> new TokenInfo(rs.getLong("id"), rs.getString("name"), rs.getString("prefix"),
					rs.getTimestamp("created_at").toInstant(), instant(rs.getTimestamp("last_used_at")),
					instant(rs.getTimestamp("revoked_at"))))
			.list();
	}

	/**
	 * Revokes one of the user's tokens; {@code false} when the user has no such active
	 * token.
	 */
	@Transactional
	public boolean revoke(String username, long id) {
		int updated = jdbc.sql("""
				update api_token set revoked_at = now()
				where id = ? and revoked_at is null and user_id = (select id from app_user where username = ?)""")
			.params(id, username)
			.update();
		if (updated > 0) {
			audit.done("revoke-token", String.valueOf(id), null);
		}
		return updated > 0;
	}

	/**
	 * The owner of an active token, noting its use to the minute; empty for an unknown or
	 * revoked token or a disabled owner. A use within a minute of the last one noted
	 * writes nothing: a CI burst asks with one token many times a second, and a write on
	 * every request made each wait for the one before to commit on the token's row.
	 */
	@Transactional
	public Optional<TokenOwner> authenticate(String token) {
		String hash = Sha256.hex(token.getBytes(StandardCharsets.UTF_8));
		record Found(long id, TokenOwner owner, boolean noted) {
		}
		Optional<Found> found = jdbc.sql("""
				select t.id, u.username, u.role, coalesce(t.last_used_at > now() - interval '1 minute', false) as noted
				from api_token t join app_user u on u.id = t.user_id
				where t.token_hash = ? and t.revoked_at is null and u.enabled""")
			.param(hash)
			.query((rs, n) -> new Found(rs.getLong("id"),
					new TokenOwner(rs.getString("username"), rs.getString("role")), rs.getBoolean("noted")))
			.optional();
		found.filter(use -> !use.noted())
			.ifPresent(use -> jdbc.sql("""
					update api_token set last_used_at = now()
					where id = ? and (last_used_at is null or last_used_at <= now() - interval '1 minute')""")
				.param(use.id())
				.update());
		return found.map(Found::owner);
	}

	private static @Nullable Instant instant(@Nullable Timestamp timestamp) {
		return timestamp == null ? null : timestamp.toInstant();
	}

}
