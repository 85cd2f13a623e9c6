package dev.parity.ingest;

import java.time.Duration;

import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.multipart;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * Uploads are read and stored a few at a time: when every turn is taken and none comes
 * within the wait, an upload from the API or the form is answered 503 with
 * {@code Retry-After}, says why, and stores nothing; once a turn is free, the same upload
 * is stored.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureMockMvc
@TestPropertySource(properties = { "parity.ingest.max-concurrent=2", "parity.ingest.max-wait=300ms" })
class IngestTurnsTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	IngestTurns turns;

	@Autowired
	JdbcClient jdbc;

	@Test
	void withEveryTurnTakenAnUploadIsA503WithRetryAfterAndNothingStored() throws Exception {
		byte[] document = TestUploads.fresh("run-e-control.json");
		TestUploads.RowCounts before = TestUploads.rows(jdbc);
		assertThat(turns.maxConcurrent()).isEqualTo(2);
		int taken = 0;
		MvcResult api;
		MvcResult form;
		try {
			while (taken < turns.maxConcurrent()) {
				assertThat(turns.take(Duration.ofMinutes(1))).isTrue();
				taken++;
			}
			api = mvc
				.perform(post("/api/runs").with(httpBasic(TestUploads.USER, TestUploads.PASSWORD))
					.contentType(MediaType.APPLICATION_JSON)
					.content(document))
				.andReturn();
			form = mvc
				.perform(multipart("/upload").file("file", document)
					.with(httpBasic(TestUploads.USER, TestUploads.PASSWORD))
					.with(csrf())
					.accept(MediaType.TEXT_HTML))
				.andReturn();
		}
		finally {
			for (int i = 0; i < taken; i++) {
				turns.giveBack();
			}
		}
		assertThat(api.getResponse().getStatus()).isEqualTo(503);
		assertThat(api.getResponse().getHeader("Retry-After")).isEqualTo("5");
		assertThat(api.getResponse().getContentType()).startsWith("application/problem+json");
		assertThat(api.getResponse().getContentAsString()).contains("\"errors\"")
			.contains("parity.ingest.max-concurrent")
			.contains("nothing was stored");
		assertThat(form.getResponse().getStatus()).isEqualTo(503);
		assertThat(form.getResponse().getHeader("Retry-After")).isEqualTo("5");
		assertThat(form.getResponse().getContentAsString()).contains("Busy storing other uploads")
			.contains("nothing was stored")
			.contains("stored once");
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);

		// With the turns free again, the same upload is stored.
		String id = TestUploads.upload(mvc, document);
		assertThat(jdbc.sql("select count(*) from run where id = ?").param(id).query(Integer.class).single())
			.isEqualTo(1);
	}

}
