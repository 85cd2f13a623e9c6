package dev.parity.account;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.web.DefaultRedirectStrategy;
import org.springframework.security.web.authentication.SavedRequestAwareAuthenticationSuccessHandler;

/**
 * After signing in, back to the page the "Sign in" link was followed from
 * ({@code continue}), when that is a path of this site; a page that asked for the sign-in
 * itself comes first, and anything else goes to the start page. The redirect is relative:
 * the page that asked was remembered with the {@code Host} header it came with, which
 * anybody can forge, so only its path and query are kept.
 */
final class BackToPage extends SavedRequestAwareAuthenticationSuccessHandler {

	static final String PARAMETER = "continue";

	BackToPage() {
		DefaultRedirectStrategy redirects = new DefaultRedirectStrategy();
		setRedirectStrategy((request, response, url) -> redirects.sendRedirect(request, response, pathOf(url)));
	}

	/** The path and query of a link, without its scheme and host. */
	static String pathOf(String url) {
		if (url.startsWith("/") && !url.startsWith("//")) {
			return url;
		}
		URI uri = URI.create(url);
		String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
		return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
	}

	@Override
	protected String determineTargetUrl(HttpServletRequest request, HttpServletResponse response) {
		String back = request.getParameter(PARAMETER);
		return isSitePath(back) ? back : super.determineTargetUrl(request, response);
	}

	/**
	 * Where a wrong password leads: the sign-in page again, with its {@code continue}
	 * kept when it is a path of this site, so that the next attempt still goes back to
	 * the page the user came from.
	 */
	static String afterFailure(HttpServletRequest request) {
		String back = request.getParameter(PARAMETER);
		return isSitePath(back) ? "/login?error&" + PARAMETER + "=" + URLEncoder.encode(back, StandardCharsets.UTF_8)
				: "/login?error";
	}

	/**
	 * A path on this site: "/…", never "//host", a backslash, a scheme or a control
	 * character, nor the login page.
	 */
	static boolean isSitePath(String path) {
		if (path == null || path.length() > 2000 || !path.startsWith("/") || path.startsWith("//")
				|| path.contains("\\") || path.startsWith("/login")) {
			return false;
		}
		return path.chars().noneMatch(c -> c < 0x20 || c == 0x7f);
	}

}
