package dev.parity.audit;

import java.time.Instant;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Records writes in the audit trail. A refused or failed write is recorded in a
 * transaction of its own, so that the entry stays while everything the write would have
 * stored is rolled back.
 */
@Service
public class AuditTrail {

	private final JdbcClient jdbc;

	AuditTrail(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/** One entry of the trail. */
	public record AuditEvent(long id, Instant at, @Nullable String username, String action, @Nullable String subject,
			String outcome, @Nullable String detail, @Nullable String remote) {
	}

	/**
	 * Records a write that was done, in the caller's transaction (so it is stored only if
	 * the write is).
	 */
	@Transactional(propagation = Propagation.MANDATORY)
	public void done(String action, @Nullable String subject, @Nullable String detail) {
		insert(action, subject, "done", detail);
	}

	/**
	 * Records a write that was refused or failed, whatever happens to the caller's
	 * transaction.
	 */
	@Transactional(propagation = Propagation.REQUIRES_NEW)
	public void refused(String action, @Nullable String subject, String why) {
		insert(action, subject, "refused", why.length() > 2000 ? why.substring(0, 2000) + "…" : why);
	}

	/** The newest entries, optionally of one user or action. */
	public List<AuditEvent> recent(int limit, @Nullable String username, @Nullable String action) {
		return jdbc.sql("""
				select id, at, username, action, subject, outcome, detail, remote from audit_event
				where (cast(? as text) is null or username = ?) and (cast(? as text) is null or action = ?)
				order by at desc, id desc limit ?""")
			.params(username, username, action, action, limit)
			.query((rs, n) -> new AuditEvent(rs.getLong("id"), rs.getTimestamp("at").toInstant(),
					rs.getString("username"), rs.getString("action"), rs.getString("subject"), rs.getString("outcome"),
					rs.getString("detail"), rs.getString("remote")))
			.list();
	}

	private void insert(String action, @Nullable String subject, String outcome, @Nullable String detail) {
		jdbc.sql(
				"insert into audit_event (username, action, subject, outcome, detail, remote) values (?, ?, ?, ?, ?, ?)")
			.params(currentUser(), action, text(subject), outcome, text(detail), remoteAddress())
			.update();
	}

	/**
	 * PostgreSQL refuses a NUL character in text: what users wrote is stored with it
	 * escaped.
	 */
	private static @Nullable String text(@Nullable String value) {
		return value == null ? null : value.replace("\u0000", "\\u0000");
	}

	private static @Nullable String currentUser() {
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		return authentication == null || !authentication.isAuthenticated() ? null : authentication.getName();
	}

	private static @Nullable String remoteAddress() {
		if (RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes) {
			HttpServletRequest request = attributes.getRequest();
			return request.getRemoteAddr();
		}
		return null;
	}

}
