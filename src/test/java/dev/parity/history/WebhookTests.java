package dev.parity.history;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.transaction.PlatformTransactionManager;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * An alert reaches a webhook on loopback through the outbox: signed, retried after a
 * failure, every attempt logged.
 */
@ParityTest
class WebhookTests {

	@Autowired
	PlatformTransactionManager transactions;

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
		JsonNode registered = TestUploads.tree(mvc
			.perform(post("/api/admin/webhooks").with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"url\": \"" + url + "\", \"kind\": \"generic\"}"))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
		String secret = registered.get("signing_secret").asString();
		assertThat(mvc.perform(get("/api/admin/webhooks").with(httpBasic(USER, PASSWORD)))
			.andReturn()
			.getResponse()
			.getContentAsString()).contains("127.0.0.1").doesNotContain("secret-path").doesNotContain(secret);

		for (ObjectNode night : NightlyRuns.series("nightly-box-w")) {
			TestUploads.upload(mvc, night.toString().getBytes(StandardCharsets.UTF_8));
		}
		String seriesId = TestUploads.tree(
				mvc.perform(get("/api/series?system=nightly-box-w")).andReturn().getResponse().getContentAsByteArray())
			.at("/series/0/id")
			.asString();
		String alertId = TestUploads
			.tree(mvc.perform(get("/api/alerts?series=" + seriesId)).andReturn().getResponse().getContentAsByteArray())
			.at("/alerts/0/id")
			.asString();
		assertThat(jdbc.sql("select count(*) from webhook_delivery where alert_id = ?")
			.param(alertId)
			.query(Integer.class)
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
			.andReturn()
			.getResponse()
			.getContentAsString()).contains("delivered", "500", "204");
	}

	@Test
	void privateAddressesAndOtherSchemesAreRefusedUnlessAllowed() throws Exception {
		Webhooks strict = new Webhooks(jdbc, false, transactions);
		assertThatThrownBy(() -> strict.register("http://127.0.0.1:9/x", "generic", "someone"))
			.hasMessageContaining("private, loopback, link-local")
			.hasMessageContaining("loopback (127.0.0.0/8)");
		assertThatThrownBy(() -> strict.register("http://169.254.169.254/latest", "generic", "someone"))
			.hasMessageContaining("link-local (169.254.0.0/16");
		assertThatThrownBy(() -> strict.register("http://10.1.2.3/x", "slack", "someone"))
			.hasMessageContaining("private (10.0.0.0/8)");
		mvc.perform(post("/api/admin/webhooks").with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content("{\"url\": \"file:///etc/passwd\"}")).andExpect(status().isBadRequest());
		mvc.perform(post("/api/admin/webhooks").with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content("{\"url\": \"http://127.0.0.1:9/x\", \"kind\": \"teams\"}")).andExpect(status().isBadRequest());
	}

	/**
	 * Issue 23, finding 8: every range of IANA's special-purpose registries is refused —
	 * cloud metadata in the shared space, the IETF assignments, benchmarking, NAT64,
	 * IPv4-mapped, documentation, … — and public addresses are not.
	 */
	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "http://100.100.100.200/latest/meta-data/", "http://100.64.0.1/",
			"http://100.127.255.254/", "http://192.0.0.170/", "http://192.0.0.8/", "http://198.18.0.1/",
			"http://198.19.255.255/", "http://0.0.0.0/", "http://127.0.0.1/", "http://127.8.9.10/", "http://10.0.0.1/",
			"http://172.16.0.1/", "http://172.31.255.255/", "http://192.168.1.1/", "http://169.254.169.254/",
			"http://192.0.2.1/", "http://198.51.100.1/", "http://203.0.113.1/", "http://192.88.99.1/",
			"http://192.31.196.1/", "http://192.52.193.1/", "http://192.175.48.1/", "http://224.0.0.1/",
			"http://239.255.255.250/", "http://240.0.0.1/", "http://255.255.255.255/", "http://[::1]/", "http://[::]/",
			"http://[64:ff9b::7f00:1]/", "http://[64:ff9b::a9fe:a9fe]/", "http://[64:ff9b:1::1]/",
			"http://[::ffff:127.0.0.1]/", "http://[::ffff:8.8.8.8]/", "http://[::ffff:a64:64c8]/",
			"http://[::127.0.0.1]/", "http://[100::1]/", "http://[2001::1]/", "http://[2001:2::1]/",
			"http://[2001:db8::1]/", "http://[3fff::1]/", "http://[2002:7f00:1::1]/", "http://[2620:4f:8000::1]/",
			"http://[5f00::1]/", "http://[fc00::1]/", "http://[fd00:ec2::254]/", "http://[fe80::1]/",
			"http://[fec0::1]/", "http://[ff02::1]/" })
	void everySpecialPurposeAddressIsRefused(String url) {
		Webhooks strict = new Webhooks(jdbc, false, transactions);
		assertThatThrownBy(() -> strict.check(url)).as(url)
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("special-purpose address");
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "https://8.8.8.8/hook", "http://93.184.215.14/", "http://100.63.255.255/",
			"http://100.128.0.1/", "http://198.17.255.255/", "http://198.20.0.1/", "http://192.0.1.1/",
			"http://[2606:4700:4700::1111]/", "http://[2a00:1450:4001:80b::200e]/" })
	void publicAddressesAreAccepted(String url) {
		assertThat(new Webhooks(jdbc, false, transactions).check(url).uri()).hasToString(url);
	}

	/**
	 * A name with a public and a private address is refused: the client could pick
	 * either.
	 */
	@Test
	void aNameIsRefusedWhenAnyOfItsAddressesIsSpecial() throws Exception {
		InetAddress[] mixed = { InetAddress.getByName("8.8.8.8"), InetAddress.getByName("100.100.100.200") };
		Webhooks strict = new Webhooks(jdbc, false, transactions, host -> mixed);
		assertThatThrownBy(() -> strict.check("https://hooks.example.com/x")).hasMessageContaining("100.64.0.0/10");
	}

	/**
	 * The delivery connects to the address that was checked: the host is looked up once,
	 * and the client never looks it up again (a name the system's resolver does not know
	 * still reaches the receiver, through the pinned address).
	 */
	@Test
	void theDeliveryConnectsToTheAddressThatWasChecked() throws Exception {
		AtomicInteger lookups = new AtomicInteger();
		InetAddress loopback = InetAddress.getByAddress(new byte[] { 127, 0, 0, 1 });
		List<String> hosts = new CopyOnWriteArrayList<>();
		server.createContext("/hooks/pinned", exchange -> {
			hosts.add(exchange.getRequestHeaders().getFirst("Host"));
			exchange.sendResponseHeaders(204, -1);
			exchange.close();
		});
		Webhooks pinning = new Webhooks(jdbc, true, transactions, host -> {
			lookups.incrementAndGet();
			if (!host.equals("rebinding.parity.invalid")) {
				throw new UnknownHostException(host);
			}
			return new InetAddress[] { loopback };
		});
		int port = server.getAddress().getPort();
		Webhooks.Target target = pinning.check("http://rebinding.parity.invalid:" + port + "/hooks/pinned");
		assertThat(Webhooks.send(target, "{}", "secret")).isEqualTo(204);
		assertThat(lookups.get()).as("looked up once, when checked").isEqualTo(1);
		assertThat(hosts).containsExactly("rebinding.parity.invalid:" + port);
	}

}
