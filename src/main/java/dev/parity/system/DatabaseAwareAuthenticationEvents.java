package dev.parity.system;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.security.authentication.AuthenticationEventPublisher;
import org.springframework.security.authentication.DefaultAuthenticationEventPublisher;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.stereotype.Component;

/**
 * Publishes sign-in events as Spring Security does, except for a sign-in that failed
 * because the database is away: that is no failed sign-in. Spring Security would answer
 * it as wrong credentials (401, or the login form again), so a script would be told its
 * password is wrong while the database restarts, and would not retry; and a rate limit
 * would count it. Its cause is thrown instead, out of the security filters, and
 * {@link DatabaseUnavailableFilter} answers 503 with {@code Retry-After}.
 */
@Component
class DatabaseAwareAuthenticationEvents implements AuthenticationEventPublisher {

	private final DefaultAuthenticationEventPublisher events;

	DatabaseAwareAuthenticationEvents(ApplicationEventPublisher publisher) {
		this.events = new DefaultAuthenticationEventPublisher(publisher);
	}

	@Override
	public void publishAuthenticationSuccess(Authentication authentication) {
		events.publishAuthenticationSuccess(authentication);
	}

	@Override
	public void publishAuthenticationFailure(AuthenticationException exception, Authentication authentication) {
		if (exception.getCause() instanceof RuntimeException cause
				&& DatabaseUnavailableAdvice.isDatabaseUnavailable(cause)) {
			throw cause;
		}
		events.publishAuthenticationFailure(exception, authentication);
	}

}
