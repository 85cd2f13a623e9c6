package dev.parity.history;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.snapshots.ComparisonBudget;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * A burst of CI jobs: each uploads its run and asks its verdict as soon as the upload
 * answers, all at once, on one series. Every verdict is answered (never a 503: the
 * readers of one series wait for one another's catch-up, and a verdict waits for its turn
 * to compare), is of its own run, and rests on a series holding every run committed
 * before it was asked: its baseline is the latest of those recorded before the run (or
 * one committed meanwhile), never an older one.
 */
@ParityTest
class CiBurstTests {

	static final int RUNS = 11;

	@Autowired
	MockMvc mvc;

	@Autowired
	ComparisonBudget budget;

	@Autowired
	MeterRegistry registry;

	@Value("${parity.compare.max-wait}")
	Duration maxWait;

	@Test
	void concurrentUploadsEachGetTheVerdictOfTheirRunAgainstEveryRunCommittedBefore() throws Exception {
		List<ObjectNode> nights = NightlyRuns.series("ci-burst-box").subList(0, RUNS + 1);
		String seed = TestUploads.upload(mvc, bytes(nights.get(0)));
		String[] ids = new String[RUNS + 1];
		long[] committed = new long[RUNS + 1];
		long[] asked = new long[RUNS + 1];
		JsonNode[] verdicts = new JsonNode[RUNS + 1];
		ids[0] = seed;
		ExecutorService pool = Executors.newFixedThreadPool(6);
		try {
			List<Future<?>> jobs = new ArrayList<>();
			for (int night = 1; night <= RUNS; night++) {
				int i = night;
				jobs.add(pool.submit(() -> {
					ids[i] = TestUploads.upload(mvc, bytes(nights.get(i)));
					committed[i] = System.nanoTime();
					asked[i] = System.nanoTime();
					MockHttpServletResponse answer = mvc.perform(get("/api/runs/" + ids[i] + "/verdict"))
						.andReturn()
						.getResponse();
					assertThat(answer.getStatus()).as("night %d: %s", i, answer.getContentAsString()).isEqualTo(200);
					verdicts[i] = TestUploads.tree(answer.getContentAsByteArray());
					return null;
				}));
			}
			for (Future<?> job : jobs) {
				job.get();
			}
		}
		finally {
			pool.shutdownNow();
		}
		List<String> order = List.of(ids);
		for (int i = 1; i <= RUNS; i++) {
			JsonNode verdict = verdicts[i];
			assertThat(verdict.get("status").asString()).as("night %d", i).isNotEqualTo("no-baseline");
			// The verdict is of this run.
			assertThat(verdict.get("comparison_url").asString()).as("night %d", i).contains("..." + ids[i] + "?");
			int baseline = order.indexOf(verdict.get("baseline").asString());
			int latestCommitted = 0;
			for (int j = 1; j < i; j++) {
				if (committed[j] < asked[i]) {
					latestCommitted = j;
				}
			}
			assertThat(baseline).as("night %d's baseline", i).isLessThan(i).isGreaterThanOrEqualTo(latestCommitted);
		}
		// Settled, every run is in the series, in the order of its nights.
		for (int i = 1; i <= RUNS; i++) {
			JsonNode verdict = TestUploads.tree(mvc.perform(get("/api/runs/" + ids[i] + "/verdict"))
				.andReturn()
				.getResponse()
				.getContentAsByteArray());
			assertThat(verdict.get("baseline").asString()).as("night %d", i).isEqualTo(ids[i - 1]);
		}
	}

	/**
	 * A verdict asked while every turn to compute a comparison is taken, for longer than
	 * a page would wait ({@code parity.compare.max-wait}), waits for a turn and is
	 * answered with its comparison — a CI job is not told to come back.
	 */
	@Test
	void aVerdictAskedWhileEveryTurnIsTakenWaitsForOneAndIsAnswered() throws Exception {
		List<ObjectNode> nights = NightlyRuns.series("ci-patient-box");
		String baseline = TestUploads.upload(mvc, bytes(nights.get(0)));
		String run = TestUploads.upload(mvc, bytes(nights.get(1)));
		ExecutorService client = Executors.newSingleThreadExecutor();
		int taken = 0;
		Future<MockHttpServletResponse> asked;
		try {
			while (taken < budget.maxConcurrent()) {
				assertThat(budget.take(Duration.ofMinutes(1))).isTrue();
				taken++;
			}
			asked = client.submit(() -> mvc.perform(get("/api/runs/" + run + "/verdict")).andReturn().getResponse());
			while (registry.get("parity.comparisons.waiting").gauge().value() < 1 && !asked.isDone()) {
				Thread.sleep(20);
			}
			Thread.sleep(maxWait.plusMillis(500).toMillis());
		}
		finally {
			for (int i = 0; i < taken; i++) {
				budget.giveBack();
			}
		}
		MockHttpServletResponse answer = asked.get();
		client.shutdownNow();
		assertThat(answer.getStatus()).as(answer.getContentAsString()).isEqualTo(200);
		JsonNode verdict = TestUploads.tree(answer.getContentAsByteArray());
		assertThat(verdict.get("baseline").asString()).isEqualTo(baseline);
		assertThat(verdict.get("markdown").asString()).contains(baseline + "..." + run);
	}

	private static byte[] bytes(ObjectNode document) {
		return document.toString().getBytes(StandardCharsets.UTF_8);
	}

}
