package dev.parity.web;

import java.util.List;
import java.util.Locale;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.beans.TypeMismatchException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.multipart.MaxUploadSizeExceededException;
import org.springframework.web.multipart.MultipartException;

/**
 * The errors Spring MVC raises itself (a missing parameter, a body that cannot be read, a
 * method or media type not supported, an unknown path, a {@code ResponseStatusException})
 * as problem details with their 4xx status, never a 500. Outside {@code /api/} a page
 * keeps its HTML error page: the exception goes on to Spring's own handling. The advice
 * of each feature, and of each controller, is asked first.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
class ApiErrorAdvice {

	@ExceptionHandler(HttpMessageNotReadableException.class)
	ResponseEntity<ProblemDetail> rejectUnreadable(HttpMessageNotReadableException ex) {
		return ApiProblems.of(HttpStatus.BAD_REQUEST, "$",
				"the request body could not be read: " + ex.getMostSpecificCause().getMessage());
	}

	/**
	 * A multipart body that cannot be parsed (cut short, a part that claims to be
	 * multipart itself): the client's.
	 */
	@ExceptionHandler(MultipartException.class)
	ResponseEntity<ProblemDetail> rejectMultipart(MultipartException ex) {
		if (ex instanceof MaxUploadSizeExceededException) {
			return ApiProblems.of(HttpStatus.CONTENT_TOO_LARGE, "$", "a part is larger than the server accepts");
		}
		Throwable cause = ex.getMostSpecificCause();
		return ApiProblems.of(HttpStatus.BAD_REQUEST, "$", "the multipart body could not be read: "
				+ (cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage()));
	}

	@ExceptionHandler(HttpMediaTypeNotSupportedException.class)
	ResponseEntity<ProblemDetail> rejectMediaType(HttpMediaTypeNotSupportedException ex) {
		return ApiProblems.status(HttpStatus.UNSUPPORTED_MEDIA_TYPE)
			.headers(ex.getHeaders())
			.body(ApiProblems.detail(HttpStatus.UNSUPPORTED_MEDIA_TYPE, List
				.of(new Problem("$", "send the run document as application/json; got " + ex.getContentType()))));
	}

	/** A query parameter that is not of its type: 400 naming it (the API only). */
	@ExceptionHandler(TypeMismatchException.class)
	ResponseEntity<ProblemDetail> rejectType(TypeMismatchException ex, HttpServletRequest request) throws Exception {
		if (!ApiProblems.isApi(request)) {
			throw ex;
		}
		String name = ex instanceof MethodArgumentTypeMismatchException argument ? argument.getName()
				: String.valueOf(ex.getPropertyName());
		String type = ex.getRequiredType() == null ? "another type" : ex.getRequiredType().getSimpleName();
		return ApiProblems.of(HttpStatus.BAD_REQUEST, name,
				name + " must be " + type.toLowerCase(Locale.ROOT) + ", not '" + ex.getValue() + "'");
	}

	/**
	 * What Spring MVC answers with a status of its own (missing parameter, method not
	 * allowed, not found, a {@code ResponseStatusException}): the same status and
	 * headers, as problem details (the API only).
	 */
	@ExceptionHandler({ ServletException.class, ErrorResponseException.class })
	ResponseEntity<ProblemDetail> rejectRequest(Exception ex, HttpServletRequest request) throws Exception {
		if (!ApiProblems.isApi(request) || !(ex instanceof ErrorResponse error)) {
			throw ex;
		}
		String message = error.getBody().getDetail();
		String path = ex instanceof MissingServletRequestParameterException missing ? missing.getParameterName() : "$";
		return ApiProblems.status(error.getStatusCode())
			.headers(error.getHeaders())
			.body(ApiProblems.detail(error.getStatusCode(), List.of(new Problem(path,
					message == null ? HttpStatus.valueOf(error.getStatusCode().value()).getReasonPhrase() : message))));
	}

}
