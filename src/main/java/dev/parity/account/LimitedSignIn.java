package dev.parity.account;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.parity.web.ApiProblems;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.dao.DaoAuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.security.web.authentication.WebAuthenticationDetails;

/**
 * Password sign-in (form and HTTP Basic alike), asking the {@link SignInLimiter} first.
 * The limit applies where the user name and password are checked, so no spelling of the
 * {@code Authorization} header, of the user name or of the {@code /login} path goes
 * around it.
 */
class LimitedSignIn extends DaoAuthenticationProvider {

	private final SignInLimiter limiter;

	LimitedSignIn(AppUsers users, SignInLimiter limiter) {
		super(username -> users.findByUsername(username)
			.map(SignedInUser::new)
			.orElseThrow(() -> new UsernameNotFoundException(username)));
		this.limiter = limiter;
	}

	@Override
	public Authentication authenticate(Authentication authentication) {
		String username = String.valueOf(authentication.getName());
		String source = authentication.getDetails() instanceof WebAuthenticationDetails details
				&& details.getRemoteAddress() != null ? details.getRemoteAddress() : "unknown";
		Duration wait = limiter.refusedFor(username, source);
		if (!wait.isNegative() && !wait.isZero()) {
			throw new Refused(wait);
		}
		try {
			Object password = authentication.getCredentials();
			if (password instanceof String text
					&& text.getBytes(StandardCharsets.UTF_8).length > PasswordPolicy.MAX_BYTES) {
				// No password can be that long (bcrypt reads 72 bytes): wrong, without
				// asking bcrypt, which refuses it.
				throw new BadCredentialsException("Bad credentials");
			}
			Authentication result = super.authenticate(authentication);
			limiter.succeeded(username, source);
			return result;
		}
		catch (BadCredentialsException ex) {
			limiter.failed(username, source);
			throw ex;
		}
	}

	/**
	 * A sign-in refused by the limit, before the password was looked at: 429 with
	 * Retry-After.
	 */
	static final class Refused extends AuthenticationException {

		private final Duration wait;

		Refused(Duration wait) {
			super("Too many failed sign-in attempts for this user: try again later.");
			this.wait = wait;
		}

		void answer(HttpServletRequest request, HttpServletResponse response) throws IOException {
			response.setHeader(HttpHeaders.RETRY_AFTER, String.valueOf(Math.max(1, (wait.toMillis() + 999) / 1000)));
			if (ApiProblems.isApi(request)) {
				ApiProblems.write(request, response, HttpStatus.TOO_MANY_REQUESTS.value(), getMessage());
				return;
			}
			response.setStatus(HttpStatus.TOO_MANY_REQUESTS.value());
			response.setContentType("text/plain;charset=UTF-8");
			response.getWriter().write(getMessage());
		}

	}

}
