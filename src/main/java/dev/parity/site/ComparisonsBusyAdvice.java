package dev.parity.site;

import java.util.Map;

import dev.parity.snapshots.ComparisonsBusy;
import dev.parity.web.ApiProblems;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

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
		return ApiProblems.busy(request, response, ComparisonsBusy.RETRY_AFTER_SECONDS,
				String.valueOf(busy.getMessage()), Map.of());
	}

}
