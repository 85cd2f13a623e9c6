package dev.parity.system;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.Map;

import dev.parity.web.ApiProblems;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.hibernate.TransactionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.dao.UncategorizedDataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.servlet.ModelAndView;

/**
 * Answers 503 Service Unavailable with {@code Retry-After} when the database cannot be
 * reached (stopped, restarting, unreachable, or out of connections): a readable page for
 * a browser, problem details (with {@code errors}) for the API. Every write is one
 * transaction, so nothing is stored in part; and repeating an upload is safe even when
 * its commit was cut off after the fact: the same bytes resolve to the same run.
 */
@ControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class DatabaseUnavailableAdvice {

	/** How long a client is asked to wait before repeating the request, in seconds. */
	static final String RETRY_AFTER_SECONDS = "5";

	static final String MESSAGE = "the database cannot be reached just now. Try again in a few seconds: an upload sent again"
			+ " is stored once, never twice.";

	private static final Logger log = LoggerFactory.getLogger(DatabaseUnavailableAdvice.class);

	@ExceptionHandler({ DataAccessResourceFailureException.class, CannotCreateTransactionException.class,
			TransientDataAccessException.class, RecoverableDataAccessException.class })
	Object databaseUnavailable(RuntimeException ex, HttpServletRequest request, HttpServletResponse response) {
		if (!isDatabaseUnavailable(ex)) {
			throw ex;
		}
		return unavailable(ex, request, response);
	}

	/**
	 * A commit or a rollback that failed because the connection broke (the server stopped
	 * under it); any other failure of these kinds is left to the default handling (a
	 * 500). A handler chosen here hides the handlers of other advice for the same types,
	 * so only these and the ones above are handled.
	 */
	@ExceptionHandler({ TransactionSystemException.class, UncategorizedDataAccessException.class })
	Object transactionFailed(RuntimeException ex, HttpServletRequest request, HttpServletResponse response) {
		if (!isDatabaseUnavailable(ex)) {
			throw ex;
		}
		return unavailable(ex, request, response);
	}

	private static Object unavailable(Exception ex, HttpServletRequest request, HttpServletResponse response) {
		log.warn("{} {}: 503, the database is unavailable: {}", request.getMethod(), request.getRequestURI(),
				rootCause(ex).toString());
		response.setHeader(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
		if (wantsPage(request)) {
			return new ModelAndView("error/503", Map.of("pageTitle", "Database unavailable"),
					HttpStatus.SERVICE_UNAVAILABLE);
		}
		return ApiProblems.of(HttpStatus.SERVICE_UNAVAILABLE, "$", MESSAGE);
	}

	/** A browser gets a page; scripts and the API get JSON. */
	static boolean wantsPage(HttpServletRequest request) {
		return ApiProblems.wantsPage(request);
	}

	/**
	 * Whether the failure, or one of its causes, is the database being out of reach (as
	 * opposed to a statement it refused, which is a bug or a bad request).
	 */
	static boolean isDatabaseUnavailable(Throwable failure) {
		if (limitExceeded(failure)) {
			return false;
		}
		for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
			if (cause instanceof DataAccessResourceFailureException || cause instanceof CannotCreateTransactionException
					|| cause instanceof TransientDataAccessException || cause instanceof RecoverableDataAccessException
					|| cause instanceof SQLTransientConnectionException
					|| cause instanceof SQLNonTransientConnectionException || cause instanceof SQLRecoverableException
					|| cause instanceof ConnectException) {
				return true;
			}
			if (cause instanceof SQLException sql && connectionLost(sql.getSQLState())) {
				return true;
			}
			// Hibernate's "Unable to rollback (or commit) against JDBC Connection" over
			// the pool's "Connection is
			// closed" (no SQL state): the connection broke under the transaction, which
			// therefore did not commit
			// (a rollback) or may have (a commit: an upload repeated then resolves to the
			// run it stored).
			if (cause instanceof TransactionException && cause.getCause() instanceof SQLException sql
					&& (sql.getSQLState() == null || connectionLost(sql.getSQLState()))) {
				return true;
			}
		}
		return false;
	}

	/**
	 * A statement beyond a limit of PostgreSQL (54xxx: an index row too large, a
	 * statement too complex): Spring reports it as a resource failure, but it fails the
	 * same way however often it is repeated.
	 */
	private static boolean limitExceeded(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
			if (cause instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("54")) {
				return true;
			}
		}
		return false;
	}

	/**
	 * 08: connection exception; 57P01-57P03: the server is shutting down, or cannot take
	 * connections now.
	 */
	private static boolean connectionLost(String sqlState) {
		return sqlState != null && (sqlState.startsWith("08") || sqlState.startsWith("57P0"));
	}

	static Throwable rootCause(Throwable failure) {
		Throwable root = failure;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return root;
	}

}
