package dev.parity.account;

import java.util.List;

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
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * Reading is public; every write needs a signed-in user: form login for pages (with CSRF on every
 * form), HTTP Basic for the API.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

	private static final RequestMatcher API = request -> request.getRequestURI().startsWith("/api/");

	@Bean
	SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
		http.authorizeHttpRequests(requests -> requests
			.requestMatchers("/upload", "/upload/**").authenticated()
			.requestMatchers("/admin/**", "/api/admin/**").hasRole("ADMIN")
			.requestMatchers(HttpMethod.GET, "/**").permitAll()
			.requestMatchers(HttpMethod.HEAD, "/**").permitAll()
			.requestMatchers("/login", "/logout", "/error").permitAll()
			.requestMatchers(HttpMethod.POST, "/runs/*/retract", "/published/*/retract").hasRole("ADMIN")
			.anyRequest().hasAnyRole("UPLOADER", "ADMIN"))
			.formLogin(form -> form.loginPage("/login").permitAll())
			.logout(logout -> logout.logoutSuccessUrl("/"))
			.httpBasic(basic -> basic.realmName("Parity"))
			// The API is for scripts: no session, no CSRF token, and a 401 instead of a login page.
			.csrf(csrf -> csrf.ignoringRequestMatchers(API))
			.exceptionHandling(errors -> errors.defaultAuthenticationEntryPointFor(
					new HttpStatusEntryPoint(HttpStatus.UNAUTHORIZED), API));
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

}
