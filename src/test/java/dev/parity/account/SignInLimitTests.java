package dev.parity.account;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

import dev.parity.ParityTest;
import dev.parity.RawHttp;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.RequestPostProcessor;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Sign-in limiting: no spelling of the credentials or of {@code /login} goes around it,
 * an attacker cannot lock a user out from everywhere, and what it remembers stays
 * bounded.
 */
@ParityTest
class SignInLimitTests {

	static final String RIGHT = "the-right-password-3";

	@Autowired
	MockMvc mvc;

	@Autowired
	SignInLimiter limiter;

	@Autowired
	JdbcClient jdbc;

	@LocalServerPort
	int port;

	@Test
	void noSpellingOfTheCredentialsGoesAroundTheLimit() throws Exception {
		String name = lockedOut();
		String basic = Base64.getEncoder().encodeToString((name + ":" + RIGHT).getBytes(StandardCharsets.UTF_8));
		String spaced = Base64.getEncoder().encodeToString((" " + name + ":" + RIGHT).getBytes(StandardCharsets.UTF_8));
		for (String authorization : List.of("Basic " + basic, "Basic\t" + basic, "Basicx" + basic, "BASIC " + basic,
				"Basic " + spaced)) {
			mvc.perform(get("/account").header("Authorization", authorization))
				.andExpect(status().isTooManyRequests())
				.andExpect(header().exists("Retry-After"));
		}
		// Not a credential Spring Security can read: refused, and not a way in either.
		mvc.perform(get("/account").header("Authorization", "Basic  " + basic)).andExpect(status().isUnauthorized());
		for (String spelled : List.of(name, " " + name, name + " ", name.toUpperCase(Locale.ROOT))) {
			mvc.perform(post("/login").param("username", spelled).param("password", RIGHT).with(csrf()))
				.andExpect(status().isTooManyRequests());
		}
	}

	@Test
	void aPercentEncodedLoginPathIsLimitedToo() throws Exception {
		String name = lockedOut();
		RawHttp http = new RawHttp(port);
		for (String path : List.of("/login", "/%6Cogin", "/%6c%6F%67%69%6E")) {
			RawHttp.Answer form = http.get("/login");
			String body = "username=" + URLEncoder.encode(name, StandardCharsets.UTF_8) + "&password=" + RIGHT
					+ "&_csrf=" + URLEncoder.encode(form.csrfToken(), StandardCharsets.UTF_8);
			RawHttp.Answer answer = http.send("POST", path,
					List.of("Cookie: " + form.sessionCookie(), "Content-Type: application/x-www-form-urlencoded"),
					body);
			assertThat(answer.status()).as(path).isEqualTo(429);
		}
	}

	@Test
	void anAttackerFromOneAddressCannotLockTheUserOutFromAnother() throws Exception {
		String name = lockedOut();
		mvc.perform(get("/account").with(httpBasic(name, RIGHT)).with(from("198.51.100.20")))
			.andExpect(status().isOk());
		mvc.perform(post("/login").param("username", name)
			.param("password", RIGHT)
			.with(csrf())
			.with(from("198.51.100.21"))).andExpect(status().is3xxRedirection());
	}

	@Test
	void failuresFromManyAddressesSlowTheUserNameDownByABackOffOnly() throws Exception {
		String name = SecurityTestUsers.add(mvc, "spread", RIGHT);
		int refused = 0;
		for (int i = 0; i < 60; i++) {
			int status = mvc.perform(get("/account").with(httpBasic(name, "wrong-" + i)).with(from("192.0.2." + i)))
				.andReturn()
				.getResponse()
				.getStatus();
			refused += status == 429 ? 1 : 0;
		}
		assertThat(refused).as("a back-off per user name once many addresses failed").isPositive();
		Duration wait = limiter.refusedFor(name, "192.0.2.200");
		assertThat(wait).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(5));
	}

	/**
	 * Issue 23, finding 7: failures spread over many addresses (20 from 4 addresses, then
	 * more from others) slow the user name down for addresses it never signed in from,
	 * but never keep its owner out where they signed in before; and the owner's sign-in
	 * gives the attacker no new guesses.
	 */
	@Test
	void failuresSpreadOverAddressesCannotKeepTheOwnerOutWhereTheySignedInBefore() throws Exception {
		String name = SecurityTestUsers.add(mvc, "owner", RIGHT);
		String home = "198.51.100.77";
		mvc.perform(get("/account").with(httpBasic(name, RIGHT)).with(from(home))).andExpect(status().isOk());
		for (int i = 0; i < 20; i++) {
			mvc.perform(get("/account").with(httpBasic(name, "wrong-" + i)).with(from("192.0.2." + (100 + i / 5))))
				.andExpect(status().isUnauthorized());
		}
		for (int i = 0; i < 10; i++) {
			mvc.perform(get("/account").with(httpBasic(name, "wrong-again-" + i)).with(from("192.0.2." + (120 + i))));
		}
		assertThat(limiter.refusedFor(name, "192.0.2.250")).as("guesses from elsewhere are slowed").isPositive();
		mvc.perform(get("/account").with(httpBasic(name, "wrong-last")).with(from("192.0.2.251")))
			.andExpect(status().isTooManyRequests());
		mvc.perform(get("/account").with(httpBasic(name, RIGHT)).with(from(home))).andExpect(status().isOk());
		mvc.perform(post("/login").param("username", name).param("password", RIGHT).with(csrf()).with(from(home)))
			.andExpect(status().is3xxRedirection())
			.andExpect(header().string("Location", "/"));
		assertThat(limiter.refusedFor(name, "192.0.2.252")).as("the owner's sign-in resets nothing for others")
			.isPositive();
		// A wrong password from the owner's own address is still counted there, as from
		// any address.
		assertThat(limiter.refusedFor(name, home)).isZero();
	}

	@Test
	void whatTheLimiterRemembersStaysBounded() {
		DatabaseSignInLimiter database = (DatabaseSignInLimiter) limiter;
		// Twice as many names and pairs as it keeps (each failure is one statement to the
		// shared database)
		int names = 2 * database.maxTracked();
		for (int i = 0; i < names; i++) {
			limiter.failed("nobody-" + i, "10.1." + (i % 250) + "." + (i / 250 % 250));
		}
		limiter.failed("x".repeat(1_000_000), "10.9.9.9");
		limiter.failed("nul\u0000and\ud800unpaired", "10.9.9.9");
		assertThat(database.tracked()).isLessThanOrEqualTo(2L * database.maxTracked());
		assertThat(database.maxTracked()).isLessThan(100_000);
	}

	@Test
	void everyInstanceCountsTheSameFailures() throws Exception {
		String name = lockedOut();
		// Another instance of the deployment: its own limiter, the same database.
		SignInLimiter otherInstance = new DatabaseSignInLimiter(
				new DatabaseSignInLimiter.LoginLimits(0, null, 0, null, 0, null), jdbc);
		assertThat(otherInstance.refusedFor(name, "127.0.0.1")).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(5));
		assertThat(otherInstance.refusedFor(name, "198.51.100.30")).isZero();
		otherInstance.succeeded(name, "127.0.0.1");
		assertThat(limiter.refusedFor(name, "127.0.0.1")).isZero();
	}

	@Test
	void theTestAdministratorIsNotLockedOutByAnyOfThis() throws Exception {
		mvc.perform(get("/account").with(httpBasic(USER, PASSWORD))).andExpect(status().isOk());
	}

	/**
	 * A new user with five failed sign-ins from the default address (127.0.0.1): locked
	 * out there.
	 */
	private String lockedOut() throws Exception {
		String name = SecurityTestUsers.add(mvc, "target", RIGHT);
		for (int i = 0; i < 5; i++) {
			mvc.perform(get("/account").with(httpBasic(name, "wrong-" + i))).andExpect(status().isUnauthorized());
		}
		mvc.perform(get("/account").with(httpBasic(name, RIGHT))).andExpect(status().isTooManyRequests());
		return name;
	}

	private static RequestPostProcessor from(String address) {
		return request -> {
			request.setRemoteAddr(address);
			return request;
		};
	}

}
