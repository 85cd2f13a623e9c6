package dev.parity.ingest;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.parity.Fixtures;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.test.web.servlet.MockMvc;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.multipart;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * Forms that help: every problem next to the field it concerns, dates as dates, what the
 * files say pre-filled, the columns of a table offered, and signing in leads back to the
 * page it was asked from.
 */
@ParityTest
class HelpfulFormsTests {

	@Autowired
	MockMvc mvc;

	@Test
	void everyProblemStandsNextToItsFieldAllAtOnce() throws Exception {
		String first = upload("vllm-bench-sweep-run.json",
				Files.readAllBytes(Fixtures.sample("vllm-bench-sweep-run.json")));
		assertThat(input(first, "engineName")).as("the engine the format comes from").contains("value=\"vllm\"");

		String page = mvc
			.perform(post("/upload/import").with(httpBasic(USER, PASSWORD))
				.with(csrf())
				.param("token", token(first))
				.param("action", "preview")
				.param("title", "")
				.param("systemName", "1x L40S")
				.param("modelRepo", "example-org/chat-8b")
				.param("modelCommit", "not-a-commit")
				.param("engineName", "vllm")
				.param("recordedAt", "2026-08-11T10:10"))
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);

		assertThat(input(page, "modelCommit")).contains("aria-invalid=\"true\"")
			.contains("aria-describedby=\"error-modelCommit\"");
		assertThat(page).containsPattern("id=\"error-modelCommit\"[^>]*>[^<]+<");
		assertThat(page).containsPattern("id=\"error-title\"[^>]*>[^<]+<");
		assertThat(input(page, "systemName")).doesNotContain("aria-invalid");
		// A date-time field's value ("2026-08-11T10:10", no zone) is read as UTC and
		// accepted.
		assertThat(page).doesNotContain("$.recorded_at");
		assertThat(input(page, "recordedAt")).contains("type=\"datetime-local\"")
			.contains("value=\"2026-08-11T10:10\"");
	}

	@Test
	void theColumnsOfATableAreOfferedForTheMapping() throws Exception {
		byte[] table = "Prompt,Users,TTFT (ms),Decode (tok/s)\n280,1,920,65.2\n8192,1,2410,63.9\n"
			.getBytes(StandardCharsets.UTF_8);
		String page = mvc
			.perform(multipart("/upload").file(new MockMultipartFile("file", "table.csv", "text/csv", table))
				.param("format", "table-csv")
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(page).contains("<datalist id=\"table-columns\">")
			.contains("<option value=\"TTFT (ms)\">")
			.contains("<option value=\"Users\">");
		assertThat(input(page, "promptColumn")).contains("list=\"table-columns\"");
	}

	@Test
	void signingInLeadsBackToThePageItWasAskedFrom() throws Exception {
		String back = mvc
			.perform(post("/login").with(csrf())
				.param("username", USER)
				.param("password", PASSWORD)
				.param("continue", "/compare/abc...def?band=0.05"))
			.andReturn()
			.getResponse()
			.getRedirectedUrl();
		assertThat(back).isEqualTo("/compare/abc...def?band=0.05");
		for (String elsewhere : new String[] { "//evil.example/x", "https://evil.example/", "/\\evil.example",
				"/login?error" }) {
			String target = mvc
				.perform(post("/login").with(csrf())
					.param("username", USER)
					.param("password", PASSWORD)
					.param("continue", elsewhere))
				.andReturn()
				.getResponse()
				.getRedirectedUrl();
			assertThat(target).as(elsewhere).isEqualTo("/");
		}
	}

	@Test
	void aRejectedCaveatComesBackWithItsTextAndTheReason() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String control = TestUploads.upload(mvc, "run-e-control.json");
		var response = mvc
			.perform(post("/compare/" + reference + "..." + control + "/caveats").with(httpBasic(USER, PASSWORD))
				.with(csrf())
				.param("text", "The 280-token row was measured <before> the warm-up finished")
				.param("cell", "cell-prompt_tokens-999")
				.param("metric", "ttft_s")
				.param("query", "band=0.05"))
			.andReturn()
			.getResponse();
		assertThat(response.getStatus()).isEqualTo(400);
		String page = response.getContentAsString(StandardCharsets.UTF_8);
		assertThat(page).contains("no cell &#39;cell-prompt_tokens-999&#39;")
			.contains(">The 280-token row was measured &lt;before&gt; the warm-up finished</textarea>")
			.contains("value=\"cell-prompt_tokens-999\"")
			.contains("name=\"query\" value=\"band=0.05\"");
	}

	private String upload(String name, byte[] content) throws Exception {
		return mvc
			.perform(multipart("/upload").file(new MockMultipartFile("file", name, "application/json", content))
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
	}

	private static String token(String page) {
		Matcher token = Pattern.compile("name=\"token\" value=\"([^\"]+)\"").matcher(page);
		assertThat(token.find()).as("the held upload's token").isTrue();
		return token.group(1);
	}

	/** The opening tag of the form field with this name. */
	private static String input(String page, String name) {
		Matcher tag = Pattern.compile("<(input|select|textarea)\\b[^>]*name=\"" + name + "\"[^>]*>").matcher(page);
		assertThat(tag.find()).as("field " + name).isTrue();
		return tag.group();
	}

}
