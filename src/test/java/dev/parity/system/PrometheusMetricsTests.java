package dev.parity.system;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /actuator/prometheus} as a Prometheus server scrapes it: over HTTP, with a
 * viewer's credentials (anonymous visitors get 401); request timings by route, uploads
 * stored and refused, comparison cache look-ups, the comparison budget's gauges and
 * failed webhook deliveries move as the application works.
 */
@ParityTest
class PrometheusMetricsTests {

	private static final String VIEWER = "metrics-scraper";

	private static final String VIEWER_PASSWORD = "scraper-secret-1";

	private final HttpClient http = HttpClient.newHttpClient();

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@LocalServerPort
	int port;

	@BeforeEach
	void aViewerForTheScraper() {
		jdbc.sql(
				"insert into app_user (username, password_hash, role) values (?, ?, 'viewer') on conflict (username) do nothing")
			.params(VIEWER, "{noop}" + VIEWER_PASSWORD)
			.update();
	}

	@Test
	void anonymousVisitorsCannotReadTheMetrics() throws Exception {
		HttpResponse<String> anonymous = get("/actuator/prometheus", null);
		assertThat(anonymous.statusCode()).isEqualTo(401);
		assertThat(anonymous.headers().firstValue("WWW-Authenticate"))
			.hasValueSatisfying(v -> assertThat(v).startsWith("Basic"));
		assertThat(anonymous.body()).doesNotContain("parity_uploads");
		assertThat(get("/actuator/prometheus", "Basic " + basic(VIEWER, "wrong-password")).statusCode()).isEqualTo(401);
	}

	@Test
	void aScrapeShowsRequestsByRouteUploadsCachesTheBudgetAndWebhooks() throws Exception {
		String before = scrape();
		String baseline = TestUploads.upload(mvc, TestUploads.fresh("run-b-effort-low.json"));
		byte[] contenderDocument = TestUploads.fresh("run-c-effort-high.json");
		String contender = TestUploads.upload(mvc, contenderDocument);
		TestUploads.upload(mvc, contenderDocument);
		byte[] invalid = "{\"format\": \"benchmark-run/1\", \"title\": 7}".getBytes(StandardCharsets.UTF_8);
		assertThat(post("/api/runs", invalid).statusCode()).isEqualTo(400);
		assertThat(get("/runs/" + baseline, null).statusCode()).isEqualTo(200);
		// A visitor who is not signed in: the rendered page is computed once, then kept.
		String comparison = "/compare/" + baseline + "..." + contender;
		assertThat(get(comparison, null).statusCode()).isEqualTo(200);
		assertThat(get(comparison, null).statusCode()).isEqualTo(200);
		String after = scrape();

		assertThat(value(after, "http_server_requests_seconds_count", "uri=\"/runs/{id}\"", "method=\"GET\"",
				"status=\"200\""))
			.isGreaterThanOrEqualTo(1);
		assertThat(value(after, "http_server_requests_seconds_count", "uri=\"/compare/{pair"))
			.isGreaterThanOrEqualTo(2);
		assertThat(after).doesNotContain("uri=\"/runs/" + baseline);
		assertThat(value(after, "parity_uploads_stored_total", "via=\"document\"", "outcome=\"new\"")
				- value(before, "parity_uploads_stored_total", "via=\"document\"", "outcome=\"new\""))
			.isEqualTo(2);
		assertThat(value(after, "parity_uploads_stored_total", "via=\"document\"", "outcome=\"existing\"")
				- value(before, "parity_uploads_stored_total", "via=\"document\"", "outcome=\"existing\""))
			.isEqualTo(1);
		assertThat(value(after, "parity_uploads_refused_total", "via=\"document\"", "reason=\"invalid\"")
				- value(before, "parity_uploads_refused_total", "via=\"document\"", "reason=\"invalid\""))
			.isEqualTo(1);
		assertThat(value(after, "parity_comparison_cache_total", "cache=\"page\"", "result=\"miss\"")
				- value(before, "parity_comparison_cache_total", "cache=\"page\"", "result=\"miss\""))
			.isEqualTo(1);
		assertThat(value(after, "parity_comparison_cache_total", "cache=\"page\"", "result=\"hit\"")
				- value(before, "parity_comparison_cache_total", "cache=\"page\"", "result=\"hit\""))
			.isEqualTo(1);
		assertThat(value(after, "parity_comparison_cache_total", "cache=\"snapshot\"", "result=\"miss\"")
				- value(before, "parity_comparison_cache_total", "cache=\"snapshot\"", "result=\"miss\""))
			.isEqualTo(1);
		assertThat(after).containsPattern("(?m)^parity_comparisons_waiting(\\{[^}]*\\})? 0(\\.0)?$")
			.containsPattern("(?m)^parity_comparisons_computing(\\{[^}]*\\})? 0(\\.0)?$")
			.containsPattern("(?m)^parity_webhook_deliveries_failed_total(\\{[^}]*\\})? \\d");
	}

	private String scrape() throws Exception {
		HttpResponse<String> response = get("/actuator/prometheus", "Basic " + basic(VIEWER, VIEWER_PASSWORD));
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));
		return response.body();
	}

	/**
	 * The sum of the samples of {@code name} whose labels include every one given, as
	 * Prometheus would add them.
	 */
	private static double value(String scrape, String name, String... labels) {
		double sum = 0;
		for (String line : scrape.split("\n")) {
			if (!line.startsWith(name + "{") && !line.startsWith(name + " ")) {
				continue;
			}
			boolean matches = true;
			for (String label : labels) {
				matches &= line.contains(label);
			}
			if (matches) {
				sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
			}
		}
		return sum;
	}

	private HttpResponse<String> get(String path, String authorization) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path));
		if (authorization != null) {
			request.header("Authorization", authorization);
		}
		return http.send(request.GET().build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
	}

	private HttpResponse<String> post(String path, byte[] body) throws Exception {
		return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
			.header("Authorization", "Basic " + basic(TestUploads.USER, TestUploads.PASSWORD))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofByteArray(body))
			.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
	}

	private static String basic(String user, String password) {
		return Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
	}

}
