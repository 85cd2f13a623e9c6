package dev.parity.system;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Semaphore;

import dev.parity.web.ApiProblems;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.FormHttpMessageConverter;
import org.springframework.stereotype.Component;
import org.springframework.util.MultiValueMap;
import org.springframework.util.unit.DataSize;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Keeps clients that send a request body slowly, or not at all, from taking every worker
 * thread (which left {@code /actuator/health} and every page without an answer). Tomcat
 * waits at most {@code server.tomcat.connection-timeout} for each read; on top of that:
 * <ul>
 * <li>at most {@code parity.limits.max-concurrent-bodies} requests with a body are served
 * at once; one more is answered 503 with {@code Retry-After} at once, so requests without
 * a body (pages, health) always find a thread;</li>
 * <li>a body the application reads must arrive at {@code parity.limits.body-min-rate} per
 * second on average, counted from {@code parity.limits.body-grace} of waiting for it:
 * slower is cut off with 408 and the connection closed;</li>
 * <li>a body nobody read (a refused request) is read here, paced the same way, up to
 * {@value #DRAIN_LIMIT} bytes, so that the connection can be kept; beyond, the connection
 * is closed, as Tomcat itself swallows nothing
 * ({@code server.tomcat.max-swallow-size=0}), which would otherwise hold the thread for
 * as long as the client trickles.</li>
 * </ul>
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 5)
class SlowRequestBodies extends OncePerRequestFilter {

	/**
	 * The limits on request bodies in flight.
	 *
	 * @param maxConcurrentBodies requests with a body served at once (default 100, half
	 * of Tomcat's threads)
	 * @param bodyMinRate the slowest average a body may arrive at, per second (default 16
	 * KB)
	 * @param bodyGrace how long a body may take before its rate counts (default 20 s)
	 */
	@ConfigurationProperties("parity.limits")
	record BodyLimits(int maxConcurrentBodies, @Nullable DataSize bodyMinRate, @Nullable Duration bodyGrace) {

		BodyLimits {
			maxConcurrentBodies = maxConcurrentBodies > 0 ? maxConcurrentBodies : 100;
			bodyMinRate = bodyMinRate != null ? bodyMinRate : DataSize.ofKilobytes(16);
			bodyGrace = bodyGrace != null ? bodyGrace : Duration.ofSeconds(20);
		}
	}

	/**
	 * The largest form read here (Tomcat's own limit, {@code maxPostSize}); a larger one
	 * is left to Tomcat to refuse.
	 */
	static final long FORM_LIMIT = 2 * 1024 * 1024;

	/** The most of an unread body read here so that the connection can be kept. */
	static final int DRAIN_LIMIT = 64 * 1024;

	static final String RETRY_AFTER_SECONDS = "5";

	private static final Logger log = LoggerFactory.getLogger(SlowRequestBodies.class);

	private final BodyLimits limits;

	private final Semaphore bodies;

	private final JsonMapper json;

	SlowRequestBodies(BodyLimits limits, JsonMapper json) {
		this.limits = limits;
		this.bodies = new Semaphore(limits.maxConcurrentBodies());
		this.json = json;
	}

	/** A body arrived slower than the slowest rate allowed. */
	static final class BodyTooSlow extends IOException {

		BodyTooSlow(long received, Duration waited, DataSize minRate) {
			super("the request body arrived too slowly: " + received + " bytes in " + waited.toSeconds()
					+ " s of waiting, under " + minRate.toKilobytes() + " KB per second (parity.limits.body-min-rate)");
		}

	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getContentLengthLong() <= 0 && request.getHeader(HttpHeaders.TRANSFER_ENCODING) == null) {
			chain.doFilter(request, response);
			return;
		}
		if (!bodies.tryAcquire()) {
			log.warn(
					"{} {}: 503, {} requests with a body are being served already (parity.limits.max-concurrent-bodies)",
					request.getMethod(), request.getRequestURI(), limits.maxConcurrentBodies());
			response.setHeader(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
			refuse(request, response, HttpServletResponse.SC_SERVICE_UNAVAILABLE, "the server is receiving "
					+ limits.maxConcurrentBodies() + " other uploads just now; try again in a few seconds");
			return;
		}
		try {
			Paced paced = new Paced(request, limits);
			try {
				chain.doFilter(paced, response);
			}
			catch (IOException | ServletException | RuntimeException ex) {
				String slow = slowness(ex);
				if (slow == null) {
					throw ex;
				}
				log.warn("{} {}: 408, {}", request.getMethod(), request.getRequestURI(), slow);
				if (!response.isCommitted()) {
					response.reset();
					refuse(request, response, HttpServletResponse.SC_REQUEST_TIMEOUT, slow);
				}
				return;
			}
			paced.drain();
		}
		finally {
			bodies.release();
		}
	}

	private void refuse(HttpServletRequest request, HttpServletResponse response, int status, String message)
			throws IOException {
		response.setStatus(status);
		// The body is not read: close the connection rather than wait for it.
		response.setHeader(HttpHeaders.CONNECTION, "close");
		ApiProblems.write(request, response, status, message);
	}

	/** What was too slow about the body, when that is why the request failed. */
	private static @Nullable String slowness(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
			if (cause instanceof BodyTooSlow slow) {
				return slow.getMessage();
			}
			if (cause instanceof SocketTimeoutException) {
				return "the request body stopped arriving (server.tomcat.connection-timeout)";
			}
		}
		return null;
	}

	/** A request whose body must keep arriving at the slowest rate allowed. */
	private static final class Paced extends HttpServletRequestWrapper {

		private final long minBytesPerSecond;

		private final long graceNanos;

		private final DataSize minRate;

		private long received;

		/**
		 * Time spent waiting in reads for the client, not the application's own work
		 * between reads.
		 */
		private long waitedNanos;

		private @Nullable ServletInputStream stream;

		Paced(HttpServletRequest request, BodyLimits limits) {
			super(request);
			this.minRate = limits.bodyMinRate();
			this.minBytesPerSecond = limits.bodyMinRate().toBytes();
			this.graceNanos = limits.bodyGrace().toNanos();
		}

		@Override
		public ServletInputStream getInputStream() throws IOException {
			if (stream == null) {
				stream = paced(super.getInputStream());
			}
			return stream;
		}

		// A form (the sign-in form above all) is read here, paced, rather than by Tomcat,
		// which would wait for a
		// trickling one for ever: its parameters are the query string's and the form's.

		@Override
		public @Nullable String getParameter(String name) {
			if (!isForm()) {
				return super.getParameter(name);
			}
			String[] values = form().get(name);
			return values == null || values.length == 0 ? null : values[0];
		}

		@Override
		public Map<String, String[]> getParameterMap() {
			return isForm() ? form() : super.getParameterMap();
		}

		@Override
		public Enumeration<String> getParameterNames() {
			return isForm() ? Collections.enumeration(form().keySet()) : super.getParameterNames();
		}

		@Override
		public String @Nullable [] getParameterValues(String name) {
			return isForm() ? form().get(name) : super.getParameterValues(name);
		}

		private @Nullable Map<String, String[]> form;

		private Map<String, String[]> form() {
			if (form != null) {
				return form;
			}
			MultiValueMap<String, String> fields;
			try {
				fields = new FormHttpMessageConverter().read(null, new HttpInputMessage() {
					@Override
					public InputStream getBody() throws IOException {
						return getInputStream();
					}

					@Override
					public HttpHeaders getHeaders() {
						HttpHeaders headers = new HttpHeaders();
						headers.setContentType(MediaType.parseMediaType(getContentType()));
						return headers;
					}
				});
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			// The query string's (Tomcat no longer reads the body, whose stream was taken
			// here), then the form's.
			Map<String, String[]> merged = new LinkedHashMap<>(super.getParameterMap());
			fields.forEach((name, values) -> {
				List<String> all = new ArrayList<>(Arrays.asList(merged.getOrDefault(name, new String[0])));
				all.addAll(values);
				merged.put(name, all.toArray(String[]::new));
			});
			form = Collections.unmodifiableMap(merged);
			return form;
		}

		private boolean isForm() {
			String type = getContentType();
			return "POST".equals(getMethod()) && type != null
					&& type.toLowerCase(Locale.ROOT).startsWith(MediaType.APPLICATION_FORM_URLENCODED_VALUE)
					&& getContentLengthLong() > 0 && getContentLengthLong() <= FORM_LIMIT;
		}

		/**
		 * Reads what nobody read of the body, up to
		 * {@value SlowRequestBodies#DRAIN_LIMIT} bytes, paced; past that, or too slow,
		 * the rest is left and Tomcat closes the connection.
		 */
		void drain() {
			try {
				InputStream in = getInputStream();
				byte[] buffer = new byte[8192];
				long drained = 0;
				int n;
				while (drained < DRAIN_LIMIT
						&& (n = in.read(buffer, 0, (int) Math.min(buffer.length, DRAIN_LIMIT - drained))) >= 0) {
					drained += n;
				}
			}
			catch (IOException | IllegalStateException notAnymore) {
				// Too slow, stalled, gone, or read as characters by the application: the
				// connection closes.
			}
		}

		private void count(int n, long startedNanos) throws BodyTooSlow {
			waitedNanos += System.nanoTime() - startedNanos;
			if (n > 0) {
				received += n;
			}
			long counted = waitedNanos - graceNanos;
			if (counted > 0 && received < minBytesPerSecond * counted / 1_000_000_000L) {
				throw new BodyTooSlow(received, Duration.ofNanos(waitedNanos), minRate);
			}
		}

		private ServletInputStream paced(ServletInputStream in) {
			return new ServletInputStream() {

				@Override
				public int read() throws IOException {
					long started = System.nanoTime();
					int b = in.read();
					count(b < 0 ? 0 : 1, started);
					return b;
				}

				@Override
				public int read(byte[] buffer, int offset, int length) throws IOException {
					long started = System.nanoTime();
					int n = in.read(buffer, offset, length);
					count(n, started);
					return n;
				}

				@Override
				public boolean isFinished() {
					return in.isFinished();
				}

				@Override
				public boolean isReady() {
					return in.isReady();
				}

				@Override
				public void setReadListener(ReadListener listener) {
					in.setReadListener(listener);
				}
			};
		}

	}

}
