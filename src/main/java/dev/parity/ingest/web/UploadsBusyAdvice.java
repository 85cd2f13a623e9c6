package dev.parity.ingest.web;

import java.util.Map;

import dev.parity.ingest.UploadsBusy;
import dev.parity.web.ApiProblems;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.servlet.ModelAndView;

/**
 * No turn to store an upload came in time ({@link UploadsBusy}), from the form or the
 * API: 503 with {@code Retry-After}, the "busy" page for a browser, problem details (with
 * {@code errors}) for the API and scripts. Nothing was stored. Never a 500.
 */
@ControllerAdvice
class UploadsBusyAdvice {

	@ExceptionHandler(UploadsBusy.class)
	Object busy(UploadsBusy busy, HttpServletRequest request, HttpServletResponse response) {
		response.setHeader(HttpHeaders.RETRY_AFTER, String.valueOf(UploadsBusy.RETRY_AFTER_SECONDS));
		String message = String.valueOf(busy.getMessage());
		if (ApiProblems.wantsPage(request)) {
			return new ModelAndView("error/busy",
					Map.of("pageTitle", "Busy", "message", message, "heading", "Busy storing other uploads", "detail",
							"Nothing was stored. Send the same file again in a few seconds: it is stored once."),
					HttpStatus.SERVICE_UNAVAILABLE);
		}
		return ApiProblems.of(HttpStatus.SERVICE_UNAVAILABLE, "$", message);
	}

}
