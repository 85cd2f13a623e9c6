package dev.parity.snapshots;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Only a few comparisons are computed at once: a request for one more, when every turn is
 * taken, is answered 503 with {@code Retry-After} (a page for a browser, JSON for the
 * API), never a 500, while comparisons computed before are still served; once a turn is
 * free, the same requests are answered.
 */
@ParityTest
class ComparisonBudgetTests {

	private static final int REQUESTS = 8;

	@Autowired
	MockMvc mvc;

	@Autowired
	ComparisonBudget budget;

	@LocalServerPort
	int port;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

	@Test
	void beyondTheTurnsAComparisonIsA503WithRetryAfterAndKeptOnesAreStillServed() throws Exception {
		String baseline = TestUploads.upload(mvc, TestUploads.fresh("reference.json"));
		String contender = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		String pair = baseline + "..." + contender;
		// Computed (and kept) before the server gets busy.
		assertThat(get("/api/compare/" + pair, "application/json").statusCode()).isEqualTo(200);
		assertThat(get("/compare/" + pair, "text/html").statusCode()).isEqualTo(200);

		List<HttpResponse<String>> busy;
		int taken = 0;
		try {
			while (taken < budget.maxConcurrent()) {
				assertThat(budget.take(Duration.ofMinutes(1))).isTrue();
				taken++;
			}
			busy = concurrently(pair);
			// What was computed before is served without a turn.
			assertThat(get("/api/compare/" + pair, "application/json").statusCode()).isEqualTo(200);
			assertThat(get("/compare/" + pair, "text/html").statusCode()).isEqualTo(200);
		}
		finally {
			for (int i = 0; i < taken; i++) {
				budget.giveBack();
			}
		}
		for (HttpResponse<String> answer : busy) {
			assertThat(answer.statusCode()).as(answer.uri() + ": " + answer.body()).isEqualTo(503);
			assertThat(answer.headers().firstValue("Retry-After")).as(answer.uri().toString()).hasValue("5");
			if (answer.uri().getPath().startsWith("/api/")) {
				assertThat(answer.headers().firstValue("Content-Type").orElse(""))
					.startsWith("application/problem+json");
				assertThat(answer.body()).contains("\"errors\"").contains("parity.compare.max-concurrent");
			}
			else {
				assertThat(answer.body()).contains("Busy computing other comparisons").contains("Try again");
			}
		}

		// With turns free again, the same requests are answered.
		for (HttpResponse<String> answer : concurrently(pair)) {
			assertThat(answer.statusCode()).as(answer.uri().toString()).isEqualTo(200);
		}
	}

	/**
	 * Eight requests at once, each for settings of its own (nothing kept): half the JSON,
	 * half the page.
	 */
	private List<HttpResponse<String>> concurrently(String pair) throws Exception {
		ExecutorService clients = Executors.newFixedThreadPool(REQUESTS);
		try {
			List<Future<HttpResponse<String>>> answers = new ArrayList<>();
			for (int i = 0; i < REQUESTS; i++) {
				String band = "0.0" + (i + 1) + "7";
				boolean api = i % 2 == 0;
				answers.add(clients.submit(() -> api ? get("/api/compare/" + pair + "?band=" + band, "application/json")
						: get("/compare/" + pair + "?band=" + band + "&outlier_z=4", "text/html")));
			}
			List<HttpResponse<String>> result = new ArrayList<>();
			for (Future<HttpResponse<String>> answer : answers) {
				result.add(answer.get());
			}
			return result;
		}
		finally {
			clients.shutdownNow();
		}
	}

	private HttpResponse<String> get(String path, String accept) throws Exception {
		return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
			.header("Accept", accept)
			.timeout(Duration.ofMinutes(2))
			.GET()
			.build(), HttpResponse.BodyHandlers.ofString());
	}

}
