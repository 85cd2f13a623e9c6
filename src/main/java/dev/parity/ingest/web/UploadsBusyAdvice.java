package dev.parity.ingest.web;

import java.util.Map;

import dev.parity.ingest.UploadsBusy;
import dev.parity.web.ApiProblems;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

/**
 * No turn to store an upload came in time ({@link UploadsBusy}), from the form or the
 * API: 503 with {@code Retry-After}, the "busy" page for a browser, problem details (with
 * {@code errors}) for the API and scripts. Nothing was stored. Never a 500.
 */
@ControllerAdvice
class UploadsBusyAdvice {

	@ExceptionHandler(UploadsBusy.class)
	Object busy(UploadsBusy busy, HttpServletRequest request, HttpServletResponse response) {
		return ApiProblems.busy(request, response, UploadsBusy.RETRY_AFTER_SECONDS, String.valueOf(busy.getMessage()),
				Map.of("heading", "Busy storing other uploads", "detail",
						"The same file sent again is stored once: the same bytes never make a second run."));
	}

}
