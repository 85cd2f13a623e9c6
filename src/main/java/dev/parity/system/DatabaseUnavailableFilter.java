package dev.parity.system;

import java.io.IOException;

import dev.parity.web.ApiProblems;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.session.web.http.SessionRepositoryFilter;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The 503 of {@link DatabaseUnavailableAdvice} for a database outage met before any
 * controller, in the filters: above all signing in, which looks the user up in the
 * database (see {@link DatabaseAwareAuthenticationEvents}), and the session's own store
 * in PostgreSQL, written when a request ends.
 */
@Component
// Outside Spring Session's filter, whose commit of a session (signing in, a form's CSRF
// token) meets the outage too.
@Order(SessionRepositoryFilter.DEFAULT_ORDER - 1)
class DatabaseUnavailableFilter extends OncePerRequestFilter {

	private static final Logger log = LoggerFactory.getLogger(DatabaseUnavailableFilter.class);

	private final JsonMapper json;

	DatabaseUnavailableFilter(JsonMapper json) {
		this.json = json;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		try {
			chain.doFilter(request, response);
		}
		catch (ServletException | RuntimeException ex) {
			if (response.isCommitted() || !DatabaseUnavailableAdvice.isDatabaseUnavailable(ex)) {
				throw ex;
			}
			log.warn("{} {}: 503, the database is unavailable: {}", request.getMethod(), request.getRequestURI(),
					DatabaseUnavailableAdvice.rootCause(ex).toString());
			response.setHeader(HttpHeaders.RETRY_AFTER, DatabaseUnavailableAdvice.RETRY_AFTER_SECONDS);
			if (DatabaseUnavailableAdvice.wantsPage(request)) {
				// The error page (templates/error/503.html) with the message.
				response.sendError(HttpStatus.SERVICE_UNAVAILABLE.value(), DatabaseUnavailableAdvice.MESSAGE);
				return;
			}
			ApiProblems.write(request, response, HttpStatus.SERVICE_UNAVAILABLE.value(),
					DatabaseUnavailableAdvice.MESSAGE);
		}
	}

}
