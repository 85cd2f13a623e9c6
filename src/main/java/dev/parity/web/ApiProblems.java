package dev.parity.web;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.servlet.ModelAndView;

/**
 * The one error body of the API: RFC 9457 problem details
 * ({@code application/problem+json}) with {@code status}, {@code title} (the status'
 * reason phrase), {@code detail} (the first problem's message), {@code instance} (the
 * request's path) and the extension member {@code errors}, every problem as {@code {path,
 * message}}, as the API has always listed them.
 */
public final class ApiProblems {

	/** The extension member that lists every problem. */
	public static final String ERRORS = "errors";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private ApiProblems() {
	}

	/** Problem details for these problems (at least one) of the current request. */
	public static ProblemDetail detail(HttpStatusCode status, List<Problem> problems) {
		return detail(status, problems, currentPath());
	}

	/** Problem details for these problems (at least one) of the request at this path. */
	public static ProblemDetail detail(HttpStatusCode status, List<Problem> problems, @Nullable String path) {
		ProblemDetail detail = ProblemDetail.forStatusAndDetail(status,
				problems.isEmpty() ? null : problems.get(0).message());
		HttpStatus known = HttpStatus.resolve(status.value());
		if (known != null) {
			detail.setTitle(known.getReasonPhrase());
		}
		if (path != null) {
			detail.setInstance(URI.create(path));
		}
		detail.setProperty(ERRORS, List.copyOf(problems));
		return detail;
	}

	/** An answer with this status listing these problems (at least one). */
	public static ResponseEntity<ProblemDetail> of(HttpStatusCode status, List<Problem> problems) {
		return ResponseEntity.status(status)
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.body(detail(status, problems));
	}

	/** An answer with this status and one problem, at this JSON path. */
	public static ResponseEntity<ProblemDetail> of(HttpStatusCode status, String path, String message) {
		return of(status, List.of(new Problem(path, message)));
	}

	/**
	 * A builder of an answer with this status (to add headers), to finish with
	 * {@link #body}.
	 */
	public static ResponseEntity.BodyBuilder status(HttpStatusCode status) {
		return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON);
	}

	/**
	 * Writes the problem details straight to a response, for a filter that answers before
	 * Spring MVC does; the headers already set stay.
	 */
	public static void write(HttpServletRequest request, HttpServletResponse response, int status, String message)
			throws IOException {
		ProblemDetail detail = detail(HttpStatusCode.valueOf(status), List.of(new Problem("$", message)),
				request.getRequestURI());
		response.setStatus(status);
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.setCharacterEncoding(StandardCharsets.UTF_8.name());
		response.getOutputStream().write(JSON.writeValueAsBytes(flat(detail)));
		response.flushBuffer();
	}

	/**
	 * The members as they are written: the standard ones, then the extensions at the same
	 * level.
	 */
	static Map<String, Object> flat(ProblemDetail detail) {
		Map<String, Object> body = new LinkedHashMap<>();
		if (detail.getType() != null) {
			body.put("type", detail.getType().toString());
		}
		body.put("title", detail.getTitle());
		body.put("status", detail.getStatus());
		if (detail.getDetail() != null) {
			body.put("detail", detail.getDetail());
		}
		if (detail.getInstance() != null) {
			body.put("instance", detail.getInstance().toString());
		}
		if (detail.getProperties() != null) {
			body.putAll(detail.getProperties());
		}
		return body;
	}

	/** Whether the request is one of the API, whose errors are always problem details. */
	public static boolean isApi(HttpServletRequest request) {
		String path = request.getRequestURI().substring(request.getContextPath().length());
		return path.equals("/api") || path.startsWith("/api/");
	}

	/**
	 * Whether a browser asked for this request as a page (outside the API, accepting
	 * HTML).
	 */
	public static boolean wantsPage(HttpServletRequest request) {
		if (isApi(request)) {
			return false;
		}
		String accept = request.getHeader(HttpHeaders.ACCEPT);
		return accept != null && accept.contains(MediaType.TEXT_HTML_VALUE);
	}

	/**
	 * The answer to work refused for want of a turn (every turn taken until the wait ran
	 * out): 503 with {@code Retry-After}, the "busy" page with these words for a browser
	 * asking for a page, problem details otherwise.
	 * @param page the busy page's model beyond {@code message}: its {@code heading} and
	 * {@code detail}, each left to the page's own words when absent
	 */
	public static Object busy(HttpServletRequest request, HttpServletResponse response, int retryAfterSeconds,
			String message, Map<String, String> page) {
		response.setHeader(HttpHeaders.RETRY_AFTER, String.valueOf(retryAfterSeconds));
		if (wantsPage(request)) {
			Map<String, Object> model = new LinkedHashMap<>(page);
			model.put("pageTitle", "Busy");
			model.put("message", message);
			return new ModelAndView("error/busy", model, HttpStatus.SERVICE_UNAVAILABLE);
		}
		return of(HttpStatus.SERVICE_UNAVAILABLE, "$", message);
	}

	private static @Nullable String currentPath() {
		if (RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes) {
			return attributes.getRequest().getRequestURI();
		}
		return null;
	}

}
