package dev.parity.account;

import dev.parity.RawHttp;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Behind a trusted proxy ({@code server.forward-headers-strategy=native}): a request the
 * proxy received over TLS gets Strict-Transport-Security and a Secure session cookie.
 * (Without the setting, see
 * {@link CrossSiteTests#forwardedHeadersAreNotTrustedUnlessConfigured}.)
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "server.forward-headers-strategy=native")
class ForwardedHeadersTests {

	@LocalServerPort
	int port;

	@Test
	void aRequestThatCameOverTlsToTheProxyGetsHstsAndASecureCookie() throws Exception {
		RawHttp.Answer secure = new RawHttp(port).get("/login", "X-Forwarded-Proto: https");
		assertThat(secure.status()).isEqualTo(200);
		assertThat(secure.header("Strict-Transport-Security")).isNotEmpty();
		String cookie = secure.header("Set-Cookie")
			.stream()
			.filter(c -> c.startsWith("JSESSIONID="))
			.findFirst()
			.orElseThrow();
		assertThat(cookie).containsIgnoringCase("Secure").containsIgnoringCase("SameSite=Lax");

		RawHttp.Answer plain = new RawHttp(port).get("/login");
		assertThat(plain.header("Strict-Transport-Security")).isEmpty();
		assertThat(plain.header("Set-Cookie").toString()).doesNotContainIgnoringCase("Secure");
	}

}
