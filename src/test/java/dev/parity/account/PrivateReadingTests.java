package dev.parity.account;

import dev.parity.TestUploads;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * With {@code parity.public-read=false}, reading needs a sign-in too; viewers may read.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "parity.public-read=false")
@AutoConfigureMockMvc
class PrivateReadingTests {

	@Autowired
	MockMvc mvc;

	@Test
	void anonymousVisitorsMustSignInAndViewersMayRead() throws Exception {
		String id = TestUploads.upload(mvc, "reference.json");
		mvc.perform(get("/runs/{id}", id).accept(MediaType.TEXT_HTML))
			.andExpect(status().is3xxRedirection())
			.andExpect(redirectedUrl("/login"));
		mvc.perform(get("/api/runs/{id}", id)).andExpect(status().isUnauthorized());
		mvc.perform(get("/login")).andExpect(status().isOk());
		mvc.perform(post("/admin/users").param("username", "reader")
			.param("password", "viewing-secret-41")
			.param("role", "viewer")
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())).andExpect(status().is3xxRedirection());
		mvc.perform(get("/runs/{id}", id).with(httpBasic("reader", "viewing-secret-41"))).andExpect(status().isOk());
		mvc.perform(get("/api/runs/{id}", id).with(httpBasic("reader", "viewing-secret-41")))
			.andExpect(status().isOk());
		mvc.perform(post("/api/runs").with(httpBasic("reader", "viewing-secret-41"))
			.contentType(MediaType.APPLICATION_JSON)
			.content(TestUploads.fresh("run-e-control.json"))).andExpect(status().isForbidden());
	}

	/**
	 * Issue 23, finding 4: when reading needs a sign-in, every answer needed a
	 * credential, so no shared cache may keep it ({@code private}) and it varies by the
	 * credentials' headers.
	 */
	@Test
	void answersThatNeededACredentialArePrivate() throws Exception {
		String baseline = TestUploads.upload(mvc, "reference.json");
		String contender = TestUploads.upload(mvc, "run-e-control.json");
		String body = mvc
			.perform(post("/api/published").with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"baseline\": \"" + baseline + "\", \"contender\": \"" + contender
						+ "\", \"title\": \"Private\"}"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		String id = TestUploads.tree(body.getBytes(StandardCharsets.UTF_8)).get("id").asString();
		List<String> paths = List.of("/api/published/" + id, "/published/" + id, "/published/" + id + "/export.md",
				"/published/" + id + "/export.csv", "/published/" + id + "/export.json", "/embed/published/" + id,
				"/embed/published/" + id + "/chart", "/published/" + id + "/chart.svg",
				"/published/" + id + "/chart.png", "/runs/" + baseline + "/chart.png",
				"/compare/" + baseline + "..." + contender + "/chart.png");
		for (String path : paths) {
			MockHttpServletResponse answer = mvc.perform(get(path).with(httpBasic(USER, PASSWORD)))
				.andReturn()
				.getResponse();
			assertThat(answer.getStatus()).as(path).isEqualTo(200);
			assertThat(answer.getHeader(HttpHeaders.CACHE_CONTROL)).as(path)
				.startsWith("private")
				.doesNotContain("public");
			assertThat(answer.getHeaders(HttpHeaders.VARY)).as(path)
				.anySatisfy(v -> assertThat(v).contains("Authorization"));
		}
	}

}
