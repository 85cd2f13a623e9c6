package dev.parity.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.parity.Fixtures;
import dev.parity.TestUploads;
import dev.parity.reliability.ApiClient.Answer;
import dev.parity.run.Sha256;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * PostgreSQL stopped in the middle of uploads and page loads: every request fails at once
 * with 503 and {@code Retry-After} (a page for a browser, JSON for the API), health says
 * DOWN, no run is stored in part, and when PostgreSQL is back the same application serves
 * again and the repeated uploads are stored, each once.
 */
class DatabaseOutageTests {

	private static final int CLIENTS = 4;

	private static ExternalPostgres postgres;

	private static AppInstance app;

	private static ApiClient client;

	@BeforeAll
	static void startTheDatabaseAndTheApplication() {
		postgres = ExternalPostgres.start("outage");
		// A short wait for a connection, so that the test does not wait the default five
		// seconds per request.
		app = AppInstance.start(postgres.jdbcUrl(), "parity.db.connection-timeout=1s");
		client = new ApiClient(app.baseUrl());
	}

	@AfterAll
	static void stopThem() {
		if (app != null) {
			app.close();
		}
		if (postgres != null) {
			postgres.close();
		}
	}

	/** What one request got, and whether it was sent after the database had stopped. */
	private record Exchange(String what, byte[] document, Answer answer, boolean sentWhileDown) {
	}

	@Test
	void requestsGet503WhileTheDatabaseIsAwayAndTheApplicationRecoversByItself() throws Exception {
		List<byte[]> documents = documents(48);
		for (byte[] document : documents.subList(0, 4)) {
			assertThat(client.upload(document).status()).isEqualTo(201);
		}
		String storedRun = TestUploads.tree(client.upload(documents.get(0)).body().getBytes()).get("id").asString();

		List<Exchange> exchanges = Collections.synchronizedList(new ArrayList<>());
		AtomicBoolean down = new AtomicBoolean();
		CountDownLatch underWay = new CountDownLatch(CLIENTS * 2);
		CountDownLatch seenDown = new CountDownLatch(CLIENTS * 3);
		ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
		List<Future<?>> running = new ArrayList<>();
		for (int c = 0; c < CLIENTS; c++) {
			List<byte[]> mine = slice(documents.subList(4, documents.size()), c);
			running.add(clients.submit(() -> {
				// Uploads and page loads until this client's documents are sent and the
				// outage was seen often enough.
				for (int i = 0; i < mine.size() || seenDown.getCount() > 0; i++) {
					boolean sentWhileDown = down.get();
					if (i < mine.size()) {
						exchanges.add(new Exchange("upload", mine.get(i), client.upload(mine.get(i)), sentWhileDown));
					}
					String page = List.of("/runs", "/api/runs", "/runs/" + storedRun, "/").get(i % 4);
					Answer answer = page.startsWith("/api/") ? client.get(page) : client.page(page);
					exchanges.add(new Exchange("GET " + page, null, answer, sentWhileDown));
					underWay.countDown();
					if (sentWhileDown) {
						seenDown.countDown();
					}
				}
			}));
		}
		underWay.await();
		postgres.stop();
		down.set(true);
		seenDown.await();

		assertThat(client.get("/actuator/health").status()).as("health while the database is away").isEqualTo(503);
		assertThat(client.get("/actuator/health").body()).contains("DOWN");
		Answer page = client.page("/runs");
		assertThat(page.status()).isEqualTo(503);
		assertThat(page.retryAfter()).contains("5");
		assertThat(page.body()).contains("The database is unavailable")
			.contains("Try again in a few seconds")
			.contains("class=\"site-header\"");
		Answer signIn = client.signIn(TestUploads.USER, TestUploads.PASSWORD);
		assertThat(signIn.status()).as("signing in with the form while the database is away: %s", signIn)
			.isEqualTo(503);
		assertThat(signIn.retryAfter()).contains("5");
		assertThat(signIn.body()).contains("The database is unavailable").doesNotContain("Wrong user name or password");
		Answer api = client.get("/api/runs/" + storedRun);
		assertThat(api.status()).isEqualTo(503);
		assertThat(TestUploads.tree(api.body().getBytes()).at("/errors/0/message").asString())
			.contains("the database cannot be reached");

		postgres.startAgain();
		for (Future<?> future : running) {
			future.get();
		}
		clients.shutdown();

		synchronized (exchanges) {
			for (Exchange exchange : exchanges) {
				Answer answer = exchange.answer();
				if (exchange.what().equals("upload")) {
					assertThat(answer.status()).as("%s: %s", exchange.what(), answer).isIn(200, 201, 503);
				}
				else {
					assertThat(answer.status()).as("%s: %s", exchange.what(), answer).isIn(200, 503);
				}
				if (answer.status() == 503) {
					assertThat(answer.retryAfter()).as("%s: %s", exchange.what(), answer).contains("5");
				}
			}
			assertThat(exchanges).as("requests sent while the database was away")
				.filteredOn(exchange -> exchange.sentWhileDown() && exchange.answer().status() == 503)
				.hasSizeGreaterThanOrEqualTo(CLIENTS * 3);
		}

		// Recovery without a restart: the same application, the same pool.
		await().atMost(Duration.ofSeconds(60))
			.untilAsserted(() -> assertThat(client.get("/actuator/health").status()).isEqualTo(200));
		for (Exchange exchange : exchanges) {
			if (exchange.document() != null && exchange.answer().status() == 503) {
				Answer retried = retry(exchange.document());
				assertThat(retried.status()).as("the repeated upload").isIn(200, 201);
			}
		}

		for (byte[] document : documents) {
			assertThat(app.jdbc()
				.sql("select count(*) from run where upload_sha256 = ?")
				.param(Sha256.hex(document))
				.query(Long.class)
				.single()).as("runs of one document").isEqualTo(1);
		}
		assertThat(app.jdbc().sql("select count(*) from run").query(Long.class).single()).isEqualTo(documents.size());
		assertNoRunIsStoredInPart(app);
	}

	/**
	 * Every run has all its cells and its uploaded file: nothing of a failed upload
	 * remained.
	 */
	static void assertNoRunIsStoredInPart(AppInstance app) {
		assertThat(app.jdbc().sql("""
				select r.id from run r
				where r.cell_count <> (select count(*) from cell c where c.run_id = r.id)
				   or (select count(*) from run_file f where f.run_id = r.id) <> 1""").query(String.class).list())
			.as("runs stored in part")
			.isEmpty();
		assertThat(app.jdbc()
			.sql("select count(*) from cell c where not exists (select 1 from run r where r.id = c.run_id)")
			.query(Long.class)
			.single()).isZero();
	}

	/**
	 * Repeats an upload as a well-behaved client does after a 503, a few times: a
	 * connection the pool still held from before the outage is found broken on use (and
	 * dropped) rather than before.
	 */
	private static Answer retry(byte[] document) {
		Answer answer = client.upload(document);
		for (int attempt = 1; attempt < 5 && answer.status() == 503; attempt++) {
			answer = client.upload(document);
		}
		return answer;
	}

	private static List<byte[]> slice(List<byte[]> documents, int client) {
		List<byte[]> mine = new ArrayList<>();
		for (int i = client; i < documents.size(); i += CLIENTS) {
			mine.add(documents.get(i));
		}
		return mine;
	}

	static List<byte[]> documents(int count) {
		List<String> names = Fixtures.seedStoryNames();
		List<byte[]> documents = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			documents.add(TestUploads.fresh(names.get(i % names.size())));
		}
		return documents;
	}

}
