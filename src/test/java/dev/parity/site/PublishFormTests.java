package dev.parity.site;

import java.nio.charset.StandardCharsets;

import dev.parity.FormPage;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Issue 12, item 7: a refused publication comes back as the comparison page with every
 * problem next to the field it concerns, at once, and what was typed kept.
 */
@ParityTest
class PublishFormTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Test
	void aRefusedPublicationShowsEveryProblemNextToItsFieldAndKeepsWhatWasTyped() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String a = TestUploads.upload(mvc, "run-a-thinking-max.json");
		long before = publications();
		// Settings other than the defaults and no comparable cell: neither a reason nor
		// the confirmation given.
		FormPage page = refused(post("/compare/" + reference + "..." + a + "/publish").param("title", "A is 5x slower")
			.param("caption", "the caption I typed")
			.param("query", "output_tolerance=0.05"));
		assertThat(page.html()).contains("Not published: 2 problems")
			.contains("<summary>Publish this comparison</summary>");
		assertThat(page.messageFor("reason")).contains("publishing it needs a reason")
			.contains("output_tolerance 0.05");
		assertThat(page.messageFor("confirm_no_comparable")).contains("no cell of this comparison is comparable");
		assertThat(page.messageFor("title")).isNull();
		assertThat(page.attribute("title", "value")).isEqualTo("A is 5x slower");
		assertThat(page.textarea("caption")).isEqualTo("the caption I typed");
		assertThat(page.attribute("query", "value")).isEqualTo("?output_tolerance=0.05");
		assertThat(publications()).isEqualTo(before);
	}

	@Test
	void aMissingOrTooLongTitleIsNamedNextToItBesideTheOtherProblemsAndTheConfirmationIsKept() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String a = TestUploads.upload(mvc, "run-a-thinking-max.json");
		String url = "/compare/" + reference + "..." + a + "/publish";
		long before = publications();
		FormPage page = refused(post(url).param("title", "   ").param("caption", "kept"));
		assertThat(page.messageFor("title")).isEqualTo("a published comparison needs a title");
		assertThat(page.messageFor("confirm_no_comparable")).isNotNull();
		assertThat(page.messageFor("caption")).isNull();
		assertThat(page.textarea("caption")).isEqualTo("kept");

		page = refused(post(url).param("title", "x".repeat(201)).param("confirm_no_comparable", "true"));
		assertThat(page.messageFor("title")).contains("201 characters; at most 200");
		assertThat(page.messageFor("confirm_no_comparable")).isNull();
		assertThat(page.field("confirm_no_comparable")).contains("checked");
		assertThat(publications()).isEqualTo(before);
	}

	private FormPage refused(MockHttpServletRequestBuilder request) throws Exception {
		return new FormPage(mvc.perform(request.with(httpBasic(USER, PASSWORD)).with(csrf()))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8));
	}

	private long publications() {
		return jdbc.sql("select count(*) from publication").query(Long.class).single();
	}

}
