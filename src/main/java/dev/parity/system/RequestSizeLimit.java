package dev.parity.system;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import dev.parity.ingest.UploadCounters;
import dev.parity.web.ApiProblems;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.util.unit.DataSize;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses request bodies over {@code parity.limits.max-request-size} (default 128 MB, so
 * a 100 MB run still fits) with 413, before anything is read — also for a body sent
 * without a length.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
class RequestSizeLimit extends OncePerRequestFilter {

	/**
	 * The request size limit.
	 *
	 * @param maxRequestSize the largest request body accepted
	 */
	@ConfigurationProperties("parity.limits")
	record RequestLimits(DataSize maxRequestSize) {

		RequestLimits {
			maxRequestSize = maxRequestSize == null ? DataSize.ofMegabytes(128) : maxRequestSize;
		}
	}

	/** A body grew past the limit while being read. */
	static class RequestTooLarge extends IOException {

		RequestTooLarge(long limit) {
			super("the request body is larger than " + DataSize.ofBytes(limit).toMegabytes()
					+ " MB (parity.limits.max-request-size)");
		}

	}

	private final long limit;

	private final UploadCounters counters;

	RequestSizeLimit(RequestLimits limits, UploadCounters counters) {
		this.limit = limits.maxRequestSize().toBytes();
		this.counters = counters;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getContentLengthLong() > limit) {
			refuse(request, response);
			return;
		}
		try {
			chain.doFilter(request.getContentLengthLong() < 0 ? new Counted(request, limit) : request, response);
		}
		catch (RequestTooLarge | ServletException ex) {
			if (ex instanceof RequestTooLarge || ex.getCause() instanceof RequestTooLarge
					|| (ex.getCause() != null && ex.getCause().getCause() instanceof RequestTooLarge)) {
				if (!response.isCommitted()) {
					response.reset();
					refuse(request, response);
				}
				return;
			}
			throw ex;
		}
	}

	private void refuse(HttpServletRequest request, HttpServletResponse response) throws IOException {
		String path = request.getRequestURI();
		if (path.startsWith("/api/runs") || path.startsWith("/upload")) {
			counters.refused(path.contains("import") ? "import" : "document", "too-large");
		}
		response.setStatus(HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE);
		// The body is not read: close the connection rather than wait for it.
		response.setHeader("Connection", "close");
		ApiProblems.write(request, response, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE,
				"the request body is larger than " + DataSize.ofBytes(limit).toMegabytes()
						+ " MB (parity.limits.max-request-size)");
	}

	/** A request whose body may not grow past the limit. */
	private static final class Counted extends HttpServletRequestWrapper {

		private final long limit;

		Counted(HttpServletRequest request, long limit) {
			super(request);
			this.limit = limit;
		}

		@Override
		public ServletInputStream getInputStream() throws IOException {
			ServletInputStream in = super.getInputStream();
			return new ServletInputStream() {

				private long read;

				@Override
				public int read() throws IOException {
					int b = in.read();
					if (b >= 0 && ++read > limit) {
						throw new RequestTooLarge(limit);
					}
					return b;
				}

				@Override
				public int read(byte[] buffer, int offset, int length) throws IOException {
					int n = in.read(buffer, offset, length);
					if (n > 0 && (read += n) > limit) {
						throw new RequestTooLarge(limit);
					}
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
