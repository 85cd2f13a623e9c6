package dev.parity.site;

import java.nio.charset.StandardCharsets;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
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

/**
 * Issue 17, item 5: published pages, their exports, embeds and images answer with an ETag
 * and Cache-Control, a client's current copy gets a 304, and a new caveat, banner or
 * retraction changes the tag.
 */
@ParityTest
class PublishedCachingTests {

	static final String[] REPRESENTATIONS = { "/published/%s", "/published/%s/export.md", "/published/%s/export.csv",
			"/published/%s/export.json", "/api/published/%s", "/embed/published/%s", "/embed/published/%s/chart",
			"/published/%s/chart.svg", "/published/%s/chart.png" };

	@Autowired
	MockMvc mvc;

	@Test
	void everyRepresentationHasATagAndACurrentCopyIsNotSentAgain() throws Exception {
		String id = published();
		for (String pattern : REPRESENTATIONS) {
			String path = pattern.formatted(id);
			MockHttpServletResponse first = mvc.perform(get(path)).andReturn().getResponse();
			assertThat(first.getStatus()).as(path).isEqualTo(200);
			String tag = first.getHeader("ETag");
			assertThat(tag).as(path).isNotBlank();
			assertThat(first.getHeader("Cache-Control")).as(path).isEqualTo("public, max-age=60, must-revalidate");
			MockHttpServletResponse again = mvc.perform(get(path).header("If-None-Match", tag))
				.andReturn()
				.getResponse();
			assertThat(again.getStatus()).as(path).isEqualTo(304);
			assertThat(again.getContentAsByteArray()).as(path).isEmpty();
			assertThat(again.getHeader("ETag")).as(path).isEqualTo(tag);
		}
	}

	@Test
	void aNewCaveatChangesTheTagAndTheNewCopyShowsIt() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		String id = publish(reference, e);
		String[] before = tags(id);
		assertThat(mvc.perform(get("/published/" + id)).andReturn().getResponse().getContentAsString())
			.doesNotContain("the L40S ran 8 °C warmer in this run");
		mvc.perform(post("/compare/" + reference + "..." + e + "/caveats")
			.param("text", "the L40S ran 8 °C warmer in this run")
			.param("cell", "cell-concurrency-4--prompt_tokens-280")
			.with(httpBasic(USER, PASSWORD))
			.with(csrf()));
		String[] after = tags(id);
		for (int i = 0; i < before.length; i++) {
			assertThat(after[i]).as(REPRESENTATIONS[i]).isNotEqualTo(before[i]);
			MockHttpServletResponse stale = mvc
				.perform(get(REPRESENTATIONS[i].formatted(id)).header("If-None-Match", before[i]))
				.andReturn()
				.getResponse();
			assertThat(stale.getStatus()).as(REPRESENTATIONS[i]).isEqualTo(200);
		}
		assertThat(mvc.perform(get("/embed/published/" + id)).andReturn().getResponse().getContentAsString())
			.contains("the L40S ran 8 °C warmer in this run");
		// The page kept for everybody under the old tag is not served again.
		assertThat(mvc.perform(get("/published/" + id)).andReturn().getResponse().getContentAsString())
			.contains("the L40S ran 8 °C warmer in this run");
	}

	@Test
	void aSupersessionChangesTheTagAndTheNewCopyCarriesTheBanner() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		String old = publish(reference, e);
		String replacement = publish(reference, e);
		String[] before = tags(old);
		mvc.perform(post("/published/{id}/retract", old).param("reason", "a corrected caption")
			.param("replacement", replacement)
			.with(httpBasic(USER, PASSWORD))
			.with(csrf()));
		String[] after = tags(old);
		for (int i = 0; i < before.length; i++) {
			assertThat(after[i]).as(REPRESENTATIONS[i]).isNotEqualTo(before[i]);
		}
		// The replacement's page now says what it supersedes: its tag moved too.
		assertThat(mvc.perform(get("/embed/published/" + old)).andReturn().getResponse().getContentAsString())
			.contains("id=\"retraction-banner\"")
			.contains("a corrected caption");
	}

	@Test
	void aSignedInUsersPageIsTheirsAlone() throws Exception {
		String id = published();
		MockHttpServletResponse signedIn = mvc.perform(get("/published/" + id).with(httpBasic(USER, PASSWORD)))
			.andReturn()
			.getResponse();
		assertThat(signedIn.getHeader("Cache-Control")).isEqualTo("private, no-cache");
		String anonymousTag = mvc.perform(get("/published/" + id)).andReturn().getResponse().getHeader("ETag");
		assertThat(signedIn.getHeader("ETag")).isNotEqualTo(anonymousTag);
		// An anonymous copy is never current for a signed-in user, whose page holds their
		// forms.
		assertThat(mvc
			.perform(get("/published/" + id).with(httpBasic(USER, PASSWORD)).header("If-None-Match", anonymousTag))
			.andReturn()
			.getResponse()
			.getStatus()).isEqualTo(200);
	}

	@Test
	void anUnknownPublicationIsStillA404() throws Exception {
		for (String pattern : REPRESENTATIONS) {
			assertThat(mvc.perform(get(pattern.formatted("zzzzzzzzzz"))).andReturn().getResponse().getStatus())
				.as(pattern)
				.isEqualTo(404);
		}
	}

	private String[] tags(String id) throws Exception {
		String[] tags = new String[REPRESENTATIONS.length];
		for (int i = 0; i < tags.length; i++) {
			tags[i] = mvc.perform(get(REPRESENTATIONS[i].formatted(id))).andReturn().getResponse().getHeader("ETag");
		}
		return tags;
	}

	private String published() throws Exception {
		return publish(TestUploads.upload(mvc, "reference.json"), TestUploads.upload(mvc, "run-e-control.json"));
	}

	private String publish(String baseline, String contender) throws Exception {
		String body = mvc
			.perform(post("/api/published").with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"baseline\": \"" + baseline + "\", \"contender\": \"" + contender
						+ "\", \"title\": \"Cached\"}"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		return TestUploads.tree(body.getBytes(StandardCharsets.UTF_8)).get("id").asString();
	}

}
