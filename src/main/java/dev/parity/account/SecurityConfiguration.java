package dev.parity.account;

import java.io.IOException;
import java.util.Set;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;
import org.springframework.security.web.authentication.SimpleUrlAuthenticationFailureHandler;
import org.springframework.security.web.authentication.www.BasicAuthenticationEntryPoint;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.security.web.csrf.CsrfException;
import org.springframework.security.web.header.writers.ContentSecurityPolicyHeaderWriter;
import org.springframework.security.web.header.writers.DelegatingRequestMatcherHeaderWriter;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter;
import org.springframework.security.web.header.writers.frameoptions.XFrameOptionsHeaderWriter;
import org.springframework.security.web.util.matcher.AndRequestMatcher;
import org.springframework.security.web.util.matcher.MediaTypeRequestMatcher;
import org.springframework.security.web.util.matcher.NegatedRequestMatcher;
import org.springframework.security.web.util.matcher.RequestHeaderRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.util.StringUtils;
import org.springframework.web.accept.HeaderContentNegotiationStrategy;

import dev.parity.web.ApiProblems;

/**
 * Reading is public (unless {@code parity.public-read=false}); every write needs a
 * signed-in user with the right role: uploaders write runs, caveats and publications;
 * admins also retract and manage users. Form login for pages (CSRF on every form), HTTP
 * Basic and bearer tokens for the API (CSRF too for an API call that only the session
 * cookie signs in). Sign-in is limited ({@link SignInLimiter}); a changed or disabled
 * account ends its sessions ({@link CurrentAccountFilter}). A Content-Security-Policy
 * without inline script, and the usual security headers.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

	static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; "
			+ "img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
			+ "form-action 'self'; frame-ancestors 'none'";

	/**
	 * Embeds ({@code /embed/…}) are made to be framed by blogs on other sites: the same
	 * policy, any site may frame them. They hold no form and no action, so framing them
	 * lends a visitor's clicks to nothing.
	 */
	static final String EMBED_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace("frame-ancestors 'none'",
			"frame-ancestors *");

	private static final RequestMatcher EMBED = request -> request.getRequestURI().startsWith("/embed/");

	private static final RequestMatcher API = request -> request.getRequestURI().startsWith("/api/");

	private static final RequestMatcher ACTUATOR = request -> request.getRequestURI().startsWith("/actuator/");

	/**
	 * Who may read.
	 *
	 * @param publicRead whether anonymous visitors may read (the default); {@code false}
	 * requires a sign-in for reading
	 */
	@ConfigurationProperties("parity")
	record AccessProperties(Boolean publicRead) {

		AccessProperties {
			publicRead = publicRead == null ? Boolean.TRUE : publicRead;
		}
	}

	@Bean
	SecurityFilterChain securityFilterChain(HttpSecurity http, ApiTokens tokens, JdbcClient jdbc,
			AccessProperties access) throws Exception {
		http.authorizeHttpRequests(requests -> {
			requests
				.requestMatchers("/login", "/logout", "/error", "/css/**", "/js/**", "/webjars/**",
						"/actuator/health/**")
				.permitAll()
				.requestMatchers("/upload", "/upload/**", "/account", "/account/**")
				.hasAnyRole("UPLOADER", "ADMIN")
				.requestMatchers("/admin", "/admin/**", "/api/admin/**")
				.hasRole("ADMIN")
				// Metrics are for the operators' scraper: any account (a viewer is
				// enough), never anonymous.
				.requestMatchers("/actuator/prometheus")
				.hasAnyRole("VIEWER", "UPLOADER", "ADMIN")
				.requestMatchers(HttpMethod.POST, "/runs/*/retract", "/published/*/retract")
				.hasRole("ADMIN");
			if (access.publicRead()) {
				requests.requestMatchers(HttpMethod.GET, "/**")
					.permitAll()
					.requestMatchers(HttpMethod.HEAD, "/**")
					.permitAll();
			}
			else {
				requests.requestMatchers(HttpMethod.GET, "/**")
					.hasAnyRole("VIEWER", "UPLOADER", "ADMIN")
					.requestMatchers(HttpMethod.HEAD, "/**")
					.hasAnyRole("VIEWER", "UPLOADER", "ADMIN");
			}
			requests.anyRequest().hasAnyRole("UPLOADER", "ADMIN");
		})
			.formLogin(form -> form.loginPage("/login")
				.permitAll()
				.failureHandler(SecurityConfiguration::formSignInFailed)
				.successHandler(new BackToPage()))
			.logout(logout -> logout.logoutSuccessUrl("/"))
			.httpBasic(basic -> basic.realmName("Parity")
				.authenticationEntryPoint(SecurityConfiguration::basicSignInFailed))
			// Scripts calling the API with HTTP Basic or a bearer token need no CSRF
			// token (a page on another site
			// cannot send that header); a call carried by the session cookie alone needs
			// one, like every form.
			.csrf(csrf -> csrf.ignoringRequestMatchers(SCRIPT_CALL))
			.exceptionHandling(
					errors -> errors.defaultAuthenticationEntryPointFor(SecurityConfiguration::apiSignInNeeded, API)
						.defaultAccessDeniedHandlerFor(SecurityConfiguration::apiRefused, API)
						.defaultAuthenticationEntryPointFor(SecurityConfiguration::basicSignInFailed, ACTUATOR)
						// Before the form login's own entry point, for the requests it
						// answers:
						// to the sign-in page by a
						// relative link (its own builds an absolute one from the Host
						// header,
						// which anybody can forge).
						.defaultAuthenticationEntryPointFor(signInPage(), PAGE))
			.addFilterBefore(new BearerTokenFilter(tokens), BasicAuthenticationFilter.class)
			.addFilterBefore(new CurrentAccountFilter(jdbc), AnonymousAuthenticationFilter.class)
			// Strict-Transport-Security is written (by default) on requests that arrived
			// over TLS.
			// Framing is refused everywhere but under /embed/.
			.headers(headers -> headers.frameOptions(frame -> frame.disable())
				.addHeaderWriter(new DelegatingRequestMatcherHeaderWriter(new NegatedRequestMatcher(EMBED),
						new XFrameOptionsHeaderWriter(XFrameOptionsHeaderWriter.XFrameOptionsMode.DENY)))
				.addHeaderWriter(new DelegatingRequestMatcherHeaderWriter(new NegatedRequestMatcher(EMBED),
						new ContentSecurityPolicyHeaderWriter(CONTENT_SECURITY_POLICY)))
				.addHeaderWriter(new DelegatingRequestMatcherHeaderWriter(EMBED,
						new ContentSecurityPolicyHeaderWriter(EMBED_CONTENT_SECURITY_POLICY)))
				.referrerPolicy(referrer -> referrer.policy(ReferrerPolicyHeaderWriter.ReferrerPolicy.SAME_ORIGIN)));
		return http.build();
	}

	@Bean
	PasswordEncoder passwordEncoder() {
		// bcrypt by default, with the algorithm named in each stored hash so it can be
		// upgraded later
		return PasswordEncoderFactories.createDelegatingPasswordEncoder();
	}

	/**
	 * The only way to sign in with a password: there is no other provider (nor a
	 * UserDetailsService) to fall back to.
	 */
	@Bean
	AuthenticationProvider passwordSignIn(AppUsers users, SignInLimiter limiter, PasswordEncoder passwordEncoder) {
		LimitedSignIn provider = new LimitedSignIn(users, limiter);
		provider.setPasswordEncoder(passwordEncoder);
		return provider;
	}

	/**
	 * An API request that carries its own credentials, in the header that the Basic or
	 * the bearer filter reads.
	 */
	private static boolean carriesCredentials(HttpServletRequest request) {
		String header = request.getHeader(HttpHeaders.AUTHORIZATION);
		return header != null && (StringUtils.startsWithIgnoreCase(header.trim(), "Basic")
				|| header.regionMatches(true, 0, "Bearer ", 0, 7));
	}

	/**
	 * An API call that the session cookie cannot sign in: one with its own credentials,
	 * or without a session (refused with 401 when it needs a user, rather than 403 for a
	 * missing CSRF token).
	 */
	private static final RequestMatcher SCRIPT_CALL = request -> API.matches(request)
			&& (carriesCredentials(request) || request.getSession(false) == null);

	/**
	 * The requests that the form login sends to the sign-in page: those of a browser, as
	 * its configurer matches them.
	 */
	private static final RequestMatcher PAGE = pageRequests();

	private static final BasicAuthenticationEntryPoint BASIC = basicEntryPoint();

	private static RequestMatcher pageRequests() {
		MediaTypeRequestMatcher media = new MediaTypeRequestMatcher(new HeaderContentNegotiationStrategy(),
				MediaType.APPLICATION_XHTML_XML, new MediaType("image", "*"), MediaType.TEXT_HTML,
				MediaType.TEXT_PLAIN);
		media.setIgnoredMediaTypes(Set.of(MediaType.ALL));
		return new AndRequestMatcher(
				new NegatedRequestMatcher(new RequestHeaderRequestMatcher("X-Requested-With", "XMLHttpRequest")),
				media);
	}

	private static LoginUrlAuthenticationEntryPoint signInPage() {
		LoginUrlAuthenticationEntryPoint entryPoint = new LoginUrlAuthenticationEntryPoint("/login");
		entryPoint.setFavorRelativeUris(true);
		return entryPoint;
	}

	private static BasicAuthenticationEntryPoint basicEntryPoint() {
		BasicAuthenticationEntryPoint entryPoint = new BasicAuthenticationEntryPoint();
		entryPoint.setRealmName("Parity");
		return entryPoint;
	}

	private static void basicSignInFailed(HttpServletRequest request, HttpServletResponse response,
			AuthenticationException ex) throws IOException {
		if (ex instanceof LimitedSignIn.Refused refused) {
			refused.answer(request, response);
			return;
		}
		if (API.matches(request)) {
			response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Basic realm=\"Parity\"");
			ApiProblems.write(request, response, HttpStatus.UNAUTHORIZED.value(), "the user name or password is wrong");
			return;
		}
		BASIC.commence(request, response, ex);
	}

	/**
	 * An API request without credentials that needs an account: 401 as problem details
	 * (with no {@code WWW-Authenticate}, so that a page's script never makes the browser
	 * ask for a password).
	 */
	private static void apiSignInNeeded(HttpServletRequest request, HttpServletResponse response,
			AuthenticationException ex) throws IOException {
		ApiProblems.write(request, response, HttpStatus.UNAUTHORIZED.value(),
				"this needs an account: send HTTP Basic credentials or an API token (Authorization: Bearer …)");
	}

	/**
	 * An API request that its account may not make, or a session's call without its CSRF
	 * token: 403 as problem details saying which.
	 */
	private static void apiRefused(HttpServletRequest request, HttpServletResponse response, AccessDeniedException ex)
			throws IOException {
		String message = ex instanceof CsrfException
				? "a call signed in by the session cookie needs the CSRF token (header X-CSRF-TOKEN); "
						+ "scripts send HTTP Basic credentials or an API token instead"
				: "your account's role does not allow this request";
		ApiProblems.write(request, response, HttpStatus.FORBIDDEN.value(), message);
	}

	private static void formSignInFailed(HttpServletRequest request, HttpServletResponse response,
			AuthenticationException ex) throws IOException, ServletException {
		if (ex instanceof LimitedSignIn.Refused refused) {
			refused.answer(request, response);
			return;
		}
		new SimpleUrlAuthenticationFailureHandler(BackToPage.afterFailure(request)).onAuthenticationFailure(request,
				response, ex);
	}

}
