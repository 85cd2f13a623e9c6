package dev.parity.site;

import java.util.Map;

import dev.parity.snapshots.ComparisonsBusy;
import dev.parity.web.ApiProblems;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.servlet.ModelAndView;

/**
 * No turn to compute a comparison came in time ({@link ComparisonsBusy}), wherever it was
 * asked for — a comparison's page or JSON, its parts, a chart image, a CI verdict, a
 * publication: 503 with {@code Retry-After}, the "busy" page for a browser asking for a
 * page, problem details (with {@code errors}) for the API and scripts. Never a 500.
 */
@ControllerAdvice
class ComparisonsBusyAdvice {

	@ExceptionHandler(ComparisonsBusy.class)
	Object busy(ComparisonsBusy busy, HttpServletRequest request, HttpServletResponse response) {
		response.setHeader(HttpHeaders.RETRY_AFTER, String.valueOf(ComparisonsBusy.RETRY_AFTER_SECONDS));
		String message = String.valueOf(busy.getMessage());
		if (ApiProblems.wantsPage(request)) {
			return new ModelAndView("error/busy", Map.of("pageTitle", "Busy", "message", message),
					HttpStatus.SERVICE_UNAVAILABLE);
		}
		return ApiProblems.of(HttpStatus.SERVICE_UNAVAILABLE, "$", message);
	}

}
