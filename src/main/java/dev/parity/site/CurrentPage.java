package dev.parity.site;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;

/**
 * The path of the page being shown, for the "Sign in" link to come back to it after
 * signing in.
 */
@ControllerAdvice
class CurrentPage {

	@ModelAttribute("currentPath")
	@Nullable String currentPath(HttpServletRequest request) {
		if (!"GET".equals(request.getMethod()) || request.getRequestURI().startsWith("/login")) {
			return null;
		}
		return request.getRequestURI() + (request.getQueryString() == null ? "" : "?" + request.getQueryString());
	}

}
