package dev.parity.reliability.fuzz;

import java.util.List;

import dev.parity.Fixtures;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.TestUploads.RowCounts;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * Broken and hostile run documents through the upload API ({@code POST /api/runs}):
 * whatever the bytes, the answer is 201, 200 or a 400 that says what is wrong and where,
 * never a 500; a rejected document leaves no row behind; an accepted one is stored whole,
 * and its pages and its download work.
 */
@ParityTest
class RunUploadFuzzTests {

	/** This property's share of the fuzz budget (see {@link FuzzCases}). */
	private static final double SHARE = 0.35;

	private static final List<byte[]> SEED_STORY = Fixtures.seedStoryNames()
		.stream()
		.map(Fixtures::seedStoryBytes)
		.toList();

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Test
	void aMutatedRunDocumentIsStoredWholeOrRejectedWithItsProblemsAndNeverBreaksTheServer() {
		FuzzCases.Tally tally = FuzzCases.check("native upload", SHARE, (random, outcome) -> {
			byte[] valid = SEED_STORY.get(random.nextInt(SEED_STORY.size()));
			Mutation mutation = new Mutator(random).mutate(valid, Mutator.Shape.JSON);
			try {
				upload(mutation.bytes(), outcome);
			}
			catch (AssertionError | RuntimeException ex) {
				throw new AssertionError(mutation.describe() + ": " + ex.getMessage(), ex);
			}
		});
		// Enough cases explore both sides; a mutator that only ever broke documents (or
		// never) would test little.
		if (tally.cases() >= 100) {
			assertThat(tally.get("rejected")).as("rejected cases").isPositive();
			assertThat(tally.get("stored")).as("stored cases").isPositive();
		}
	}

	private void upload(byte[] document, FuzzCases.Tally outcome) throws Exception {
		RowCounts before = TestUploads.rows(jdbc);
		MockHttpServletResponse response = mvc
			.perform(post("/api/runs").with(user(TestUploads.USER).roles("ADMIN"))
				.with(csrf())
				.contentType(MediaType.APPLICATION_JSON)
				.content(document))
			.andReturn()
			.getResponse();
		int status = response.getStatus();
		RowCounts after = TestUploads.rows(jdbc);
		assertThat(status).as("status of the upload; body %s", abbreviate(response.getContentAsString()))
			.isIn(200, 201, 400);
		JsonNode body = TestUploads.tree(response.getContentAsByteArray());
		if (status == 400) {
			outcome.count("rejected");
			assertThat(after).as("row counts after a rejection").isEqualTo(before);
			assertThat(body.path("errors").isArray() && !body.path("errors").isEmpty()).as("errors listed").isTrue();
			body.path("errors").forEach(error -> {
				assertThat(error.path("path").asString("")).startsWith("$");
				assertThat(error.path("message").asString("")).isNotBlank();
			});
			return;
		}
		String id = body.path("id").asString();
		if (status == 200) {
			outcome.count("already stored");
			assertThat(after).as("row counts after a repeated upload").isEqualTo(before);
		}
		else {
			outcome.count("stored");
			int cells = TestUploads.tree(document).path("cells").size();
			assertThat(after).as("row counts after storing")
				.isEqualTo(new RowCounts(before.runs() + 1, before.cells() + cells, before.files() + 1));
		}
		assertThat(mvc.perform(get("/api/runs/{id}/document", id)).andReturn().getResponse().getContentAsByteArray())
			.as("the document, byte for byte")
			.isEqualTo(document);
		assertThat(mvc.perform(get("/api/runs/{id}", id)).andReturn().getResponse().getStatus())
			.as("GET /api/runs/%s", id)
			.isEqualTo(200);
		assertThat(mvc.perform(get("/runs/{id}", id).accept(MediaType.TEXT_HTML)).andReturn().getResponse().getStatus())
			.as("GET /runs/%s", id)
			.isEqualTo(200);
	}

	private static String abbreviate(String text) {
		return text.length() > 500 ? text.substring(0, 500) + "…" : text;
	}

}
