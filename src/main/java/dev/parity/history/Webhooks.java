package dev.parity.history;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import io.micrometer.core.instrument.Metrics;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Webhooks for alerts: an admin registers an http(s) URL (a secret: never shown again,
 * never logged), generic JSON or Slack-compatible text. A raised alert writes one
 * delivery per webhook to an outbox in its own transaction; a worker sends due
 * deliveries, each signed ({@code X-Parity-Signature: sha256=<HMAC-SHA256 of the body>}),
 * retries with back-off, and logs every attempt. Every special-purpose address
 * ({@link SpecialAddresses}: private, loopback, link-local, shared, cloud metadata,
 * NAT64, IPv4-mapped, documentation, …) is refused unless configuration allows them; the
 * host is resolved once per registration and per attempt, every address it resolves to is
 * checked, and the attempt connects only to those addresses (no second lookup that a
 * rebinding DNS server could answer otherwise), with no proxy and no redirect followed. A
 * dead webhook never slows or fails an upload: delivery happens apart from it.
 */
@Service
public class Webhooks implements Alerts.AlertListener {

	private static final Logger log = LoggerFactory.getLogger(Webhooks.class);

	/** Attempts before a delivery is given up. */
	static final int MAX_ATTEMPTS = 6;

	private final JdbcClient jdbc;

	private final boolean allowPrivate;

	private final JsonMapper json = JsonMapper.builder().build();

	private final Resolver resolver;

	private final SecureRandom random = new SecureRandom();

	private final TransactionTemplate transaction;

	/**
	 * Looks a host name up: every address it has (the system's resolver, in production).
	 */
	@FunctionalInterface
	interface Resolver {

		InetAddress[] resolve(String host) throws UnknownHostException;

	}

	@Autowired
	Webhooks(JdbcClient jdbc, @Value("${parity.history.webhooks.allow-private:false}") boolean allowPrivate,
			PlatformTransactionManager transactions) {
		this(jdbc, allowPrivate, transactions, InetAddress::getAllByName);
	}

	Webhooks(JdbcClient jdbc, boolean allowPrivate, PlatformTransactionManager transactions, Resolver resolver) {
		this.jdbc = jdbc;
		this.allowPrivate = allowPrivate;
		this.resolver = resolver;
		this.transaction = new TransactionTemplate(transactions);
		this.transaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
	}

	/**
	 * Writes the confirmation plan into payloads; absent (tests that make a Webhooks of
	 * their own), no plan.
	 */
	private @Nullable ObjectProvider<AlertControls> controls;

	@Autowired
	void controls(ObjectProvider<AlertControls> controls) {
		this.controls = controls;
	}

	/** A webhook as listed: its host, never its URL. */
	public record Listed(long id, String host, String kind, Instant createdAt, String createdBy) {
	}

	/** What registration answers, once: the signing secret. */
	public record Registered(long id, String host, String kind, String signingSecret) {
	}

	/** A delivery with every attempt. */
	public record Delivery(long id, long webhook, String alert, String status, int attempts, Instant nextAttemptAt,
			List<Attempt> log) {
	}

	public record Attempt(Instant at, @Nullable Integer httpStatus, @Nullable String error, long durationMs) {
	}

	/**
	 * Registers a webhook.
	 * @throws IllegalArgumentException naming what is wrong with the URL or kind (without
	 * repeating the URL)
	 */
	public Registered register(String url, String kind, String by) {
		if (!List.of("generic", "slack").contains(kind)) {
			throw new IllegalArgumentException("kind must be generic or slack, not '" + kind + "'");
		}
		URI uri = check(url).uri();
		byte[] key = new byte[32];
		random.nextBytes(key);
		String secret = HexFormat.of().formatHex(key);
		long id = jdbc.sql(
				"insert into webhook (url, host, kind, signing_secret, created_by) values (?, ?, ?, ?, ?) returning id")
			.params(url, uri.getHost(), kind, secret, by)
			.query(Long.class)
			.single();
		return new Registered(id, uri.getHost(), kind, secret);
	}

	public List<Listed> list() {
		return jdbc.sql("select id, host, kind, created_at, created_by from webhook order by id")
			.query((rs, row) -> new Listed(rs.getLong(1), rs.getString(2), rs.getString(3),
					rs.getTimestamp(4).toInstant(), rs.getString(5)))
			.list();
	}

	/**
	 * The outbox: one delivery per webhook, in the transaction that raises the alert,
	 * with the alert's confirmation plan.
	 */
	@Override
	public void raised(Alerts.Alert alert, SeriesAnalysis analysis) {
		List<Map<String, Object>> hooks = jdbc.sql("select id, kind from webhook order by id").query().listOfRows();
		if (hooks.isEmpty()) {
			return;
		}
		AlertControls planner = controls == null ? null : controls.getIfAvailable();
		AlertControls.Plan plan = planner == null ? null : planner.plan(alert, analysis, true);
		for (Map<String, Object> hook : hooks) {
			String payload = payload(alert, plan, (String) hook.get("kind"), "alert.raised");
			jdbc.sql("insert into webhook_delivery (webhook_id, alert_id, payload) values (?, ?, ?)")
				.params(hook.get("id"), alert.id(), payload)
				.update();
		}
	}

	/**
	 * The outbox of an alert its reruns reproduced: one {@code alert.confirmed} delivery
	 * per webhook, once (a webhook that already has one for this alert gets no other).
	 */
	void confirmed(Alerts.Alert alert, AlertControls.Plan plan) {
		List<Map<String, Object>> hooks = jdbc.sql("select id, kind from webhook order by id").query().listOfRows();
		for (Map<String, Object> hook : hooks) {
			String payload = payload(alert, plan, (String) hook.get("kind"), "alert.confirmed");
			jdbc.sql(
					"""
							insert into webhook_delivery (webhook_id, alert_id, payload, event) values (?, ?, ?, 'alert.confirmed')
							on conflict (webhook_id, alert_id) where event = 'alert.confirmed' do nothing""")
				.params(hook.get("id"), alert.id(), payload)
				.update();
		}
	}

	private String payload(Alerts.Alert alert, AlertControls.@Nullable Plan plan, String kind, String event) {
		String series = seriesName(alert.series());
		String title = jdbc.sql("select title from run where id = ?")
			.param(alert.run())
			.query(String.class)
			.optional()
			.orElse(alert.run());
		List<String> cells = alert.changes().stream().map(Webhooks::inWords).toList();
		String text = "Parity alert " + alert.id() + ": " + alert.direction() + " in " + series + " from run “" + title
				+ "” (" + alert.run() + ") — " + alert.changes().size() + " cell × metric"
				+ (alert.changes().size() == 1 ? "" : "s")
				+ (cells.isEmpty() ? ""
						: ": " + cells.get(0) + (cells.size() > 1 ? " and " + (cells.size() - 1) + " more" : ""))
				+ " (/series/" + alert.series() + "#alert-" + alert.id() + ")";
		if (event.equals("alert.confirmed") && alert.confirmation() != null) {
			Alerts.Confirmation confirmation = alert.confirmation();
			text = "Parity alert " + alert.id() + " confirmed by " + confirmation.reruns() + " reruns: "
					+ confirmation.metric() + " at " + confirmation.anchor()
					+ (confirmation.ratio() == null ? "" : String.format(Locale.ROOT, " ×%.3f", confirmation.ratio()))
					+ (confirmation.interval() == null ? ""
							: String.format(Locale.ROOT, " (95 %% %.3f–%.3f)", confirmation.interval().low(),
									confirmation.interval().high()))
					+ " — " + alert.direction() + " in " + series + " from run “" + title + "” (" + alert.run() + ")"
					+ " (/series/" + alert.series() + "#alert-" + alert.id() + ")";
		}
		if (kind.equals("slack")) {
			return json.writeValueAsString(Map.of("text", text));
		}
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("event", event);
		body.put("alert", alert);
		body.put("series_name", series);
		body.put("run_title", title);
		body.put("cells", cells);
		body.put("plan", plan);
		body.put("text", text);
		return json.writeValueAsString(body);
	}

	/** "system · model · engine · harness · branch": the series in words. */
	private String seriesName(String seriesId) {
		return jdbc.sql("select system_name, model_repo, engine_name, harness_name, branch from series where id = ?")
			.param(seriesId)
			.query((rs, row) -> String.join(" · ", rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
					rs.getString(5)))
			.optional()
			.orElse("series " + seriesId);
	}

	/**
	 * "prompt_tokens 1024, concurrency 8: decode_tps −9.0 % (1,200 → 1,092)": one change
	 * in words.
	 */
	static String inWords(Alerts.Change change) {
		String params = change.params()
			.entrySet()
			.stream()
			.map(e -> e.getKey() + " " + e.getValue())
			.collect(Collectors.joining(", "));
		double relative = change.meanBefore() == 0 ? 0 : change.meanAfter() / change.meanBefore() - 1;
		return (params.isEmpty() ? change.anchor() : params) + ": " + change.metric() + " "
				+ String.format(Locale.ROOT, "%+.1f %%", relative * 100).replace('-', '−') + " ("
				+ String.format(Locale.ROOT, "%.4g → %.4g", change.meanBefore(), change.meanAfter()) + ")";
	}

	/**
	 * Sends every delivery due at {@code now} (up to 50); returns how many were
	 * attempted. Each is claimed in a transaction of its own
	 * ({@code FOR UPDATE SKIP LOCKED}) that also records the attempt, so that instances
	 * sharing the database send each delivery once.
	 */
	public int deliverDue(Instant now) {
		int attempted = 0;
		while (attempted < 50 && Boolean.TRUE.equals(transaction.execute(status -> deliverOne(now)))) {
			attempted++;
		}
		return attempted;
	}

	private boolean deliverOne(Instant now) {
		List<Map<String, Object>> due = jdbc.sql("""
				select d.id, d.payload, d.attempts, w.url, w.signing_secret
				from webhook_delivery d join webhook w on w.id = d.webhook_id
				where d.status = 'pending' and d.next_attempt_at <= ? order by d.next_attempt_at, d.id
				limit 1 for update of d skip locked""").param(Timestamp.from(now)).query().listOfRows();
		for (Map<String, Object> delivery : due) {
			attempt(((Number) delivery.get("id")).longValue(), (String) delivery.get("payload"),
					((Number) delivery.get("attempts")).intValue(), (String) delivery.get("url"),
					(String) delivery.get("signing_secret"), now);
		}
		return !due.isEmpty();
	}

	@Scheduled(fixedDelayString = "${parity.history.webhooks.poll:5s}")
	void deliverNow() {
		try {
			deliverDue(Instant.now());
		}
		catch (RuntimeException ex) {
			log.warn("history: webhook deliveries could not run: {}", ex.getMessage());
		}
	}

	private void attempt(long id, String payload, int attempts, String url, String secret, Instant now) {
		long started = System.nanoTime();
		Integer status = null;
		String error = null;
		try {
			status = send(check(url), payload, secret);
			if (status < 200 || status >= 300) {
				error = "HTTP " + status;
			}
		}
		catch (IllegalArgumentException ex) {
			error = ex.getMessage();
		}
		catch (IOException ex) {
			// the message may carry the URL: say only what kind of failure it was
			error = ex.getClass().getSimpleName();
		}
		long millis = (System.nanoTime() - started) / 1_000_000;
		jdbc.sql("insert into webhook_attempt (delivery_id, http_status, error, duration_ms) values (?, ?, ?, ?)")
			.params(id, status, error, millis)
			.update();
		int made = attempts + 1;
		if (error == null) {
			jdbc.sql("update webhook_delivery set status = 'delivered', attempts = ? where id = ?")
				.params(made, id)
				.update();
		}
		else if (made >= MAX_ATTEMPTS) {
			jdbc.sql("update webhook_delivery set status = 'failed', attempts = ? where id = ?")
				.params(made, id)
				.update();
			Metrics.counter("parity.webhook.deliveries.failed").increment(); // system/OperationsMetrics
		}
		else {
			// back-off: 30 s, 1 min, 2 min, 4 min, 8 min
			Instant next = now.plusSeconds(30L << (made - 1));
			jdbc.sql("update webhook_delivery set attempts = ?, next_attempt_at = ? where id = ?")
				.params(made, Timestamp.from(next), id)
				.update();
		}
	}

	/**
	 * Posts the payload to the checked target, connecting only to the addresses that were
	 * checked: the client's resolver answers them and nothing else, so the host is not
	 * looked up again. TLS still verifies the certificate against the host name. No
	 * proxy, no redirect, no retry.
	 */
	static int send(Target target, String payload, String secret) throws IOException {
		DnsResolver pinned = new DnsResolver() {

			@Override
			public InetAddress[] resolve(String host) {
				return target.addresses().clone();
			}

			@Override
			public String resolveCanonicalHostname(String host) {
				return host;
			}
		};
		ConnectionConfig connections = ConnectionConfig.custom()
			.setConnectTimeout(Timeout.ofSeconds(5))
			.setSocketTimeout(Timeout.ofSeconds(10))
			.build();
		try (CloseableHttpClient client = HttpClients.custom()
			.setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
				.setDnsResolver(pinned)
				.setDefaultConnectionConfig(connections)
				.build())
			.setDefaultRequestConfig(RequestConfig.custom().setResponseTimeout(Timeout.ofSeconds(10)).build())
			.disableRedirectHandling()
			.disableAutomaticRetries()
			.disableCookieManagement()
			.disableAuthCaching()
			.build()) {
			HttpPost post = new HttpPost(target.uri());
			post.setHeader("X-Parity-Signature", "sha256=" + sign(secret, payload));
			post.setEntity(new StringEntity(payload, ContentType.APPLICATION_JSON));
			return client.execute(post, response -> {
				EntityUtils.consume(response.getEntity());
				return response.getCode();
			});
		}
	}

	/** Deliveries, newest first, each with its attempts. */
	public List<Delivery> deliveries(@Nullable String alertId) {
		String where = alertId == null ? "" : " where alert_id = ?";
		List<Object> params = alertId == null ? List.of() : List.of(alertId);
		List<Map<String, Object>> rows = jdbc
			.sql("select id, webhook_id, alert_id, status, attempts, next_attempt_at from webhook_delivery" + where
					+ " order by id desc limit 200")
			.params(params)
			.query()
			.listOfRows();
		return rows.stream().map(row -> {
			long id = ((Number) row.get("id")).longValue();
			List<Attempt> attempts = jdbc.sql(
					"select attempted_at, http_status, error, duration_ms from webhook_attempt where delivery_id = ? order by id")
				.param(id)
				.query((rs, n) -> new Attempt(rs.getTimestamp(1).toInstant(), (Integer) rs.getObject(2),
						rs.getString(3), rs.getLong(4)))
				.list();
			return new Delivery(id, ((Number) row.get("webhook_id")).longValue(), (String) row.get("alert_id"),
					(String) row.get("status"), ((Number) row.get("attempts")).intValue(),
					((Timestamp) row.get("next_attempt_at")).toInstant(), attempts);
		}).toList();
	}

	/** HMAC-SHA256 of the body with the webhook's secret, in hex. */
	public static String sign(String secret, String body) {
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
			return HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * A webhook's URL and the addresses its host resolved to when it was checked: the
	 * only ones it connects to.
	 */
	record Target(URI uri, InetAddress[] addresses) {
	}

	/**
	 * An http(s) URL to a public address (or any, where configuration allows private
	 * ones), with the addresses its host resolves to now, each of them checked.
	 */
	Target check(String url) {
		URI uri;
		try {
			uri = new URI(url.strip());
		}
		catch (URISyntaxException ex) {
			throw new IllegalArgumentException("the webhook URL is not a URL");
		}
		if (uri.getScheme() == null || !List.of("http", "https").contains(uri.getScheme().toLowerCase(Locale.ROOT))
				|| uri.getHost() == null) {
			throw new IllegalArgumentException("the webhook URL must be http(s) with a host");
		}
		InetAddress[] addresses;
		try {
			addresses = resolver.resolve(uri.getHost());
		}
		catch (UnknownHostException ex) {
			throw new IllegalArgumentException("the webhook host " + uri.getHost() + " does not resolve");
		}
		if (addresses.length == 0) {
			throw new IllegalArgumentException("the webhook host " + uri.getHost() + " does not resolve");
		}
		if (!allowPrivate) {
			for (InetAddress address : addresses) {
				String range = SpecialAddresses.rangeOf(address);
				if (range == null && uri.getHost().startsWith("[") && address instanceof Inet4Address) {
					// Java reads an IPv6 literal ::ffff:a.b.c.d as the IPv4 address it
					// maps.
					range = "IPv4-mapped (::ffff:0:0/96)";
				}
				if (range != null) {
					throw new IllegalArgumentException("the webhook host " + uri.getHost() + " is a private, loopback,"
							+ " link-local or other special-purpose address, " + range
							+ ": refused (parity.history.webhooks.allow-private)");
				}
			}
		}
		return new Target(uri, addresses);
	}

}
