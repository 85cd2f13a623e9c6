package dev.parity.account;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Checks on every request of a password-signed-in user (a session, or HTTP Basic) that
 * the account is still what it was at sign-in, in the database: enabled, and at the same
 * security version (no role or password change since). Otherwise the session is ended and
 * the request goes on as anonymous. Being a look-up in the database, it holds for
 * sessions kept anywhere and for any number of instances.
 */
class CurrentAccountFilter extends OncePerRequestFilter {

	private final JdbcClient jdbc;

	CurrentAccountFilter(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		if (authentication != null && authentication.getPrincipal() instanceof SignedInUser user && !current(user)) {
			HttpSession session = request.getSession(false);
			if (session != null) {
				session.invalidate();
			}
			SecurityContextHolder.clearContext();
		}
		chain.doFilter(request, response);
	}

	private boolean current(SignedInUser user) {
		return jdbc.sql("select security_version from app_user where username = ? and enabled")
			.param(user.getUsername())
			.query(Long.class)
			.optional()
			.filter(version -> version == user.securityVersion())
			.isPresent();
	}

}
