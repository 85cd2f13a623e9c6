package dev.parity.account;

import java.util.List;

import dev.parity.ParityTest;
import dev.parity.RawHttp;
import dev.parity.TestUploads;
import jakarta.servlet.http.Cookie;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.multipart;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A page on another site cannot write through a signed-in browser; cookies and transport
 * headers as a browser needs.
 */
@ParityTest
class CrossSiteTests {

	static final String SECRET = "cross-site-secret-5";

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@LocalServerPort
	int port;

	@Test
	void anotherSitesFormCannotStoreARunWithTheSessionCookieButScriptsStillCan() throws Exception {
		String name = SecurityTestUsers.add(mvc, "browser", SECRET);
		MvcResult signedIn = mvc.perform(post("/login").param("username", name).param("password", SECRET).with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andReturn();
		// The session lives in the database; the browser holds its cookie.
		Cookie session = signedIn.getResponse().getCookie("JSESSIONID");
		TestUploads.RowCounts before = TestUploads.rows(jdbc);

		// What a cross-site form sends: the cookie, no CSRF token, no Authorization
		// header.
		mvc.perform(multipart("/api/runs/import")
			.file(new MockMultipartFile("files", "run.json", "application/json",
					TestUploads.fresh("run-b-effort-low.json")))
			.param("provenance", "{}")
			.cookie(session)).andExpect(status().isForbidden());
		mvc.perform(post("/api/runs").cookie(session)
			.contentType(MediaType.TEXT_PLAIN)
			.content(TestUploads.fresh("run-b-effort-low.json"))).andExpect(status().isForbidden());
		mvc.perform(post("/api/runs").cookie(session)
			.contentType(MediaType.APPLICATION_JSON)
			.content(TestUploads.fresh("run-b-effort-low.json"))).andExpect(status().isForbidden());
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);

		mvc.perform(post("/api/runs").with(httpBasic(name, SECRET))
			.contentType(MediaType.APPLICATION_JSON)
			.content(TestUploads.fresh("run-b-effort-low.json"))).andExpect(status().isCreated());
		MvcResult created = mvc
			.perform(post("/account/tokens").param("name", "ci").with(httpBasic(name, SECRET)).with(csrf()))
			.andReturn();
		String token = (String) created.getFlashMap().get("newToken");
		mvc.perform(post("/api/runs").header("Authorization", "Bearer " + token)
			.contentType(MediaType.APPLICATION_JSON)
			.content(TestUploads.fresh("run-c-effort-high.json"))).andExpect(status().isCreated());
		assertThat(TestUploads.rows(jdbc).runs()).isEqualTo(before.runs() + 2);
	}

	@Test
	void theSessionCookieIsSameSiteLaxAndNotSecureOverPlainHttp() throws Exception {
		RawHttp.Answer login = new RawHttp(port).get("/login");
		String cookie = login.header("Set-Cookie")
			.stream()
			.filter(c -> c.startsWith("JSESSIONID="))
			.findFirst()
			.orElseThrow();
		assertThat(cookie).containsIgnoringCase("SameSite=Lax")
			.containsIgnoringCase("HttpOnly")
			.doesNotContainIgnoringCase("Secure;")
			.doesNotEndWith("Secure");
	}

	@Test
	void strictTransportSecurityOnlyWhenTheRequestIsSecure() throws Exception {
		mvc.perform(get("/runs").secure(true)).andExpect(header().exists("Strict-Transport-Security"));
		mvc.perform(get("/runs")).andExpect(header().doesNotExist("Strict-Transport-Security"));
	}

	@Test
	void forwardedHeadersAreNotTrustedUnlessConfigured() throws Exception {
		RawHttp.Answer answer = new RawHttp(port).get("/login", "X-Forwarded-Proto: https",
				"X-Forwarded-For: 203.0.113.7", "X-Forwarded-Host: evil.example");
		assertThat(answer.header("Strict-Transport-Security")).isEmpty();
		assertThat(answer.header("Set-Cookie").toString()).doesNotContainIgnoringCase("Secure");
		assertThat(answer.body()).doesNotContain("evil.example");
		assertThat(List.of(answer.status())).containsExactly(200);
	}

	@Test
	void basicAndTokenWritesNeedNoCsrfToken() throws Exception {
		mvc.perform(multipart("/api/runs/import")
			.file(new MockMultipartFile("files", "x.json", "application/json", "{}".getBytes()))
			.with(httpBasic(USER, PASSWORD)))
			.andExpect(status().is4xxClientError())
			.andExpect(result -> assertThat(result.getResponse().getStatus()).isNotIn(401, 403));
	}

}
