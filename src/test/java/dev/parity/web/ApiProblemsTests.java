package dev.parity.web;

import java.util.UUID;

import com.jayway.jsonpath.JsonPath;
import jakarta.servlet.http.Cookie;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.startsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Every error of the API is one body: RFC 9457 problem details
 * ({@code application/problem+json}) with the status, its title, the first problem as
 * {@code detail}, the request's path as {@code instance} and every problem in
 * {@code errors}; pages keep their HTML error pages.
 */
@ParityTest
class ApiProblemsTests {

	@Autowired
	MockMvc mvc;

	@Test
	void aRejectedRunDocumentIsA400ListingEveryProblem() throws Exception {
		problem(mvc.perform(post("/api/runs").with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content("{\"format\": \"parity.run/v1\"}")), 400, "Bad Request", "/api/runs")
			.andExpect(jsonPath("$.errors.length()").value(greaterThan(1)))
			.andExpect(jsonPath("$.errors[0].path").isString());
	}

	@Test
	void aBodySpringCannotReadIsA400NotA500() throws Exception {
		problem(mvc.perform(post("/api/controls").with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content("{not json")), 400, "Bad Request", "/api/controls")
			.andExpect(jsonPath("$.detail").value(startsWith("the request body could not be read")));
	}

	@Test
	void aMissingParameterIsA400NamingIt() throws Exception {
		problem(mvc.perform(get("/api/series/{id}/chart", "anything")), 400, "Bad Request",
				"/api/series/anything/chart")
			.andExpect(jsonPath("$.errors[0].path").value("metric"))
			.andExpect(jsonPath("$.detail").value(containsString("metric")));
	}

	@Test
	void anUnknownTokenIsA401() throws Exception {
		problem(mvc.perform(get("/api/runs").header(HttpHeaders.AUTHORIZATION, "Bearer not-a-token")), 401,
				"Unauthorized", "/api/runs")
			.andExpect(jsonPath("$.detail").value("unknown or revoked API token"));
	}

	@Test
	void anAnonymousWriteAndAWrongPasswordAre401() throws Exception {
		problem(mvc.perform(post("/api/controls").contentType(MediaType.APPLICATION_JSON).content("{}")), 401,
				"Unauthorized", "/api/controls")
			.andExpect(jsonPath("$.detail").value(startsWith("this needs an account")))
			.andExpect(header().doesNotExist(HttpHeaders.WWW_AUTHENTICATE));
		problem(mvc.perform(post("/api/controls").with(httpBasic(USER, "not-the-password"))
			.contentType(MediaType.APPLICATION_JSON)
			.content("{}")), 401, "Unauthorized", "/api/controls")
			.andExpect(jsonPath("$.detail").value("the user name or password is wrong"))
			.andExpect(header().string(HttpHeaders.WWW_AUTHENTICATE, "Basic realm=\"Parity\""));
	}

	@Test
	void aRoleThatMayNotAndASessionCallWithoutItsTokenAre403() throws Exception {
		String viewer = "viewer-" + UUID.randomUUID().toString().substring(0, 8);
		mvc.perform(post("/admin/users").param("username", viewer)
			.param("password", "quiet-harbour-viewer-7")
			.param("role", "viewer")
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())).andExpect(status().is3xxRedirection());
		problem(mvc.perform(get("/api/admin/webhooks").with(httpBasic(viewer, "quiet-harbour-viewer-7"))), 403,
				"Forbidden", "/api/admin/webhooks")
			.andExpect(jsonPath("$.detail").value("your account's role does not allow this request"));
		Cookie session = mvc
			.perform(post("/login").param("username", viewer).param("password", "quiet-harbour-viewer-7").with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andReturn()
			.getResponse()
			.getCookie("JSESSIONID");
		problem(mvc
			.perform(post("/api/controls").cookie(session).contentType(MediaType.APPLICATION_JSON).content("{}")), 403,
				"Forbidden", "/api/controls")
			.andExpect(jsonPath("$.detail").value(containsString("CSRF token")));
	}

	@Test
	void aBadComparisonSettingIsA400NamingIt() throws Exception {
		String pair = TestUploads.upload(mvc, "reference.json") + "..." + TestUploads.upload(mvc, "run-e-control.json");
		problem(mvc.perform(get("/api/compare/{pair}", pair).param("band", "wide")), 400, "Bad Request",
				"/api/compare/" + pair)
			.andExpect(jsonPath("$.detail").value(startsWith("Bad comparison setting: ")))
			.andExpect(jsonPath("$.detail").value(containsString("band")));
		problem(mvc.perform(get("/compare/{pair}/cells", pair).param("from", "-1")), 400, "Bad Request",
				"/compare/" + pair + "/cells")
			.andExpect(jsonPath("$.detail").value(containsString("from")));
	}

	@Test
	void anUnknownSeriesAndAnUnknownPathAre404() throws Exception {
		problem(mvc.perform(get("/api/series/{id}", "no-such-series")), 404, "Not Found", "/api/series/no-such-series")
			.andExpect(jsonPath("$.detail").value(containsString("no-such-series")));
		problem(mvc.perform(get("/api/no-such-thing")), 404, "Not Found", "/api/no-such-thing");
	}

	@Test
	void aMethodNotAllowedIsA405NamingTheAllowedOnes() throws Exception {
		problem(mvc.perform(delete("/api/runs").with(httpBasic(USER, PASSWORD))), 405, "Method Not Allowed",
				"/api/runs")
			.andExpect(header().exists(HttpHeaders.ALLOW));
	}

	@Test
	void aBodyOfAnotherMediaTypeIsA415() throws Exception {
		problem(mvc.perform(post("/api/controls").with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.TEXT_PLAIN)
			.content("hello")), 415, "Unsupported Media Type", "/api/controls")
			.andExpect(jsonPath("$.detail").value(containsString("text/plain")));
	}

	@Test
	void aControlOfAnUnknownRunIsA404AtItsPath() throws Exception {
		problem(mvc.perform(post("/api/controls").with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content("{\"control\": \"nosuchrun1\", \"of\": \"nosuchrun2...nosuchrun3\"}")), 404, "Not Found",
				"/api/controls")
			.andExpect(jsonPath("$.errors[0].path").value(startsWith("$.")));
	}

	@Test
	void aCaveatWrittenWrongIsA400NamingItsField() throws Exception {
		problem(mvc.perform(post("/api/caveats").with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content("{\"target\": {\"run\": \"nosuchrun1\"}, \"text\": 42}")), 400, "Bad Request", "/api/caveats")
			.andExpect(jsonPath("$.errors[0].path").value("$.text"));
	}

	@Test
	void aConfirmationOfAnUnknownAlertIsA404() throws Exception {
		problem(mvc.perform(post("/api/alerts/{id}/confirmations", "nosuchalert").with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content("{\"run\": \"nosuchrun1\"}")), 404, "Not Found", "/api/alerts/nosuchalert/confirmations")
			.andExpect(jsonPath("$.errors[0].path").value("$"));
		problem(mvc.perform(post("/api/alerts/{id}/confirmations", "nosuchalert").with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content("{}")), 400, "Bad Request", "/api/alerts/nosuchalert/confirmations")
			.andExpect(jsonPath("$.errors[0].path").value("$.run"));
	}

	@Test
	void aPageKeepsItsHtmlErrorPage() throws Exception {
		MockHttpServletResponse page = mvc.perform(get("/series/{id}", "no-such-series").accept(MediaType.TEXT_HTML))
			.andExpect(status().isNotFound())
			.andReturn()
			.getResponse();
		assertThat(page.getContentType()).as("left to the HTML error page").isNull();
		assertThat(page.getErrorMessage()).contains("no-such-series");
	}

	/** The members every problem has: detail is the first of the errors. */
	private static ResultActions problem(ResultActions answer, int status, String title, String instance)
			throws Exception {
		return answer.andExpect(status().is(status))
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.status").value(status))
			.andExpect(jsonPath("$.title").value(title))
			.andExpect(jsonPath("$.instance").value(instance))
			.andExpect(jsonPath("$.detail").isString())
			.andExpect(
					result -> assertThat(JsonPath.<String>read(result.getResponse().getContentAsString(), "$.detail"))
						.isEqualTo(JsonPath.<String>read(result.getResponse().getContentAsString(),
								"$.errors[0].message")))
			.andExpect(jsonPath("$.errors[0].message").isString());
	}

}
