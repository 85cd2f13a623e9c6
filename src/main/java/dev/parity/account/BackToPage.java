package dev.parity.account;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.web.authentication.SavedRequestAwareAuthenticationSuccessHandler;

/**
 * After signing in, back to the page the "Sign in" link was followed from ({@code continue}), when that is a path
 * of this site; a page that asked for the sign-in itself comes first, and anything else goes to the start page.
 */
final class BackToPage extends SavedRequestAwareAuthenticationSuccessHandler {

	static final String PARAMETER = "continue";

	@Override
	protected String determineTargetUrl(HttpServletRequest request, HttpServletResponse response) {
		String back = request.getParameter(PARAMETER);
		return isSitePath(back) ? back : super.determineTargetUrl(request, response);
	}

	/** A path on this site: "/…", never "//host", a backslash, a scheme or a control character, nor the login page. */
	static boolean isSitePath(String path) {
		if (path == null || path.length() > 2000 || !path.startsWith("/") || path.startsWith("//") || path.contains("\\")
				|| path.startsWith("/login")) {
			return false;
		}
		return path.chars().noneMatch(c -> c < 0x20 || c == 0x7f);
	}

}
