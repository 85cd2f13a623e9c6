package dev.parity.site;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Collections;
import java.util.List;

import dev.parity.ParityTest;
import dev.parity.RawHttp;
import dev.parity.TestUploads;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * Hostile request shapes: a forged Host, absurd page numbers, line breaks in redirect
 * targets. 4xx, never 500 or the forged host.
 */
@ParityTest
class RequestShapeTests {

	static final String FORGED = "evil.example";

	@Autowired
	MockMvc mvc;

	@LocalServerPort
	int port;

	String reference;

	String control;

	@BeforeEach
	void runs() throws Exception {
		reference = TestUploads.upload(mvc, "reference.json");
		control = TestUploads.upload(mvc, "run-e-control.json");
	}

	@Test
	void aForgedHostHeaderShapesNoLinkNorTheApiDescription() throws Exception {
		RawHttp http = new RawHttp(port);
		String pair = reference + "..." + control;
		for (String target : List.of("/runs/" + control, "/api/runs/" + control, "/runs/" + control + "/export.md",
				"/runs/" + control + "/export.csv", "/compare/" + pair, "/api/compare/" + pair,
				"/compare/" + pair + "/export.md", "/compare/" + pair + "/export.json", "/api/openapi", "/runs",
				"/api/runs")) {
			RawHttp.Answer answer = http.get(target, "Host: " + FORGED);
			assertThat(answer.status()).as(target).isEqualTo(200);
			assertThat(answer.body()).as(target).doesNotContain(FORGED);
			assertThat(answer.headers().toString()).as(target).doesNotContain(FORGED);
		}
	}

	/**
	 * Issue 23, finding 13: the sign-in redirect, the redirect back to the page that
	 * asked for it, and the actuator's answers take no host from the {@code Host} header.
	 */
	@Test
	void aForgedHostHeaderShapesNoRedirectNorActuatorLink() throws Exception {
		RawHttp http = new RawHttp(port);
		String host = "Host: " + FORGED;
		RawHttp.Answer toLogin = http.get("/upload", host, "Accept: text/html");
		assertThat(toLogin.status()).isEqualTo(302);
		assertThat(toLogin.header("Location")).containsExactly("/login");
		String cookie = toLogin.sessionCookie();
		RawHttp.Answer form = http.get("/login", host, "Cookie: " + cookie);
		String session = form.sessionCookie() == null ? cookie : form.sessionCookie();
		RawHttp.Answer signedIn = http.send("POST", "/login",
				List.of(host, "Cookie: " + session, "Content-Type: application/x-www-form-urlencoded"),
				"username=" + USER + "&password=" + URLEncoder.encode(PASSWORD, StandardCharsets.UTF_8) + "&_csrf="
						+ URLEncoder.encode(form.csrfToken(), StandardCharsets.UTF_8));
		assertThat(signedIn.status()).isEqualTo(302);
		assertThat(signedIn.header("Location")).singleElement().satisfies(l -> assertThat(l).startsWith("/upload"));
		for (String target : List.of("/actuator", "/actuator/health", "/actuator/prometheus")) {
			RawHttp.Answer answer = http.get(target, host, "Authorization: Basic "
					+ Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8)));
			assertThat(answer.body()).as(target).doesNotContain(FORGED);
			assertThat(answer.headers().toString()).as(target).doesNotContain(FORGED);
		}
		assertThat(http.get("/actuator/health", host).status()).isEqualTo(200);
	}

	@Test
	void pageNumbersOutOfRangeOrNotNumbersAre400() throws Exception {
		for (String path : List.of("/runs", "/api/runs")) {
			for (String page : List.of("2147483647", "-1", "abc", "99999999999", "1.5")) {
				MvcResult result = mvc
					.perform(get(path).param("page", page)
						.accept(path.startsWith("/api") ? MediaType.APPLICATION_JSON : MediaType.TEXT_HTML))
					.andReturn();
				assertThat(result.getResponse().getStatus()).as(path + "?page=" + page).isEqualTo(400);
				assertThat(result.getResponse().getContentAsString() + result.getResponse().getErrorMessage())
					.as(path + "?page=" + page)
					.containsIgnoringCase("page");
			}
			assertThat(mvc.perform(get(path).param("page", "3")).andReturn().getResponse().getStatus()).isEqualTo(200);
		}
		for (String size : List.of("abc", "99999999999")) {
			assertThat(mvc.perform(get("/api/runs").param("size", size)).andReturn().getResponse().getStatus())
				.as("size=" + size)
				.isEqualTo(400);
		}
		assertThat(mvc.perform(get("/api/runs").param("size", "100000")).andReturn().getResponse().getStatus())
			.isEqualTo(200);
	}

	@Test
	void aSearchTakesAtMost32Words() throws Exception {
		String many = String.join(" ", Collections.nCopies(2500, "a"));
		String limit = String.join(" ", Collections.nCopies(32, "zz"));
		for (String path : List.of("/runs", "/api/runs")) {
			MvcResult tooMany = mvc.perform(get(path).param("q", many)).andReturn();
			assertThat(tooMany.getResponse().getStatus()).as(path).isEqualTo(400);
			assertThat(tooMany.getResponse().getContentAsString() + tooMany.getResponse().getErrorMessage()).as(path)
				.contains("q takes at most 32 words, not 2500");
			MvcResult atTheLimit = mvc.perform(get(path).param("q", limit)).andReturn();
			assertThat(atTheLimit.getResponse().getStatus()).as(path).isEqualTo(200);
		}
	}

	@Test
	void lineBreaksInRedirectTargetsAre400() throws Exception {
		RawHttp http = new RawHttp(port);
		for (String target : List.of("/compare?baseline=" + reference + "%0D%0ASet-Cookie:%20x=1&contender=" + control,
				"/compare?baseline=" + reference + "&contender=" + control + "%0ALocation:%20http://evil.example",
				"/compare?baseline=" + reference + "%0D&contender=" + control)) {
			RawHttp.Answer answer = http.get(target);
			assertThat(answer.status()).as(target).isEqualTo(400);
			assertThat(answer.headers().toString()).doesNotContain("x=1").doesNotContain("evil.example");
		}
		// The sign-in redirect keeps the request's URL as it came, encoded: no header is
		// split.
		RawHttp.Answer toLogin = http.get("/account?next=%0D%0AX-Evil:%201", "Accept: text/html");
		assertThat(toLogin.status()).isEqualTo(302);
		assertThat(toLogin.header("X-Evil")).isEmpty();
		String caveat = caveat();
		for (String back : List.of("/runs\r\nSet-Cookie: x=1", "/runs\nLocation: http://evil.example", "/runs\r")) {
			MvcResult result = mvc
				.perform(post("/caveats/{id}/status", caveat).param("status", "confirmed")
					.param("reason", "seen")
					.param("back", back)
					.with(httpBasic(USER, PASSWORD))
					.with(csrf()))
				.andReturn();
			assertThat(result.getResponse().getStatus()).as(back).isEqualTo(400);
		}
		MvcResult badQuery = mvc
			.perform(post("/compare/{pair}/caveats", reference + "..." + control).param("text", "q")
				.param("query", "?x=%zz")
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andReturn();
		assertThat(badQuery.getResponse().getStatus()).isEqualTo(400);
	}

	private String caveat() throws Exception {
		MvcResult result = mvc
			.perform(post("/compare/" + reference + "..." + control + "/caveats").param("text", "a hypothesis")
				.param("deciding_experiment", "try it")
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andReturn();
		String location = result.getResponse().getRedirectedUrl();
		return location.substring(location.indexOf("#caveat-") + 8);
	}

}
