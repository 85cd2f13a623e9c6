package dev.parity.reliability;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.TestUploads.RowCounts;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * Documents the fuzzing found to break the server (a 500, or a run whose pages would fail
 * for ever) are refused with a 400 that names the place, and leave nothing behind but the
 * audit entry of the refusal.
 */
@ParityTest
class HostileDocumentTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	static Stream<Arguments> hostileDocuments() {
		return Stream.of(
				arguments("a param beyond the range of a double", "\"concurrency\":1}", "\"concurrency\":1e400}",
						"$.cells[0].params.concurrency", "beyond the range"),
				arguments("a metric written as a 400-digit integer", "\"ttft_s\":0.92",
						"\"ttft_s\":1" + "0".repeat(400), "$.cells[0].metrics.ttft_s", "beyond the range"),
				arguments("a token count beyond the range of a double", "\"median\":512", "\"median\":-1e999",
						"$.cells[0].output_tokens.median", "beyond the range"),
				arguments("a NUL in the title", "\"title\":\"Control", "\"title\":\"\\u0000Control", "$.title",
						"NUL character"),
				arguments("a NUL in a field name", "\"warmup_requests\"", "\"warmup_requests\\u0000\"",
						"$.workload['warmup_requests\\u0000']", "NUL character"),
				arguments("an unpaired surrogate in an engine flag", "\"fp8\"", "\"fp8\\ud800\"",
						"$.engine.flags['kv-cache-dtype']", "unpaired surrogate"),
				arguments("a system name too long to index", "\"name\":\"2x DGX Spark\"",
						"\"name\":\"" + "x".repeat(1_000_000) + "\"", "$.system.name", "at most 500"),
				arguments("an instant in the year 300000", "\"2026-08-11T10:10:00Z\"", "\"+300000-08-11T10:10:00Z\"",
						"$.recorded_at", "years 1 to 9999"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("hostileDocuments")
	void refusesWhatCannotBeStoredAsWrittenAndStoresNothing(String what, String valid, String hostile, String path,
			String message) throws Exception {
		String document = new String(TestUploads.fresh("run-e-control.json"), StandardCharsets.UTF_8);
		assertThat(document).contains(valid);
		RowCounts before = TestUploads.rows(jdbc);
		long refusals = refusals();

		MockHttpServletResponse response = mvc
			.perform(post("/api/runs").with(user(TestUploads.USER).roles("ADMIN"))
				.with(csrf())
				.contentType(MediaType.APPLICATION_JSON)
				.content(document.replaceFirst(Pattern.quote(valid), Matcher.quoteReplacement(hostile))))
			.andReturn()
			.getResponse();

		assertThat(response.getStatus()).as(response.getContentAsString()).isEqualTo(400);
		JsonNode errors = TestUploads.tree(response.getContentAsByteArray()).get("errors");
		assertThat(errors).anySatisfy(error -> {
			assertThat(error.get("path").asString()).isEqualTo(path);
			assertThat(error.get("message").asString()).contains(message);
		});
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
		assertThat(refusals()).isEqualTo(refusals + 1);
	}

	private long refusals() {
		return jdbc.sql("select count(*) from audit_event where action = 'upload-run' and outcome = 'refused'")
			.query(Long.class)
			.single();
	}

}
