package dev.parity.reliability;

import java.io.IOException;
import java.net.CookieManager;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import com.sun.net.httpserver.HttpServer;
import dev.parity.Fixtures;
import dev.parity.MultipartBody;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.history.NightlyRunsAccess;
import dev.parity.history.Webhooks;
import dev.parity.run.BootstrapJobs;
import dev.parity.system.SchemaOwner;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances of Parity on one PostgreSQL, a browser alternating between them as a load
 * balancer without sticky sessions would send it: signed in on one, it previews an import
 * on the other, stores it on the first, and both show the run and a caveat written on the
 * second. The sign-in limit counts failures on either; signing out on one ends the
 * session on both.
 */
@ParityTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TwoInstancesTests {

	private static final String UPLOADER = "two-instances-uploader";

	private static final String PASSWORD = "two-instances-secret-4";

	@Autowired
	JdbcClient jdbc;

	@Autowired
	SchemaOwner owner;

	@Autowired
	Webhooks webhooks;

	@Autowired
	BootstrapJobs bootstrapJobs;

	@LocalServerPort
	int port;

	private AppInstance second;

	@BeforeEach
	void secondInstanceAndUploader() {
		jdbc.sql(
				"insert into app_user (username, password_hash, role) values (?, ?, 'uploader') on conflict (username) do nothing")
			.params(UPLOADER, "{noop}" + PASSWORD)
			.update();
		if (second == null) {
			second = AppInstance.startBeside(owner);
		}
	}

	@AfterAll
	void stopTheSecondInstance() {
		if (second != null) {
			second.close();
		}
	}

	@Test
	void aBrowserAlternatingBetweenInstancesSignsInPreviewsStoresAndReadsEverywhere() throws Exception {
		String one = "http://localhost:" + port;
		String two = second.baseUrl();
		Browser browser = new Browser();

		assertThat(browser.signIn(one, UPLOADER, PASSWORD).statusCode()).isEqualTo(302);

		// The preview on the other instance: the session (and its CSRF token) is the same
		// there.
		HttpResponse<String> form = browser.get(two + "/upload");
		assertThat(form.statusCode()).as("the upload form for the session signed in on the first instance")
			.isEqualTo(200);
		byte[] sample = Files.readAllBytes(Fixtures.sample("vllm-bench-sweep-run.json"));
		HttpResponse<String> preview = browser.postMultipart(two + "/upload",
				new MultipartBody().file("file", "vllm-bench-sweep-run.json", sample), csrf(form.body()));
		assertThat(preview.statusCode()).as(preview.body()).isEqualTo(200);
		String token = match(preview.body(), "name=\"token\" value=\"([^\"]+)\"");
		assertThat(
				jdbc.sql("select count(*) from pending_upload where token = ?").param(token).query(Long.class).single())
			.as("the preview's files are held in the database")
			.isOne();

		// Stored on the first instance, from the preview the second one holds.
		String title = "Two instances " + UUID.randomUUID().toString().substring(0, 8);
		Map<String, String> provenance = new LinkedHashMap<>();
		provenance.put("_csrf", csrf(preview.body()));
		provenance.put("token", token);
		provenance.put("action", "store");
		provenance.put("title", title);
		provenance.put("systemName", "2x H100");
		provenance.put("modelRepo", "org/model");
		provenance.put("engineName", "vllm");
		provenance.put("harnessName", "vllm bench serve");
		HttpResponse<String> stored = browser.postForm(one + "/upload/import", provenance);
		assertThat(stored.statusCode()).as(stored.body()).isEqualTo(302);
		String runPath = URI.create(stored.headers().firstValue("Location").orElseThrow()).getPath();
		assertThat(runPath).startsWith("/runs/");
		assertThat(
				jdbc.sql("select count(*) from pending_upload where token = ?").param(token).query(Long.class).single())
			.as("a stored preview is released")
			.isZero();

		// A caveat written on the second instance.
		HttpResponse<String> runPage = browser.get(two + runPath);
		assertThat(runPage.statusCode()).isEqualTo(200);
		String caveat = "Measured while another job shared the GPUs " + UUID.randomUUID().toString().substring(0, 8);
		HttpResponse<String> added = browser.postForm(two + runPath + "/caveats",
				Map.of("_csrf", csrf(runPage.body()), "text", caveat));
		assertThat(added.statusCode()).as(added.body()).isEqualTo(302);

		for (String instance : new String[] { one, two }) {
			for (Browser reader : new Browser[] { browser, new Browser() }) {
				HttpResponse<String> page = reader.get(instance + runPath);
				assertThat(page.statusCode()).isEqualTo(200);
				assertThat(page.body()).as("the run page on %s", instance).contains(title).contains(caveat);
			}
			assertThat(new ApiClient(instance).get("/api" + runPath).body()).contains(title).contains(caveat);
		}

		// Signing out on one instance ends the session on both.
		HttpResponse<String> before = browser.get(one + "/upload");
		assertThat(browser.postForm(two + "/logout", Map.of("_csrf", csrf(before.body()))).statusCode()).isEqualTo(302);
		HttpResponse<String> after = browser.get(one + "/upload");
		assertThat(after.statusCode()).isEqualTo(302);
		assertThat(after.headers().firstValue("Location").orElseThrow()).endsWith("/login");
	}

	@Test
	void failuresOnOneInstanceCountOnTheOther() throws Exception {
		String name = "nobody-" + UUID.randomUUID().toString().substring(0, 8);
		String wrong = "Basic "
				+ Base64.getEncoder().encodeToString((name + ":wrong-password").getBytes(StandardCharsets.UTF_8));
		for (int i = 0; i < 5; i++) {
			assertThat(new Browser().get("http://localhost:" + port + "/account", wrong).statusCode()).isEqualTo(401);
		}
		HttpResponse<String> refused = new Browser().get(second.baseUrl() + "/account", wrong);
		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.headers().firstValue("Retry-After")).isPresent();
	}

	@Test
	void aComparisonPageKeptByOneInstanceShowsACaveatWrittenOnTheOther() throws Exception {
		String one = "http://localhost:" + port;
		String two = second.baseUrl();
		ApiClient admin = new ApiClient(one);
		String baseline = id(admin.upload(TestUploads.fresh("run-b-effort-low.json")));
		String contender = id(admin.upload(TestUploads.fresh("run-c-effort-high.json")));
		String comparison = "/compare/" + baseline + "..." + contender;
		// A visitor who is not signed in, on the second instance: the rendered page is
		// kept there.
		assertThat(new Browser().get(two + comparison).statusCode()).isEqualTo(200);
		assertThat(new Browser().get(two + comparison).statusCode()).isEqualTo(200);

		Browser browser = new Browser();
		assertThat(browser.signIn(one, UPLOADER, PASSWORD).statusCode()).isEqualTo(302);
		HttpResponse<String> signedInPage = browser.get(one + comparison);
		String caveat = "The baseline ran on a throttled GPU " + UUID.randomUUID().toString().substring(0, 8);
		assertThat(browser
			.postForm(one + comparison + "/caveats", Map.of("_csrf", csrf(signedInPage.body()), "text", caveat))
			.statusCode()).isEqualTo(302);

		for (String instance : new String[] { two, one }) {
			assertThat(new Browser().get(instance + comparison).body()).as("the comparison on %s", instance)
				.contains(caveat);
		}
	}

	@Test
	void anAlertRaisedWhileBothInstancesWorkIsDeliveredOnce() throws Exception {
		String one = "http://localhost:" + port;
		String two = second.baseUrl();
		String system = "two-instances-nightly-" + UUID.randomUUID().toString().substring(0, 6);
		List<String> received = Collections.synchronizedList(new ArrayList<>());
		HttpServer hook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		hook.createContext("/hook", exchange -> {
			received.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
			exchange.sendResponseHeaders(204, -1);
			exchange.close();
		});
		hook.start();
		try {
			String basic = "Basic " + Base64.getEncoder()
				.encodeToString((TestUploads.USER + ":" + TestUploads.PASSWORD).getBytes(StandardCharsets.UTF_8));
			HttpResponse<String> registered = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create(two + "/api/admin/webhooks"))
					.header("Authorization", basic)
					.header("Content-Type", "application/json")
					.POST(HttpRequest.BodyPublishers.ofString("{\"url\": \"http://127.0.0.1:"
							+ hook.getAddress().getPort() + "/hook\", \"kind\": \"generic\"}"))
					.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(registered.statusCode()).as(registered.body()).isEqualTo(201);
			long webhookId = Long.parseLong(match(registered.body(), "\"id\"\\s*:\\s*([0-9]+)"));

			// The nightly series, its uploads alternating between the instances: both
			// workers update series.
			int night = 0;
			for (var document : NightlyRunsAccess.series(system)) {
				id(new ApiClient(night++ % 2 == 0 ? one : two)
					.upload(document.toString().getBytes(StandardCharsets.UTF_8)));
			}
			String alerts = new ApiClient(one).get("/api/alerts?status=open").body();
			String seriesId = match(new ApiClient(two).get("/api/series?system=" + system).body(),
					"\"id\"\\s*:\\s*\"([0-9a-f]+)\"");
			assertThat(alerts).contains(seriesId);
			Supplier<Long> ours = () -> received.stream().filter(body -> body.contains(seriesId)).count();
			// Both instances send due deliveries at the same moments, several rounds
			// (their pollers, as they would).
			Webhooks here = webhooks;
			Webhooks there = second.bean(Webhooks.class);
			for (int round = 0; round < 5; round++) {
				Instant now = Instant.now();
				var a = CompletableFuture.supplyAsync(() -> here.deliverDue(now));
				var b = CompletableFuture.supplyAsync(() -> there.deliverDue(now));
				a.join();
				b.join();
			}
			assertThat(ours.get()).as("deliveries of the series' one alert").isEqualTo(1);
			assertThat(jdbc.sql("""
					select count(*) from webhook_attempt a join webhook_delivery d on d.id = a.delivery_id
					join alert al on al.id = d.alert_id where al.series_id = ? and d.webhook_id = ?""")
				.params(seriesId, webhookId)
				.query(Long.class)
				.single()).as("attempts to this webhook for the series' alert (webhooks of other tests get their own)")
				.isEqualTo(1);
		}
		finally {
			hook.stop(0);
		}
	}

	@Test
	void eachRunsMedianWindowsAreStoredWithItsUploadOnEitherInstanceAndNoJobIsLeft() throws Exception {
		String one = "http://localhost:" + port;
		List<String> runs = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			runs.add(id(new ApiClient(i % 2 == 0 ? one : second.baseUrl()).upload(withSamples(20 + i))));
		}
		String[] ids = runs.toArray(String[]::new);
		// What a comparison of two single runs reads is written in the upload's own
		// transaction, whichever instance took it: nothing is left for a worker.
		assertThat(jdbc.sql("select count(*) from bootstrap_job where run_id = any(?)")
			.param(ids)
			.query(Long.class)
			.single()).as("no job per run").isZero();
		assertThat(jdbc.sql("select count(*) from cell_median_window where run_id = any(?)")
			.param(ids)
			.query(Long.class)
			.single()).as("two cells with ttft samples per run").isEqualTo(12);
		assertThat(jdbc.sql("select count(distinct run_id) from cell_median_window where run_id = any(?)")
			.param(ids)
			.query(Long.class)
			.single()).isEqualTo(6);
	}

	/**
	 * The control run, a fresh title, with {@code count} ttft samples in each of its
	 * first two cells.
	 */
	private static byte[] withSamples(int count) {
		ObjectNode document = (ObjectNode) TestUploads.tree(TestUploads.fresh("run-e-control.json"));
		for (int c = 0; c < 2; c++) {
			ArrayNode samples = ((ObjectNode) document.get("cells").get(c)).putArray("samples");
			for (int i = 0; i < count; i++) {
				samples.addObject().put("ttft_s", 1 + ((i * 37 + c) % 23) / 100.0);
			}
		}
		return document.toString().getBytes(StandardCharsets.UTF_8);
	}

	private static String id(ApiClient.Answer answer) {
		assertThat(answer.status()).as(answer.toString()).isIn(200, 201);
		return match(answer.body(), "\"id\"\\s*:\\s*\"([a-z0-9]+)\"");
	}

	/**
	 * A browser: keeps its cookies (for any port of localhost, as browsers do), follows
	 * no redirect.
	 */
	private static final class Browser {

		private final HttpClient http = HttpClient.newBuilder()
			.cookieHandler(new CookieManager())
			.connectTimeout(Duration.ofSeconds(30))
			.build();

		HttpResponse<String> signIn(String base, String user, String password) throws Exception {
			HttpResponse<String> form = get(base + "/login");
			return postForm(base + "/login",
					Map.of("username", user, "password", password, "_csrf", csrf(form.body())));
		}

		HttpResponse<String> get(String url) throws IOException, InterruptedException {
			return http.send(HttpRequest.newBuilder(URI.create(url))
				.header("Accept", "text/html")
				.timeout(Duration.ofSeconds(90))
				.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
		}

		HttpResponse<String> get(String url, String authorization) throws IOException, InterruptedException {
			return http.send(HttpRequest.newBuilder(URI.create(url))
				.header("Accept", "text/html")
				.header("Authorization", authorization)
				.timeout(Duration.ofSeconds(90))
				.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
		}

		HttpResponse<String> postForm(String url, Map<String, String> fields) throws IOException, InterruptedException {
			String body = fields.entrySet()
				.stream()
				.map(f -> URLEncoder.encode(f.getKey(), StandardCharsets.UTF_8) + "="
						+ URLEncoder.encode(f.getValue(), StandardCharsets.UTF_8))
				.collect(Collectors.joining("&"));
			return http.send(HttpRequest.newBuilder(URI.create(url))
				.header("Accept", "text/html")
				.header("Content-Type", "application/x-www-form-urlencoded")
				.timeout(Duration.ofSeconds(90))
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
		}

		HttpResponse<String> postMultipart(String url, MultipartBody body, String csrf)
				throws IOException, InterruptedException {
			return http.send(HttpRequest.newBuilder(URI.create(url))
				.header("Accept", "text/html")
				.header("Content-Type", MultipartBody.contentType())
				.header("X-CSRF-TOKEN", csrf)
				.timeout(Duration.ofSeconds(90))
				.POST(HttpRequest.BodyPublishers.ofByteArray(body.bytes()))
				.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
		}

	}

	private static String csrf(String page) {
		return match(page, "name=\"_csrf\" value=\"([^\"]+)\"");
	}

	private static String match(String page, String pattern) {
		Matcher matcher = Pattern.compile(pattern).matcher(page);
		assertThat(matcher.find()).as("%s in %s", pattern, page.length() > 2000 ? page.substring(0, 2000) : page)
			.isTrue();
		return matcher.group(1);
	}

}
