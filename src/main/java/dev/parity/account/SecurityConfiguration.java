package dev.parity.account;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.HttpStatusEntryPoint;
import org.springframework.security.web.authentication.UsernamePasswordAuthenticationFilter;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Reading is public (unless {@code parity.public-read=false}); every write needs a signed-in user with
 * the right role: uploaders write runs, caveats and publications; admins also retract and manage users.
 * Form login for pages (CSRF on every form), HTTP Basic and bearer tokens for the API. A
 * Content-Security-Policy without inline script, and the usual security headers.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

	static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; "
			+ "img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
			+ "form-action 'self'; frame-ancestors 'none'";

	private static final RequestMatcher API = request -> request.getRequestURI().startsWith("/api/");

	/**
	 * Who may read.
	 *
	 * @param publicRead whether anonymous visitors may read (the default); {@code false} requires a sign-in for reading
	 */
	@ConfigurationProperties("parity")
	record AccessProperties(Boolean publicRead) {

		AccessProperties {
			publicRead = publicRead == null ? Boolean.TRUE : publicRead;
		}
	}

	@Bean
	SecurityFilterChain securityFilterChain(HttpSecurity http, ApiTokens tokens, LoginAttempts attempts,
			AccessProperties access) throws Exception {
		http.authorizeHttpRequests(requests -> {
			requests.requestMatchers("/login", "/logout", "/error", "/css/**", "/js/**", "/webjars/**", "/actuator/health/**")
				.permitAll()
				.requestMatchers("/upload", "/upload/**", "/account", "/account/**").hasAnyRole("UPLOADER", "ADMIN")
				.requestMatchers("/admin", "/admin/**", "/api/admin/**").hasRole("ADMIN")
				.requestMatchers(HttpMethod.POST, "/runs/*/retract", "/published/*/retract").hasRole("ADMIN");
			if (access.publicRead()) {
				requests.requestMatchers(HttpMethod.GET, "/**").permitAll().requestMatchers(HttpMethod.HEAD, "/**").permitAll();
			}
			else {
				requests.requestMatchers(HttpMethod.GET, "/**").hasAnyRole("VIEWER", "UPLOADER", "ADMIN")
					.requestMatchers(HttpMethod.HEAD, "/**").hasAnyRole("VIEWER", "UPLOADER", "ADMIN");
			}
			requests.anyRequest().hasAnyRole("UPLOADER", "ADMIN");
		})
			.formLogin(form -> form.loginPage("/login").permitAll().successHandler(new BackToPage()))
			.logout(logout -> logout.logoutSuccessUrl("/"))
			.httpBasic(basic -> basic.realmName("Parity"))
			// The API is for scripts: no CSRF token, and a 401 instead of a login page.
			.csrf(csrf -> csrf.ignoringRequestMatchers(API))
			.exceptionHandling(errors -> errors.defaultAuthenticationEntryPointFor(
					new HttpStatusEntryPoint(HttpStatus.UNAUTHORIZED), API))
			.addFilterBefore(new BearerTokenFilter(tokens), BasicAuthenticationFilter.class)
			.addFilterBefore(new LoginRateLimitFilter(attempts), UsernamePasswordAuthenticationFilter.class)
			.headers(headers -> headers.contentSecurityPolicy(csp -> csp.policyDirectives(CONTENT_SECURITY_POLICY))
				.referrerPolicy(referrer -> referrer.policy(ReferrerPolicyHeaderWriter.ReferrerPolicy.SAME_ORIGIN))
				.frameOptions(frame -> frame.deny()));
		return http.build();
	}

	@Bean
	PasswordEncoder passwordEncoder() {
		// bcrypt by default, with the algorithm named in each stored hash so it can be upgraded later
		return PasswordEncoderFactories.createDelegatingPasswordEncoder();
	}

	@Bean
	UserDetailsService userDetailsService(AppUsers users) {
		return username -> users.findByUsername(username)
			.map(user -> User.withUsername(user.getUsername())
				.password(user.getPasswordHash())
				.authorities(List.of(new SimpleGrantedAuthority("ROLE_" + user.getRole().toUpperCase(java.util.Locale.ROOT))))
				.build())
			.orElseThrow(() -> new UsernameNotFoundException(username));
	}

	/** Refuses sign-in attempts (form or HTTP Basic) for a user name with too many recent failures: 429. */
	static final class LoginRateLimitFilter extends OncePerRequestFilter {

		private final LoginAttempts attempts;

		LoginRateLimitFilter(LoginAttempts attempts) {
			this.attempts = attempts;
		}

		@Override
		protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
				throws ServletException, IOException {
			String username = null;
			if ("POST".equals(request.getMethod()) && "/login".equals(request.getRequestURI())) {
				username = request.getParameter("username");
			}
			String header = request.getHeader("Authorization");
			if (header != null && header.regionMatches(true, 0, "Basic ", 0, 6)) {
				try {
					String decoded = new String(java.util.Base64.getDecoder().decode(header.substring(6).strip()),
							java.nio.charset.StandardCharsets.UTF_8);
					username = decoded.contains(":") ? decoded.substring(0, decoded.indexOf(':')) : decoded;
				}
				catch (IllegalArgumentException ex) {
					username = null;
				}
			}
			if (username != null && attempts.blocked(username)) {
				response.setStatus(HttpStatus.TOO_MANY_REQUESTS.value());
				response.setHeader("Retry-After", String.valueOf(attempts.retryAfterSeconds()));
				response.setContentType("text/plain;charset=UTF-8");
				response.getWriter().write("Too many failed sign-in attempts for this user: try again later.");
				return;
			}
			chain.doFilter(request, response);
		}

	}

}
