package dev.parity.run;

import java.util.UUID;

import dev.parity.Fixtures;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The number of runs stored, which the database keeps as runs are added (the home page's
 * total, a run list's, and what tells a kept total of a search that a run was added):
 * every run committed is counted, by an upload or copied in SQL as a restore does; a run
 * refused or rolled back is not.
 */
@ParityTest
class RunTotalTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Autowired
	MockMvc mvc;

	@Autowired
	RunSummaries summaries;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	PlatformTransactionManager transactions;

	@Test
	void everyRunCommittedIsCountedAndNoOther() throws Exception {
		long before = summaries.stored();
		String id = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		assertThat(summaries.stored()).isEqualTo(before + 2).isEqualTo(counted());

		// The same bytes again are the same run; a refused document stores nothing.
		byte[] again = TestUploads.fresh("run-e-control.json");
		TestUploads.upload(mvc, again);
		TestUploads.upload(mvc, again);
		mvc.perform(post("/api/runs").with(httpBasic(TestUploads.USER, TestUploads.PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content("{\"schema\": \"benchmark-run/1\"}")).andExpect(status().isBadRequest());
		assertThat(summaries.stored()).isEqualTo(before + 3).isEqualTo(counted());

		// A run copied in SQL in a transaction that rolls back is not counted; committed,
		// it is.
		new TransactionTemplate(transactions).executeWithoutResult(transaction -> {
			TestUploads.copyRunRow(jdbc, id, RunId.random().value());
			transaction.setRollbackOnly();
		});
		assertThat(summaries.stored()).isEqualTo(before + 3).isEqualTo(counted());
		String copied = RunId.random().value();
		new TransactionTemplate(transactions)
			.executeWithoutResult(transaction -> TestUploads.copyRunRow(jdbc, id, copied));
		TestUploads.copyFiles(jdbc, "?::text", "", copied, copied, copied, copied);
		assertThat(summaries.stored()).isEqualTo(before + 4).isEqualTo(counted());
	}

	@Test
	void aSearchsTotalCountsTheRunUploadedAMomentBefore() throws Exception {
		String word = "tally" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
		TestUploads.upload(mvc, titled(word + " first"));
		assertThat(total(word)).isEqualTo(1);
		assertThat(total(word)).isEqualTo(1);
		TestUploads.upload(mvc, titled(word + " second"));
		assertThat(total(word)).isEqualTo(2);
	}

	private long counted() {
		return jdbc.sql("select count(*) from run").query(Long.class).single();
	}

	private static byte[] titled(String title) {
		ObjectNode document = (ObjectNode) JSON.readTree(Fixtures.seedStoryBytes("run-e-control.json"));
		document.put("title", title);
		return JSON.writeValueAsBytes(document);
	}

	/**
	 * The total the run list's API gives for a search of {@code word}, a run a page: the
	 * page is full, so the total is the one counted and kept, not the page's length.
	 */
	private long total(String word) throws Exception {
		return TestUploads.getJson(mvc, "/api/runs?size=1&q=" + word).get("total").asLong();
	}

}
