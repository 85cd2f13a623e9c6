package dev.parity.account;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import dev.parity.web.ApiProblems;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * {@code Authorization: Bearer prt_…}: signs the request in as the token's owner, or
 * answers 401 at once for an unknown or revoked token.
 */
class BearerTokenFilter extends OncePerRequestFilter {

	private final ApiTokens tokens;

	BearerTokenFilter(ApiTokens tokens) {
		this.tokens = tokens;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String header = request.getHeader(HttpHeaders.AUTHORIZATION);
		if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
			chain.doFilter(request, response);
			return;
		}
		Optional<ApiTokens.TokenOwner> owner = tokens.authenticate(header.substring(7).strip());
		if (owner.isEmpty()) {
			response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"Parity\", error=\"invalid_token\"");
			ApiProblems.write(request, response, HttpServletResponse.SC_UNAUTHORIZED, "unknown or revoked API token");
			return;
		}
		SecurityContext context = SecurityContextHolder.createEmptyContext();
		context.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(owner.get().username(), null,
				List.of(new SimpleGrantedAuthority("ROLE_" + owner.get().role().toUpperCase(Locale.ROOT)))));
		SecurityContextHolder.setContext(context);
		try {
			chain.doFilter(request, response);
		}
		finally {
			SecurityContextHolder.clearContext();
		}
	}

}
