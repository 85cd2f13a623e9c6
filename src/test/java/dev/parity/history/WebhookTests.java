package dev.parity.history;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** An alert reaches a webhook on loopback through the outbox: signed, retried after a failure, every attempt logged. */
@ParityTest
class WebhookTests {

	@Autowired
	org.springframework.transaction.PlatformTransactionManager transactions;

	@Autowired
	MockMvc mvc;

	@Autowired
	Webhooks webhooks;

	@Autowired
	JdbcClient jdbc;

	private HttpServer server;

	private final List<String> bodies = new CopyOnWriteArrayList<>();

	private final List<String> signatures = new CopyOnWriteArrayList<>();

	private final AtomicInteger calls = new AtomicInteger();

	@BeforeEach
	void startReceiver() throws IOException {
		server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		server.createContext("/hooks/secret-path", exchange -> {
			bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
			signatures.add(exchange.getRequestHeaders().getFirst("X-Parity-Signature"));
			// the first delivery fails: the outbox must retry it
			exchange.sendResponseHeaders(calls.incrementAndGet() == 1 ? 500 : 204, -1);
			exchange.close();
		});
		server.start();
	}

	@AfterEach
	void stopReceiver() {
		server.stop(0);
	}

	@Test
	void anAlertIsDeliveredSignedAndRetriedAfterAFailure() throws Exception {
		String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks/secret-path";
		JsonNode registered = TestUploads.tree(mvc.perform(post("/api/admin/webhooks").with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON).content("{\"url\": \"" + url + "\", \"kind\": \"generic\"}"))
			.andExpect(status().isCreated()).andReturn().getResponse().getContentAsByteArray());
		String secret = registered.get("signing_secret").asString();
		assertThat(mvc.perform(get("/api/admin/webhooks").with(httpBasic(USER, PASSWORD))).andReturn().getResponse()
			.getContentAsString()).contains("127.0.0.1").doesNotContain("secret-path").doesNotContain(secret);

		for (ObjectNode night : NightlyRuns.series("nightly-box-w")) {
			TestUploads.upload(mvc, night.toString().getBytes(StandardCharsets.UTF_8));
		}
		String seriesId = TestUploads.tree(mvc.perform(get("/api/series?system=nightly-box-w")).andReturn().getResponse()
			.getContentAsByteArray()).at("/series/0/id").asString();
		String alertId = TestUploads.tree(mvc.perform(get("/api/alerts?series=" + seriesId)).andReturn().getResponse()
			.getContentAsByteArray()).at("/alerts/0/id").asString();
		assertThat(jdbc.sql("select count(*) from webhook_delivery where alert_id = ?").param(alertId).query(Integer.class)
			.single()).as("written with the alert, before any attempt").isEqualTo(1);
		assertThat(calls.get()).as("nothing is sent during the upload").isZero();

		Instant now = Instant.now();
		webhooks.deliverDue(now);
		assertThat(calls.get()).isEqualTo(1);
		assertThat(webhooks.deliveries(alertId).get(0).status()).isEqualTo("pending");
		webhooks.deliverDue(now);
		assertThat(calls.get()).as("not due again before its back-off").isEqualTo(1);
		webhooks.deliverDue(now.plusSeconds(31));
		assertThat(calls.get()).isEqualTo(2);

		Webhooks.Delivery delivery = webhooks.deliveries(alertId).get(0);
		assertThat(delivery.status()).isEqualTo("delivered");
		assertThat(delivery.log()).extracting(Webhooks.Attempt::httpStatus).containsExactly(500, 204);
		assertThat(bodies.get(1)).contains(alertId, "alert.raised", "regression");
		JsonNode body = TestUploads.tree(bodies.get(1).getBytes(StandardCharsets.UTF_8));
		assertThat(body.get("series_name").asString()).startsWith("nightly-box-w · ");
		assertThat(body.get("run_title").asString()).startsWith("nightly nightly-box-w #");
		assertThat(body.get("cells").get(0).asString()).contains("concurrency ", ": ", " %");
		assertThat(signatures.get(1)).isEqualTo("sha256=" + Webhooks.sign(secret, bodies.get(1)));
		assertThat(mvc.perform(get("/api/admin/webhooks/deliveries?alert=" + alertId).with(httpBasic(USER, PASSWORD)))
			.andReturn().getResponse().getContentAsString()).contains("delivered", "500", "204");
	}

	@Test
	void privateAddressesAndOtherSchemesAreRefusedUnlessAllowed() throws Exception {
		Webhooks strict = new Webhooks(jdbc, false, transactions);
		assertThatThrownBy(() -> strict.register("http://127.0.0.1:9/x", "generic", "someone"))
			.hasMessageContaining("private, loopback or link-local");
		assertThatThrownBy(() -> strict.register("http://169.254.169.254/latest", "generic", "someone"))
			.hasMessageContaining("private, loopback or link-local");
		assertThatThrownBy(() -> strict.register("http://10.1.2.3/x", "slack", "someone"))
			.hasMessageContaining("private, loopback or link-local");
		mvc.perform(post("/api/admin/webhooks").with(httpBasic(USER, PASSWORD)).contentType(MediaType.APPLICATION_JSON)
			.content("{\"url\": \"file:///etc/passwd\"}"))
			.andExpect(status().isBadRequest());
		mvc.perform(post("/api/admin/webhooks").with(httpBasic(USER, PASSWORD)).contentType(MediaType.APPLICATION_JSON)
			.content("{\"url\": \"http://127.0.0.1:9/x\", \"kind\": \"teams\"}"))
			.andExpect(status().isBadRequest());
	}

}
