package dev.parity.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import dev.parity.ParityApplication;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import dev.parity.account.ApiTokens;
import dev.parity.stats.BisectedRatioQuantile;
import dev.parity.stats.MedianLaw;
import dev.parity.stats.Noise;
import dev.parity.stats.RatioInterval;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.postgresql.PGStatement;
import org.postgresql.copy.CopyManager;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.security.crypto.password.PasswordEncoder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Measures what a user waits for, each figure side by side with its physical limit in the
 * same run: ingest against parse + COPY (series updates and bootstrap medians, which run
 * after the commit, apart), a 100 MB import at {@code -Xmx512m}, the download of a run's
 * stored document against a static file of the same bytes, the first (uncached,
 * anonymous) comparison against max(300 ms, 3 × that download), the comparison under 16
 * clients against a static file of the same size, and the pages of a 100,000-run database
 * against a near-empty one (page 3 of the lists included; history's pages against a
 * database of one 1,000-run series), with the plan of every query those pages ran, the
 * bytes per run and the time to back the database up and restore it
 * ({@code -Dbench.runs}, {@code -Dbench.cells} for other sizes). Run with
 * {@code ./mvnw -Pbench verify}; figures in {@code target/bench/}.
 */
class PerformanceBenchmark {

	static final Path OUT = Path.of("target", "bench").toAbsolutePath();

	static final String UPLOADER = "bench-uploader";

	static final String PASSWORD = "bench-uploader-secret";

	static final int CELLS = 400;

	static final int SAMPLES = 250;

	static final int CLIENTS = 16;

	static final Duration LOAD_TIME = Duration.ofSeconds(Long.getLong("bench.loadSeconds", 20));

	static final int SCALE_RUNS = Integer.getInteger("bench.runs", 100_000);

	static final long SCALE_CELLS = Long.getLong("bench.cells", 20_000_000);

	/** The runs of the series whose page is measured, near-empty and at scale. */
	static final int SCALE_SERIES_RUNS = Integer.getInteger("bench.scaleSeriesRuns", 1_000);

	static final JsonMapper JSON = JsonMapper.builder().build();

	private final Report report = new Report();

	private Http http;

	private String jdbcUrl;

	private Connection db;

	private ConfigurableApplicationContext app;

	private @Nullable String uploadToken;

	@Test
	void measure() throws Exception {
		Files.createDirectories(OUT.resolve("static").resolve("bench"));
		long started = System.nanoTime();
		try (EmbeddedPostgres postgres = startDatabase()) {
			jdbcUrl = "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres";
			ConfigurableApplicationContext app = startApplication();
			this.app = app;
			try (Connection connection = DriverManager.getConnection(jdbcUrl, "postgres", "")) {
				db = connection;
				try (Statement statement = db.createStatement()) {
					statement.execute("create extension if not exists pg_stat_statements");
				}
				createUploader(app);
				http = new Http("http://127.0.0.1:" + ((WebServerApplicationContext) app).getWebServer().getPort());
				// -Dbench.only=published (a comma list of ingest, import, document,
				// comparison, firstview, published, scale, revalidate, burst, intervals)
				// runs only
				// those.
				List<String> big = runs("ingest") || runs("document") || runs("comparison") || runs("firstview")
						? ingest() : List.of();
				if (runs("import")) {
					largeImport();
				}
				// The stored bytes of one of those runs: against a static file of their
				// size, and the limit of the first
				// uncached comparison of two of them.
				double documentMs = runs("document") || runs("comparison") || runs("firstview") ? document(big)
						: Double.NaN;
				if (runs("comparison")) {
					comparison(big, documentMs);
				}
				if (runs("firstview")) {
					firstView(documentMs);
				}
				if (runs("published")) {
					published(big);
				}
				if (runs("scale")) {
					scale();
				}
				if (runs("revalidate")) {
					revalidate();
				}
				if (runs("burst")) {
					burst(app);
				}
				if (runs("intervals")) {
					intervals();
				}
			}
			finally {
				app.close();
			}
		}
		finally {
			report.details().put("total_seconds", (System.nanoTime() - started) / 1e9);
			report.write(OUT);
			System.out.println();
			System.out.println(report.markdown());
			System.out.println("Written to " + OUT.resolve("results.md") + " and " + OUT.resolve("results.json"));
		}
	}

	// ---------------------------------------------------------------- setup

	private EmbeddedPostgres startDatabase() throws IOException {
		log("starting PostgreSQL (durable, as the application's own embedded server; pg_stat_statements loaded)");
		Path dataDir = OUT.resolve("postgres");
		Files.createDirectories(dataDir);
		return EmbeddedPostgres.builder()
			.setDataDirectory(dataDir)
			.setCleanDataDirectory(true)
			.setPGStartupWait(Duration.ofSeconds(60))
			.setServerConfig("fsync", "on")
			.setServerConfig("synchronous_commit", "on")
			.setServerConfig("full_page_writes", "on")
			.setServerConfig("shared_preload_libraries", "pg_stat_statements")
			.setServerConfig("pg_stat_statements.track", "all")
			.start();
	}

	private ConfigurableApplicationContext startApplication() {
		log("starting the application");
		return new SpringApplicationBuilder(ParityApplication.class)
			.run(applicationArguments(0).toArray(String[]::new));
	}

	private List<String> applicationArguments(int port) {
		return List.of("--server.port=" + port, "--parity.db.url=" + jdbcUrl, "--parity.db.user=postgres",
				"--parity.db.password=", "--parity.admin.user=bench-admin",
				"--parity.admin.password=bench-quay-lantern-7", "--logging.level.root=WARN",
				"--spring.main.banner-mode=off",
				// The static files the pages are held against, served by Boot's resource
				// handler under /bench/** only
				// (the application maps no /**: see system/StaticResources).
				"--spring.web.resources.add-mappings=true", "--spring.mvc.static-path-pattern=/bench/**",
				"--spring.web.resources.static-locations=file:" + OUT.resolve("static").resolve("bench") + "/",
				"--management.endpoints.web.exposure.include=health");
	}

	private void createUploader(ConfigurableApplicationContext app) throws SQLException {
		String hash = app.getBean(PasswordEncoder.class).encode(PASSWORD);
		try (var statement = db.prepareStatement(
				"insert into app_user (username, password_hash, role) values (?, ?, 'uploader') on conflict do nothing")) {
			statement.setString(1, UPLOADER);
			statement.setString(2, hash);
			statement.executeUpdate();
		}
	}

	// ---------------------------------------------------------------- ingest

	private List<String> ingest() throws Exception {
		log("ingest: " + CELLS + " cells × " + SAMPLES + " samples, POST /api/runs vs parse + COPY");
		IngestLimit.createScratchTables(db);
		CopyManager copy = ScaleSeed.copyManager(db);
		List<String> ids = new ArrayList<>();
		// Uploads carry an API token, as CI's do (a token is checked by its SHA-256; HTTP
		// Basic's password hash, bcrypt on every request, is reported apart below).
		String token = uploadToken();
		// Warm-up of both sides: the JIT, the connection pool, the statements.
		for (int i = 0; i < 3; i++) {
			byte[] warm = RunDocuments.document("Warm-up sweep " + i, "bench-system-W", CELLS, SAMPLES, 1000 + i);
			IngestLimit.parseMillis(warm);
			IngestLimit.copyMillis(db, copy, IngestLimit.rows("warm" + i, warm));
			http.postWithToken("/api/runs", warm, token).ok();
			afterCommitDone();
		}
		List<Double> series = new ArrayList<>();
		List<Double> medians = new ArrayList<>();
		List<Double> app = new ArrayList<>();
		List<Double> parse = new ArrayList<>();
		List<Double> tree = new ArrayList<>();
		List<Double> copied = new ArrayList<>();
		long size = 0;
		for (int i = 0; i < 5; i++) {
			byte[] document = RunDocuments.document("Bench sweep " + i,
					i % 2 == 0 ? "bench-system-A" : "bench-system-B", CELLS, SAMPLES, i);
			size = document.length;
			IngestLimit.Rows rows = IngestLimit.rows("limit" + i, document);
			System.gc();
			parse.add(IngestLimit.parseMillis(document));
			tree.add(IngestLimit.treeMillis(document));
			System.gc();
			copied.add(IngestLimit.copyMillis(db, copy, rows));
			System.gc();
			Http.Timed stored = http.postWithToken("/api/runs", document, token).ok();
			assertThat(stored.status()).isEqualTo(201);
			app.add(stored.millis());
			ids.add(JSON.readTree(stored.body()).get("id").asString());
			// The run's series update and its bootstrap medians, after the commit and
			// apart from the POST: done before
			// the next upload, so that they take no time of the next measurement, and
			// before the comparisons below,
			// which then measure runs as they are once settled (their medians stored).
			double[] after = afterCommitDone();
			series.add(after[0]);
			medians.add(after[1]);
		}
		// What HTTP Basic itself costs per request (the password hash is checked on every
		// request).
		List<Double> basic = new ArrayList<>();
		List<Double> anonymous = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			anonymous.add(http.get("/api/runs?size=1").ok().millis());
			basic.add(timedBasicGet("/api/runs?size=1"));
		}
		double appMs = Http.median(app);
		double limitMs = Http.median(parse) + Http.median(copied);
		ObjectNode details = report.details().putObject("ingest");
		details.put("document_bytes", size);
		details.put("cells", CELLS);
		details.put("samples", CELLS * SAMPLES);
		details.set("post_ms", array(app));
		details.set("jackson_token_pass_ms", array(parse));
		details.set("jackson_tree_ms", array(tree));
		details.set("copy_commit_ms", array(copied));
		details.put("http_basic_overhead_ms", Http.median(basic) - Http.median(anonymous));
		details.set("series_update_after_commit_ms", array(series));
		details.set("bootstrap_medians_after_commit_ms", array(medians));
		long inSeries = countWhere("series_run", "run_id = any(?)", ids);
		details.put("runs_in_a_series", inSeries);
		report.ratio("ingest",
				String.format(Locale.ROOT,
						"POST %.1f MB run (%d cells, %,d samples), request → committed "
								+ "(series updates after the commit: apart)",
						size / 1e6, CELLS, CELLS * SAMPLES),
				appMs, "ms",
				"parse " + Report.fmt(Http.median(parse)) + " + COPY " + Report.fmt(Http.median(copied)) + " =",
				limitMs, "≤ 2×", false, 2.0);
		report
			.note(String.format(Locale.ROOT, "ingest: series updates run after the commit, apart from the POST (%d of "
					+ "the %d runs joined a series): done a median %.0f ms after the POST's answer (%s ms), reported apart",
					inSeries, ids.size(), Http.median(series), series.stream().map(Report::fmt).toList()));
		report.note(String.format(Locale.ROOT,
				"ingest: each run's median windows (what the exact bootstrap law of a median needs) are stored "
						+ "by the upload itself; bootstrap jobs left after the POST's answer: none within %s ms",
				medians.stream().map(Report::fmt).toList()));
		report.note(String.format(Locale.ROOT,
				"ingest: the POSTs above carry an API token, as CI's do; HTTP Basic instead checks the password hash "
						+ "on every request: %.0f ms more per request (authenticated minus anonymous GET)",
				Http.median(basic) - Http.median(anonymous)));
		return ids;
	}

	/** The uploader's API token for the benchmark's uploads, made once. */
	private String uploadToken() {
		if (uploadToken == null) {
			uploadToken = app.getBean(ApiTokens.class).create(UPLOADER, "bench-uploads").token();
		}
		return uploadToken;
	}

	private double timedBasicGet(String path) {
		return http.getWithBasic(path, UPLOADER, PASSWORD);
	}

	// ---------------------------------------------------------------- 100 MB at -Xmx512m

	private void largeImport() throws Exception {
		Path large = OUT.resolve("large-run.json");
		long size = RunDocuments.documentFile(large, "Bench large sweep", "bench-system-L", 1500, 1000, 77);
		log(String.format(Locale.ROOT,
				"large import: %.1f MB (1,500 cells × 1,000 samples) into a child JVM at -Xmx512m", size / 1e6));
		int port = freePort();
		Path gcLog = OUT.resolve("child-gc.log");
		Path jfr = OUT.resolve("child.jfr");
		Files.deleteIfExists(gcLog);
		Files.deleteIfExists(jfr);
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
						"-XX:+ExitOnOutOfMemoryError", "-Xlog:gc:file=" + gcLog,
						"-XX:StartFlightRecording=filename=" + jfr + ",settings=profile,dumponexit=true", "-cp",
						System.getProperty("java.class.path"), ParityApplication.class.getName()));
		command.addAll(applicationArguments(port));
		Process child = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(OUT.resolve("child.log").toFile())
			.start();
		ObjectNode details = report.details().putObject("large_import");
		details.put("document_bytes", size);
		details.put("samples", 1_500_000);
		try {
			Http childHttp = new Http("http://127.0.0.1:" + port);
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
			while (true) {
				if (!child.isAlive()) {
					throw new AssertionError("the child application stopped; see " + OUT.resolve("child.log"));
				}
				try {
					if (childHttp.get("/actuator/health").status() == 200) {
						break;
					}
				}
				catch (RuntimeException notYet) {
					// not listening yet
				}
				if (System.nanoTime() > deadline) {
					throw new AssertionError("the child application did not start in 180 s");
				}
				Thread.sleep(500);
			}
			Http.Timed stored;
			importFrom = Instant.now();
			try {
				stored = childHttp.postJson("/api/runs", large, UPLOADER, PASSWORD);
			}
			catch (RuntimeException ex) {
				stored = new Http.Timed(-1, ex.toString().getBytes(), 0);
			}
			importTo = Instant.now();
			boolean alive = child.isAlive();
			boolean imported = stored.status() == 201 && alive;
			double[] heap = gcHeap(gcLog);
			details.put("status", stored.status());
			details.put("child_alive_after", alive);
			details.put("seconds", stored.nanos() / 1e9);
			details.put("mb_per_second", size / 1e6 / (stored.nanos() / 1e9));
			details.put("peak_heap_before_gc_mb", heap[0]);
			details.put("peak_heap_after_gc_mb", heap[1]);
			if (!imported) {
				details.put("answer", stored.text().substring(0, Math.min(2000, stored.text().length())));
			}
			report.check("large import",
					String.format(Locale.ROOT, "%.0f MB document (1.5 M samples), server at -Xmx512m", size / 1e6),
					imported ? String.format(Locale.ROOT,
							"imported in %.1f s; heap peak %.0f MB, %.0f MB live after GC", stored.nanos() / 1e9,
							heap[0], heap[1])
							: "FAILED: HTTP " + stored.status() + (alive ? "" : ", server died (out of memory)"),
					"imports", imported);
		}
		finally {
			child.destroy();
			if (!child.waitFor(60, TimeUnit.SECONDS)) {
				child.destroyForcibly();
			}
			Files.deleteIfExists(large);
		}
		// The child stopped after its answer: the large run's series update and bootstrap
		// medians are left to this
		// application's workers (same database). Done here, so that they take no time of
		// the sections after.
		double[] after = afterCommitDone();
		details.put("after_commit_work_done_by_the_main_application_ms", Math.max(after[0], after[1]));
		report
			.note(String.format(Locale.ROOT, "large import: its series update and bootstrap medians, left by the child "
					+ "to the main application, were done %.0f ms after the child stopped (before the next section)",
					Math.max(after[0], after[1])));
		if (Files.exists(jfr) && importFrom != null) {
			List<String> sites = Allocations.top(jfr, importFrom, importTo == null ? Instant.now() : importTo, 8);
			details.set("allocated_during_import_by_site", JSON.valueToTree(sites));
			report
				.note("large import, where memory went (JFR allocation samples during the import, by allocating code): "
						+ String.join("; ", sites));
		}
	}

	private Instant importFrom;

	private Instant importTo;

	/**
	 * The largest heap occupancy before and after a collection, in MB, from a
	 * {@code -Xlog:gc} file.
	 */
	private static double[] gcHeap(Path gcLog) throws IOException {
		Pattern pause = Pattern.compile("(\\d+)M->(\\d+)M\\((\\d+)M\\)");
		double before = 0;
		double after = 0;
		if (Files.exists(gcLog)) {
			for (String line : Files.readAllLines(gcLog)) {
				Matcher m = pause.matcher(line);
				if (m.find()) {
					before = Math.max(before, Double.parseDouble(m.group(1)));
					after = Math.max(after, Double.parseDouble(m.group(2)));
				}
			}
		}
		return new double[] { before, after };
	}

	// ---------------------------------------------------------------- stored document

	/**
	 * Downloads the stored document of one of the {@value #SAMPLES}-sample runs,
	 * interleaved with a static file of the same bytes (median of each), and reads it
	 * straight from PostgreSQL (JDBC, binary) for the floor under both. Returns the
	 * download's median: "reading one of those runs' stored documents".
	 */
	private double document(List<String> big) throws Exception {
		String path = "/api/runs/" + big.get(0) + "/document";
		byte[] stored = http.get(path).ok().body();
		String sha256 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(stored));
		try (var statement = db.prepareStatement("select sha256 from run_file where run_id = ? and position = 0")) {
			statement.setString(1, big.get(0));
			try (ResultSet rs = statement.executeQuery()) {
				assertThat(rs.next() && rs.getString(1).equals(sha256)).as("the download is the stored bytes").isTrue();
			}
		}
		Files.write(OUT.resolve("static").resolve("bench").resolve("document-size.json"), stored);
		String staticPath = "/bench/document-size.json";
		log(String.format(Locale.ROOT, "document: GET %s (%.1f MB) vs a static file of the same bytes, interleaved",
				path, stored.length / 1e6));
		List<Double> app = new ArrayList<>();
		List<Double> file = new ArrayList<>();
		List<Double> jdbc = new ArrayList<>();
		for (int round = -5; round < 21; round++) {
			Http.Timed download = http.get(path).ok();
			Http.Timed copy = http.get(staticPath).ok();
			double read = jdbcReadMillis(big.get(0));
			assertThat(download.body().length).isEqualTo(stored.length);
			assertThat(copy.body().length).isEqualTo(stored.length);
			if (round >= 0) {
				app.add(download.millis());
				file.add(copy.millis());
				jdbc.add(read);
			}
		}
		ObjectNode details = report.details().putObject("document");
		details.put("path", path);
		details.put("bytes", stored.length);
		details.set("download_ms", array(app));
		details.set("static_file_ms", array(file));
		details.set("jdbc_binary_read_ms", array(jdbc));
		report.ratio("document",
				String.format(Locale.ROOT, "GET /api/runs/{id}/document, %.1f MB, %,d samples (median of %d)",
						stored.length / 1e6, CELLS * SAMPLES, app.size()),
				Http.median(app), "ms", "static file, same bytes", Http.median(file), "close to (≤ 1.5×)", false, 1.5);
		report.note(
				String.format(Locale.ROOT, "document: the same bytes read straight from PostgreSQL over JDBC (binary, "
						+ "no HTTP) take %.1f ms (median)", Http.median(jdbc)));
		return Http.median(app);
	}

	/**
	 * Milliseconds to read a run's document from PostgreSQL in binary, as the
	 * application's download does.
	 */
	private double jdbcReadMillis(String run) throws SQLException {
		long start = System.nanoTime();
		try (var statement = db.prepareStatement("select content from run_file where run_id = ? and position = 0")) {
			statement.unwrap(PGStatement.class).setPrepareThreshold(-1);
			statement.setString(1, run);
			try (ResultSet rs = statement.executeQuery()) {
				rs.next();
				rs.getBytes(1);
			}
		}
		return (System.nanoTime() - start) / 1e6;
	}

	// ---------------------------------------------------------------- comparison

	private void comparison(List<String> big, double documentMs) throws Exception {
		log("comparison: two " + CELLS + "-cell runs, first render, then " + CLIENTS + " clients for "
				+ LOAD_TIME.toSeconds() + " s against a static file of the same size");
		// Warm the code paths on another pair, each request with other settings (so
		// uncached).
		for (int i = 0; i < 8; i++) {
			http.get("/compare/" + big.get(3) + "..." + big.get(4) + "?band=0.1" + (i + 1)).ok();
			http.get("/api/compare/" + big.get(3) + "..." + big.get(4) + "?band=0.1" + (i + 1)).ok();
		}
		List<Double> html = new ArrayList<>();
		List<Double> json = new ArrayList<>();
		Http.Timed page = null;
		Http.Timed api = null;
		for (int i = 0; i < 3; i++) {
			System.gc();
			Http.Timed first = http.get("/compare/" + big.get(i) + "..." + big.get(i + 1)).ok();
			html.add(first.millis());
			page = i == 0 ? first : page;
			System.gc();
			Http.Timed firstJson = http.get("/api/compare/" + big.get(i + 1) + "..." + big.get(i)).ok();
			json.add(firstJson.millis());
			api = api == null ? firstJson : api;
		}
		// Issue 14's intervals (per cell × metric, from the samples of one run per side)
		// are always on: count them.
		long intervals = 0;
		for (JsonNode interval : JSON.readTree(api.body()).findValues("interval")) {
			intervals += interval.isObject() ? 1 : 0;
		}
		ObjectNode details = report.details().putObject("comparison");
		details.set("first_html_ms", array(html));
		details.set("first_json_ms", array(json));
		details.put("html_bytes", page.body().length);
		details.put("json_bytes", api.body().length);
		details.put("intervals_in_json", intervals);
		details.put("document_read_ms", documentMs);
		report.check("comparison",
				"the first comparisons are read anonymously (no credentials, no session cookie) with "
						+ "the intervals on",
				intervals + " intervals in the JSON", "> 0", intervals > 0);
		// The target: 300 ms, or 3 × reading one of those runs' stored documents when
		// that is larger.
		double target = Math.max(300, 3 * documentMs);
		String limit = "max(300 ms, 3 × document read " + Report.fmt(documentMs) + " ms) =";
		report.ratio("comparison", "first (uncached) render, HTML page, anonymous, one client (median of 3 pairs)",
				Http.median(html), "ms", limit, target, "≤ 1×", false, 1.0);
		report.ratio("comparison", "first (uncached) render, JSON API, anonymous, one client (median of 3 pairs)",
				Http.median(json), "ms", limit, target, "≤ 1×", false, 1.0);
		report.note(String.format(Locale.ROOT,
				"comparison: the first uncached render is %.1f× (page) and %.1f× (JSON) "
						+ "the read of one of those runs' stored documents (%.0f ms)",
				Http.median(html) / documentMs, Http.median(json) / documentMs, documentMs));
		report.absolute("comparison", String.format(Locale.ROOT,
				"HTML size of the %d-cell comparison page (JSON: %,.0f KB)", CELLS, api.body().length / 1024.0),
				page.body().length / 1024.0, "KB", 1024, true);

		Files.write(OUT.resolve("static").resolve("bench").resolve("comparison-size.html"), page.body());
		String apiPath = "/api/compare/" + big.get(1) + "..." + big.get(0);
		byte[] apiBody = http.get(apiPath).ok().body();
		Files.write(OUT.resolve("static").resolve("bench").resolve("comparison-size.json"), apiBody);
		String pagePath = "/compare/" + big.get(0) + "..." + big.get(1);
		Map<String, String> loads = new LinkedHashMap<>();
		loads.put("HTML page " + pagePath, pagePath);
		loads.put("static file, same size", "/bench/comparison-size.html");
		loads.put("JSON API " + apiPath, apiPath);
		loads.put("static file, same size ", "/bench/comparison-size.json");
		Map<String, Http.Load> results = new LinkedHashMap<>();
		ArrayNode loadJson = details.putArray("load");
		for (Map.Entry<String, String> load : loads.entrySet()) {
			http.load(load.getValue(), CLIENTS, Duration.ofSeconds(3));
			Http.Load result = http.load(load.getValue(), CLIENTS, LOAD_TIME);
			results.put(load.getKey(), result);
			ObjectNode row = loadJson.addObject();
			row.put("what", load.getKey());
			row.put("path", result.path());
			row.put("clients", result.clients());
			row.put("seconds", result.seconds());
			row.put("requests", result.requests());
			row.put("errors", result.errors());
			row.put("bytes_per_response", result.requests() == 0 ? 0 : result.bytes() / result.requests());
			row.put("p50_ms", result.p50());
			row.put("p99_ms", result.p99());
			row.put("max_ms", result.max());
			row.put("requests_per_second", result.perSecond());
			log(String.format(Locale.ROOT, "  %-60s %8.1f req/s  p50 %6.1f ms  p99 %6.1f ms  errors %d", load.getKey(),
					result.perSecond(), result.p50(), result.p99(), result.errors()));
			assertThat(result.errors()).as(load.getKey() + " errors").isZero();
		}
		Http.Load pageLoad = results.get("HTML page " + pagePath);
		Http.Load pageStatic = results.get("static file, same size");
		Http.Load apiLoad = results.get("JSON API " + apiPath);
		Http.Load apiStatic = results.get("static file, same size ");
		report.ratio("comparison", "HTML page p99 under " + CLIENTS + " clients", pageLoad.p99(), "ms",
				"static file's p99", pageStatic.p99(), "≤ 1.5×", false, 1.5);
		report.ratio("comparison", "HTML page requests/s under " + CLIENTS + " clients", pageLoad.perSecond(), "req/s",
				"static file", pageStatic.perSecond(), "≥ 1/2", true, 0.5);
		report.ratio("comparison", "JSON API p99 under " + CLIENTS + " clients", apiLoad.p99(), "ms",
				"static file's p99", apiStatic.p99(), "≤ 1.5×", false, 1.5);
		report.ratio("comparison", "JSON API requests/s under " + CLIENTS + " clients", apiLoad.perSecond(), "req/s",
				"static file", apiStatic.perSecond(), "≥ 1/2", true, 0.5);
	}

	// ---------------------------------------------------------------- first view

	/**
	 * Right after an upload, without waiting for anything after its commit: for each of
	 * the comparison's JSON, its page and the CI verdict, two fresh runs uploaded and
	 * that one asked at once (nothing else asked of the pair before: no cache, no warming
	 * of what is measured), three rounds.
	 */
	private void firstView(double documentMs) throws Exception {
		log("firstview: two fresh " + CELLS + "-cell runs uploaded, then at once the JSON, the page or the verdict");
		Map<String, List<Double>> times = new LinkedHashMap<>();
		times.put("json", new ArrayList<>());
		times.put("page", new ArrayList<>());
		times.put("verdict", new ArrayList<>());
		List<Double> pending = new ArrayList<>();
		int seed = 500;
		// Fresh pairs per request (-Dbench.rounds, 3 by default).
		for (int round = 0; round < Integer.getInteger("bench.rounds", 3); round++) {
			for (String what : times.keySet()) {
				String a = upload("First view " + what + " " + round + " A", seed++);
				String b = upload("First view " + what + " " + round + " B", seed++);
				pending.add((double) count("bootstrap_job"));
				String path = switch (what) {
					case "json" -> "/api/compare/" + a + "..." + b;
					case "page" -> "/compare/" + a + "..." + b;
					default -> "/api/runs/" + b + "/verdict?baseline=" + a;
				};
				System.gc();
				Http.Timed answer = http.get(path).ok();
				times.get(what).add(answer.millis());
			}
		}
		double target = Math.max(300, 3 * documentMs);
		String limit = "max(300 ms, 3 × document read " + Report.fmt(documentMs) + " ms) =";
		ObjectNode details = report.details().putObject("firstview");
		details.put("document_read_ms", documentMs);
		details.set("bootstrap_jobs_waiting", array(pending));
		for (Map.Entry<String, List<Double>> entry : times.entrySet()) {
			details.set(entry.getKey() + "_ms", array(entry.getValue()));
			String label = switch (entry.getKey()) {
				case "json" -> "GET /api/compare/{a}...{b}";
				case "page" -> "GET /compare/{a}...{b}";
				default -> "GET /api/runs/{b}/verdict?baseline={a}";
			};
			double median = Http.median(entry.getValue());
			report.ratio(
					"firstview", label + " right after both uploads, nothing awaited (median of "
							+ entry.getValue().size() + " fresh pairs)",
					median, "ms", limit, target, "≤ 1×", false, 1.0);
			log(String.format(Locale.ROOT,
					"  %-45s %s ms, median %.0f ms = %.2f × document read (%.0f ms), %.2f × target", label,
					entry.getValue().stream().map(Report::fmt).toList(), median, median / documentMs, documentMs,
					median / target));
		}
		report.note(String.format(Locale.ROOT,
				"firstview: bootstrap jobs waiting when each was asked: %s (an upload leaves none: it stores its "
						+ "median windows itself)",
				pending.stream().map(Report::fmt).toList()));
	}

	/**
	 * Uploads a fresh run and returns its id, at once (nothing after the commit awaited).
	 */
	private String upload(String title, int seed) throws Exception {
		byte[] document = RunDocuments.document(title, "bench-system-F", CELLS, SAMPLES, seed);
		Http.Timed stored = http.postWithToken("/api/runs", document, uploadToken()).ok();
		assertThat(stored.status()).isEqualTo(201);
		return JSON.readTree(stored.body()).get("id").asString();
	}

	// ---------------------------------------------------------------- published page

	/**
	 * A published comparison of two {@value #CELLS}-cell runs, as a blog's readers fetch
	 * it through a cache: under {@value #CLIENTS} clients each asking again with the ETag
	 * it holds (each answer a 304), beside the full page.
	 */
	private void published(List<String> big) throws Exception {
		List<String> runs = big;
		if (runs.size() < 2) {
			runs = new ArrayList<>();
			for (int i = 0; i < 2; i++) {
				byte[] document = RunDocuments.document("Published sweep " + i,
						i % 2 == 0 ? "bench-system-A" : "bench-system-B", CELLS, SAMPLES, 500 + i);
				runs.add(JSON.readTree(http.postJson("/api/runs", document, UPLOADER, PASSWORD).ok().body())
					.get("id")
					.asString());
			}
		}
		log("published: a " + CELLS + "-cell publication, " + CLIENTS + " clients for " + LOAD_TIME.toSeconds()
				+ " s revalidating with If-None-Match, then fetching in full");
		byte[] request = JSON.writeValueAsBytes(Map.of("baseline", runs.get(0), "contender", runs.get(1), "title",
				"Bench publication", "confirm_no_comparable", true));
		Http.Timed created = http.postJson("/api/published", request, UPLOADER, PASSWORD).ok();
		String path = JSON.readTree(created.body()).get("url").asString();
		Http.Timed first = http.get(path).ok();
		String tag = http.etag(path);
		assertThat(tag).as("ETag of " + path).isNotNull();
		http.revalidate(path, tag, CLIENTS, Duration.ofSeconds(3));
		Http.Load revalidated = http.revalidate(path, tag, CLIENTS, LOAD_TIME);
		http.load(path, CLIENTS, Duration.ofSeconds(3));
		Http.Load full = http.load(path, CLIENTS, LOAD_TIME);
		ObjectNode details = report.details().putObject("published");
		details.put("path", path);
		details.put("first_ms", first.millis());
		details.put("html_bytes", first.body().length);
		for (Http.Load load : List.of(revalidated, full)) {
			ObjectNode row = details.putObject(load == revalidated ? "revalidating" : "full");
			row.put("clients", load.clients());
			row.put("seconds", load.seconds());
			row.put("requests", load.requests());
			row.put("errors", load.errors());
			row.put("p50_ms", load.p50());
			row.put("p99_ms", load.p99());
			row.put("requests_per_second", load.perSecond());
			log(String.format(Locale.ROOT, "  %-60s %8.1f req/s  p50 %6.1f ms  p99 %6.1f ms  errors %d",
					load == revalidated ? "304 revalidation " + path : "full page " + path, load.perSecond(),
					load.p50(), load.p99(), load.errors()));
		}
		assertThat(revalidated.errors()).as("answers other than 304").isZero();
		assertThat(full.errors()).as("answers other than 200").isZero();
		report.absolute("published",
				"published page revalidation (If-None-Match → 304) p99 under " + CLIENTS + " clients",
				revalidated.p99(), "ms", 50, true);
		report.ratio("published", "published page revalidations/s under " + CLIENTS + " clients",
				revalidated.perSecond(), "req/s", "full page", full.perSecond(), "≥ 2×", true, 2.0);
	}

	// ---------------------------------------------------------------- revalidate

	/**
	 * Pages like files: a published page and a kept comparison page (two 100-cell runs)
	 * revalidated with {@code If-None-Match} (each answer a 304) under {@value #CLIENTS}
	 * clients, side by side with a 1 KB static file fetched in full and revalidated, in
	 * one run.
	 */
	private void revalidate() throws Exception {
		List<String> runs = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			byte[] document = RunDocuments.document("Revalidated sweep " + i,
					i % 2 == 0 ? "bench-system-A" : "bench-system-B", 100, 50, 700 + i);
			runs.add(JSON.readTree(http.postJson("/api/runs", document, UPLOADER, PASSWORD).ok().body())
				.get("id")
				.asString());
		}
		afterCommitDone();
		byte[] request = JSON.writeValueAsBytes(Map.of("baseline", runs.get(0), "contender", runs.get(1), "title",
				"Revalidated publication", "confirm_no_comparable", true));
		String published = JSON.readTree(http.postJson("/api/published", request, UPLOADER, PASSWORD).ok().body())
			.get("url")
			.asString();
		String kept = "/compare/" + runs.get(1) + "..." + runs.get(0);
		byte[] kilobyte = new byte[1024];
		Arrays.fill(kilobyte, (byte) 'x');
		Files.write(OUT.resolve("static").resolve("bench").resolve("one-kb.txt"), kilobyte);
		String file = "/bench/one-kb.txt";
		log("revalidate: " + CLIENTS + " clients for " + LOAD_TIME.toSeconds() + " s each: 304s of " + published
				+ " and " + kept + " against a 1 KB static file");
		Map<String, Http.Load> results = new LinkedHashMap<>();
		Map<String, String> paths = new LinkedHashMap<>();
		paths.put("1 KB static file, full GET (200)", file);
		// Boot's handler of /bench/** sends no ETag: the revalidated static file is one
		// of
		// the application's own (1.2 KB, its content hash as ETag).
		paths.put("1.2 KB static file /js/upload-progress.js, revalidated (304)", "/js/upload-progress.js");
		paths.put("published page, revalidated (304)", published);
		paths.put("kept comparison page, revalidated (304)", kept);
		ObjectNode details = report.details().putObject("revalidate");
		ArrayNode rows = details.putArray("load");
		for (Map.Entry<String, String> entry : paths.entrySet()) {
			String path = entry.getValue();
			boolean full = entry.getKey().contains("full GET");
			http.get(path).ok();
			String tag = full ? null : http.etag(path);
			assertThat(full || tag != null).as("ETag of " + path).isTrue();
			Http.Load warm = full ? http.load(path, CLIENTS, Duration.ofSeconds(3))
					: http.revalidate(path, tag, CLIENTS, Duration.ofSeconds(3));
			Http.Load load = full ? http.load(path, CLIENTS, LOAD_TIME)
					: http.revalidate(path, tag, CLIENTS, LOAD_TIME);
			results.put(entry.getKey(), load);
			ObjectNode row = rows.addObject();
			row.put("what", entry.getKey());
			row.put("path", path);
			row.put("clients", load.clients());
			row.put("requests", load.requests());
			row.put("errors", load.errors() + warm.errors());
			row.put("p50_ms", load.p50());
			row.put("p99_ms", load.p99());
			row.put("requests_per_second", load.perSecond());
			log(String.format(Locale.ROOT, "  %-45s %8.1f req/s  p50 %6.2f ms  p99 %6.2f ms  errors %d", entry.getKey(),
					load.perSecond(), load.p50(), load.p99(), load.errors()));
			assertThat(load.errors()).as(entry.getKey() + ": answers other than " + (full ? 200 : 304)).isZero();
		}
		Http.Load file200 = results.get("1 KB static file, full GET (200)");
		Http.Load file304 = results.get("1.2 KB static file /js/upload-progress.js, revalidated (304)");
		for (String page : List.of("published page, revalidated (304)", "kept comparison page, revalidated (304)")) {
			Http.Load load = results.get(page);
			report.ratio("revalidate", page + " p99 under " + CLIENTS + " clients", load.p99(), "ms",
					"1 KB static file's p99", file200.p99(), "≤ 1.2×", false, 1.2);
			report.note(String.format(Locale.ROOT,
					"revalidate: %s p50 %.2f ms / p99 %.2f ms; 1 KB static file full GET p50 %.2f / p99 %.2f ms "
							+ "(ratio of p99s %.2f), revalidated p50 %.2f / p99 %.2f ms (ratio %.2f)",
					page, load.p50(), load.p99(), file200.p50(), file200.p99(), load.p99() / file200.p99(),
					file304.p50(), file304.p99(), load.p99() / file304.p99()));
		}
	}

	// ---------------------------------------------------------------- burst

	/**
	 * A morning's CI burst: {@value #CLIENTS} clients each uploading a 20-cell run with
	 * per-request samples (an API token, as CI does) and asking its verdict at once, 200
	 * runs in all; three of four on the default branch (pushes), one of four on a pull
	 * request's branch. Each verdict must rest on a series holding every default-branch
	 * run committed before it was asked: its baseline is the latest of them recorded
	 * before the run (or a later one committed meanwhile), never an older one.
	 */
	private void burst(ConfigurableApplicationContext app) throws Exception {
		int total = Integer.getInteger("bench.burstRuns", 200);
		int cells = 20;
		int samples = 100;
		String token = app.getBean(ApiTokens.class).create(UPLOADER, "bench-ci").token();
		Instant start = Instant.parse("2026-12-01T06:00:00Z");
		// A first run on the default branch: every verdict has a baseline.
		http.postWithToken("/api/runs", ciDocument("CI seed", cells, samples, -1, start, "main"), token).ok();
		// Warm-up on another system's series (the JIT, the pool's connections and their
		// prepared statements), as a server that has been up has had before its
		// morning's burst: the bursts of the mornings before, 600 runs by the same 16
		// clients; nothing of the burst's series, runs or comparisons. Run by one client,
		// the paths only concurrent requests take stay to be compiled during the burst,
		// and the statements of connections that client never used to be prepared (60
		// runs by one client, the default until stop 37, left the JIT's threads 15 ms a
		// run of the burst). -Dbench.burstWarmup=5 -Dbench.burstWarmupClients=1 gives the
		// figures of a server started a moment before.
		int warmUp = Integer.getInteger("bench.burstWarmup", 600);
		int warmUpClients = Integer.getInteger("bench.burstWarmupClients", CLIENTS);
		double[] jitWarm = { Double.NaN };
		AtomicInteger nextWarm = new AtomicInteger();
		ExecutorService warmPool = Executors.newFixedThreadPool(warmUpClients);
		List<Future<?>> warming = new ArrayList<>();
		for (int c = 0; c < warmUpClients; c++) {
			warming.add(warmPool.submit(() -> {
				for (int i = nextWarm.getAndIncrement(); i < warmUp; i = nextWarm.getAndIncrement()) {
					if (i == Math.max(0, warmUp - 20)) {
						jitWarm[0] = threadCpuMillis("C1 CompilerThre", "C2 CompilerThre");
					}
					byte[] warm = ciDocument("CI warm-up " + i, cells, samples, 900 + i, start.plusSeconds(i),
							i % 4 == 3 ? "pr-warm-" + i : "main")
						.clone();
					String body = new String(warm, StandardCharsets.UTF_8).replace("bench-ci-system", "bench-ci-warm");
					String id = JSON.readTree(
							http.postWithToken("/api/runs", body.getBytes(StandardCharsets.UTF_8), token).ok().body())
						.get("id")
						.asString();
					http.getWithToken("/api/runs/" + id + "/verdict", token).ok();
				}
				return null;
			}));
		}
		for (Future<?> client : warming) {
			client.get();
		}
		warmPool.shutdownNow();
		double jitLastWarmUps = (threadCpuMillis("C1 CompilerThre", "C2 CompilerThre") - jitWarm[0])
				/ Math.min(20, warmUp);
		byte[][] documents = new byte[total][];
		String[] branches = new String[total];
		for (int i = 0; i < total; i++) {
			branches[i] = i % 4 == 3 ? "pr-" + i : "main";
			documents[i] = ciDocument("CI run " + i, cells, samples, i, start.plusSeconds(60L * (i + 1)), branches[i]);
		}
		log("burst: " + CLIENTS + " clients, " + total + " runs of " + cells + " cells × " + samples + " samples ("
				+ documents[0].length / 1024 + " KB), each POST /api/runs then GET its verdict, after " + warmUp
				+ " uploads and verdicts of another system's series by " + warmUpClients + " clients");
		String[] ids = new String[total];
		long[] committed = new long[total];
		long[] asked = new long[total];
		long[] started = new long[total];
		long[] answered = new long[total];
		double[] millis = new double[total];
		String[] baselines = new String[total];
		String[] statuses = new String[total];
		AtomicInteger next = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
		List<Future<?>> clients = new ArrayList<>();
		QueryPlans.reset(db);
		long began = System.nanoTime();
		double[] cpuBefore = cpuMillis();
		double jitBefore = threadCpuMillis("C1 CompilerThre", "C2 CompilerThre");
		Timer seriesUpdates = Metrics.globalRegistry.timer("parity.series.update");
		long updatesBefore = seriesUpdates.count();
		double continuedBefore = continuedUpdates();
		double updateMillisBefore = seriesUpdates.totalTime(TimeUnit.MILLISECONDS);
		for (int c = 0; c < CLIENTS; c++) {
			clients.add(pool.submit(() -> {
				for (int i = next.getAndIncrement(); i < total; i = next.getAndIncrement()) {
					long t0 = System.nanoTime();
					started[i] = t0;
					Http.Timed stored = http.postWithToken("/api/runs", documents[i], token).ok();
					committed[i] = System.nanoTime();
					ids[i] = JSON.readTree(stored.body()).get("id").asString();
					asked[i] = System.nanoTime();
					Http.Timed verdict = http.getWithToken("/api/runs/" + ids[i] + "/verdict", token).ok();
					answered[i] = System.nanoTime();
					millis[i] = (answered[i] - t0) / 1e6;
					JsonNode answer = JSON.readTree(verdict.body());
					statuses[i] = answer.get("status").asString();
					baselines[i] = answer.get("baseline").isNull() ? null : answer.get("baseline").asString();
				}
				return null;
			}));
		}
		for (Future<?> client : clients) {
			client.get();
		}
		double seconds = (System.nanoTime() - began) / 1e9;
		double[] cpuAfter = cpuMillis();
		double jitMillis = threadCpuMillis("C1 CompilerThre", "C2 CompilerThre") - jitBefore;
		double jvmPerRun = (cpuAfter[0] - cpuBefore[0]) / total;
		double postgresPerRun = (cpuAfter[1] - cpuBefore[1]) / total;
		pool.shutdownNow();
		// The machine's load as the burst ended too (its figures are of the whole
		// machine).
		log("burst ended");
		// The database's own upkeep during the burst (autovacuum and autoanalyze share
		// its
		// processors).
		try (Statement statement = db.createStatement(); ResultSet rs = statement.executeQuery("""
				select relname, autovacuum_count, autoanalyze_count, last_autovacuum, last_autoanalyze
				from pg_stat_user_tables
				where greatest(last_autovacuum, last_autoanalyze) > now() - make_interval(secs => %f)
				order by relname""".formatted(seconds + 1))) {
			List<String> upkeep = new ArrayList<>();
			while (rs.next()) {
				upkeep.add(rs.getString(1) + " (vacuums " + rs.getLong(2) + ", analyses " + rs.getLong(3) + ")");
			}
			log("  autovacuum or autoanalyze during the burst: " + (upkeep.isEmpty() ? "none" : upkeep));
			report.details().putObject("burst_upkeep").put("tables", String.join(", ", upkeep));
		}
		// Every verdict against what was committed before it was asked.
		Map<String, Integer> index = new LinkedHashMap<>();
		for (int i = 0; i < total; i++) {
			index.put(ids[i], i);
		}
		List<String> wrong = new ArrayList<>();
		for (int i = 0; i < total; i++) {
			int latestCommitted = -1;
			for (int j = 0; j < i; j++) {
				if (branches[j].equals("main") && committed[j] < asked[i]) {
					latestCommitted = j;
				}
			}
			Integer baseline = baselines[i] == null ? null : index.getOrDefault(baselines[i], -1);
			boolean right = baseline != null && baseline < i && (baseline == -1 || branches[baseline].equals("main"))
					&& baseline >= latestCommitted;
			if (!right) {
				wrong.add("run " + i + " (" + branches[i] + "): baseline " + baseline + ", latest committed before "
						+ latestCommitted + ", status " + statuses[i]);
			}
		}
		double[] sorted = millis.clone();
		Arrays.sort(sorted);
		// The two requests apart: where the time goes.
		long[] uploads = new long[total];
		long[] verdicts = new long[total];
		for (int i = 0; i < total; i++) {
			uploads[i] = committed[i] - started[i];
			verdicts[i] = answered[i] - asked[i];
		}
		Arrays.sort(uploads);
		Arrays.sort(verdicts);
		double p50 = sorted[(int) Math.ceil(0.50 * total) - 1];
		double p99 = sorted[(int) Math.ceil(0.99 * total) - 1];
		Map<String, Long> byStatus = new TreeMap<>();
		for (String status : statuses) {
			byStatus.merge(status, 1L, Long::sum);
		}
		ObjectNode details = report.details().putObject("burst");
		details.put("runs", total);
		details.put("clients", CLIENTS);
		details.put("warm_up_runs_of_another_series", warmUp);
		details.put("warm_up_clients", warmUpClients);
		details.put("cells", cells);
		details.put("samples_per_cell", samples);
		details.put("document_bytes", documents[0].length);
		details.put("seconds", seconds);
		details.put("p50_ms", p50);
		details.put("p99_ms", p99);
		details.put("max_ms", sorted[total - 1]);
		details.put("statuses", byStatus.toString());
		details.put("jvm_cpu_ms_per_run", jvmPerRun);
		details.put("jit_cpu_ms_per_run", jitMillis / total);
		details.put("jit_cpu_ms_per_run_last_warm_ups", jitLastWarmUps);
		long updates = seriesUpdates.count() - updatesBefore;
		double updateMillis = seriesUpdates.totalTime(TimeUnit.MILLISECONDS) - updateMillisBefore;
		log(String.format(Locale.ROOT,
				"  series updates: %d, %.0f ms each on average (the slowest of the last minutes %.0f ms)", updates,
				updates == 0 ? 0 : updateMillis / updates, seriesUpdates.max(TimeUnit.MILLISECONDS)));
		details.put("series_updates", updates);
		double continued = continuedUpdates() - continuedBefore;
		log(String.format(Locale.ROOT,
				"  of which %.0f went on from the analysis before (the others analysed their series from its start)",
				continued));
		details.put("series_updates_continued", continued);
		details.put("series_update_mean_ms", updates == 0 ? 0 : updateMillis / updates);
		details.set("statements_by_database_time", JSON.valueToTree(QueryPlans.heaviest(db, 25)));
		details.set("statements_by_calls", JSON.valueToTree(QueryPlans.mostCalled(db, 40)));
		double statementsPerRun = (double) QueryPlans.calls(db) / total;
		details.put("statements_per_run", statementsPerRun);
		details.put("postgres_cpu_ms_per_run", postgresPerRun);
		details.set("wrong_baselines", JSON.valueToTree(wrong));
		log(String.format(Locale.ROOT,
				"  upload → verdict: p50 %.0f ms  p99 %.0f ms  max %.0f ms  (%d runs in %.1f s)  verdicts %s", p50, p99,
				sorted[total - 1], total, seconds, byStatus));
		double[] apart = { Http.percentile(uploads, 50) / 1e6, Http.percentile(uploads, 99) / 1e6,
				Http.percentile(verdicts, 50) / 1e6, Http.percentile(verdicts, 99) / 1e6 };
		log(String.format(Locale.ROOT,
				"  upload alone: p50 %.0f ms  p99 %.0f ms;  verdict alone: p50 %.0f ms  p99 %.0f ms", apart[0],
				apart[1], apart[2], apart[3]));
		// Where the tail sits: the default branch's runs against the pull requests', and
		// each quarter of the burst in the order the runs were started.
		StringBuilder tail = new StringBuilder();
		for (boolean main : new boolean[] { true, false }) {
			long[] of = IntStream.range(0, total)
				.filter(i -> branches[i].equals("main") == main)
				.mapToLong(i -> answered[i] - started[i])
				.sorted()
				.toArray();
			tail.append(String.format(Locale.ROOT, "%s p50 %.0f ms p99 %.0f ms;  ",
					main ? "default branch" : "pull requests", Http.percentile(of, 50) / 1e6,
					Http.percentile(of, 99) / 1e6));
		}
		Integer[] byStart = IntStream.range(0, total).boxed().toArray(Integer[]::new);
		Arrays.sort(byStart, Comparator.comparingLong(i -> started[i]));
		for (int quarter = 0; quarter < 4; quarter++) {
			long[] of = Arrays.stream(byStart, quarter * total / 4, (quarter + 1) * total / 4)
				.mapToLong(i -> answered[i] - started[i])
				.sorted()
				.toArray();
			tail.append(String.format(Locale.ROOT, "quarter %d p50 %.0f p99 %.0f%s", quarter + 1,
					Http.percentile(of, 50) / 1e6, Http.percentile(of, 99) / 1e6, quarter < 3 ? ", " : ""));
		}
		log("  " + tail);
		// The slowest runs, each as its wait to upload, its upload and its verdict.
		StringBuilder slowest = new StringBuilder();
		IntStream.range(0, total)
			.boxed()
			.sorted(Comparator.comparingLong(i -> started[i] - answered[i]))
			.limit(8)
			.forEach(i -> slowest.append(String.format(Locale.ROOT,
					"run %d (%s, started at %.0f ms): upload %.0f, verdict %.0f; ", i, branches[i],
					(started[i] - began) / 1e6, (committed[i] - started[i]) / 1e6, (answered[i] - asked[i]) / 1e6)));
		log("  slowest: " + slowest);
		details.put("slowest", slowest.toString());
		details.put("tail", tail.toString());
		details.put("upload_p50_ms", apart[0]);
		details.put("upload_p99_ms", apart[1]);
		details.put("verdict_p50_ms", apart[2]);
		details.put("verdict_p99_ms", apart[3]);
		log(String.format(Locale.ROOT,
				"  processor time per run: %.1f ms in the JVM (the benchmark's clients included), %.1f ms in PostgreSQL"
						+ " (%.0f statements); of the JVM's, %.1f ms per run in the JIT's compiler threads (%.1f ms"
						+ " per run in the last warm-ups)",
				jvmPerRun, postgresPerRun, statementsPerRun, jitMillis / total, jitLastWarmUps));
		report.absolute("burst", "upload → verdict p99, " + CLIENTS + " CI clients, " + total + " runs of " + cells
				+ " cells × " + samples + " samples", p99, "ms", 1000, true);
		report.note(String.format(Locale.ROOT,
				"burst: upload → verdict p50 %.0f ms, p99 %.0f ms, max %.0f ms; %d runs in %.1f s; verdicts %s; "
						+ "processor time per run %.1f ms in the JVM (clients included), %.1f ms in PostgreSQL",
				p50, p99, sorted[total - 1], total, seconds, byStatus, jvmPerRun, postgresPerRun));
		report.check("burst",
				"every verdict's baseline is the latest default-branch run committed before it was asked (or later)",
				wrong.size() + " wrong of " + total, "0", wrong.isEmpty());
		assertThat(wrong).as("verdicts answered from a series lacking runs committed before them").isEmpty();
	}

	// ---------------------------------------------------------------- intervals

	/**
	 * One cell × metric's within-run interval (one run per side, with samples): both ends
	 * and the p-value from the two exact laws of the medians, as a comparison computes
	 * them ({@link Noise#overSampleLaws}) against the bisection they replaced
	 * ({@link BisectedRatioQuantile}), on the same 20 pairs of laws, in interleaved
	 * rounds of 300 ms or more, for 100, 1,000 and 20,000 samples per cell.
	 */
	private void intervals() {
		ObjectNode details = report.details().putObject("intervals");
		for (int samples : new int[] { 100, 1_000, 20_000 }) {
			SplittableRandom random = new SplittableRandom(samples);
			MedianLaw[] baselines = new MedianLaw[20];
			MedianLaw[] contenders = new MedianLaw[20];
			for (int i = 0; i < baselines.length; i++) {
				baselines[i] = MedianLaw.ofSamples(lognormal(random, samples, 1.0));
				contenders[i] = MedianLaw.ofSamples(lognormal(random, samples, 1.05));
			}
			int rounds = 7;
			double[] before = new double[rounds];
			double[] now = new double[rounds];
			for (int round = 0; round < rounds; round++) {
				before[round] = microsPerInterval(baselines, contenders, BisectedRatioQuantile::overSampleLaws);
				now[round] = microsPerInterval(baselines, contenders, Noise::overSampleLaws);
			}
			// The first round of each warms the JIT: left out.
			double beforeMedian = Http.median(Arrays.stream(before, 1, rounds).boxed().toList());
			double nowMedian = Http.median(Arrays.stream(now, 1, rounds).boxed().toList());
			ObjectNode row = details.putObject(String.valueOf(samples));
			row.put("law_values", baselines[0].values().length);
			row.put("bisection_us", beforeMedian);
			row.put("now_us", nowMedian);
			String line = String.format(Locale.ROOT,
					"intervals: %,d samples per side (laws of %,d values): %.1f µs per interval, the bisection %.1f µs "
							+ "(%.2f×)",
					samples, baselines[0].values().length, nowMedian, beforeMedian, beforeMedian / nowMedian);
			log(line);
			report.note(line);
		}
	}

	private static double[] lognormal(SplittableRandom random, int count, double scale) {
		double[] values = new double[count];
		for (int i = 0; i < count; i++) {
			values[i] = 100 * scale * Math.exp(0.3 * random.nextGaussian());
		}
		return values;
	}

	/** Microseconds per interval, computing the 20 pairs' again and again for 300 ms. */
	private static double microsPerInterval(MedianLaw[] baselines, MedianLaw[] contenders,
			BiFunction<MedianLaw, MedianLaw, Optional<RatioInterval>> interval) {
		long started = System.nanoTime();
		long computed = 0;
		double sink = 0;
		while (System.nanoTime() - started < 300_000_000L) {
			for (int i = 0; i < baselines.length; i++) {
				sink += interval.apply(baselines[i], contenders[i]).orElseThrow().low();
				computed++;
			}
		}
		if (sink == 0) {
			throw new IllegalStateException("no interval");
		}
		return (System.nanoTime() - started) / 1e3 / computed;
	}

	/**
	 * Processor time so far, in milliseconds: this JVM's (the application and the
	 * benchmark's clients) and that of the PostgreSQL processes running now (a backend
	 * that has exited takes its time with it: the pool keeps its connections open).
	 */
	/**
	 * The processor time of this JVM's threads whose name starts so (e.g. "C2
	 * CompilerThre", the JIT's), in ms; NaN without /proc.
	 */
	private static double threadCpuMillis(String... prefixes) {
		return cpuMillisOf(Path.of("/proc/self/task"), name -> Arrays.stream(prefixes).anyMatch(name::startsWith));
	}

	private static double continuedUpdates() {
		var counter = Metrics.globalRegistry.find("parity.series.update.continued").counter();
		return counter == null ? 0 : counter.count();
	}

	private static double[] cpuMillis() {
		double jvm = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
			.getProcessCpuTime() / 1e6;
		return new double[] { jvm, cpuMillisOf(Path.of("/proc"), "postgres"::equals) };
	}

	/**
	 * The processor time, in ms, of the processes or threads under {@code directory}
	 * ({@code /proc} or a process's {@code task}) whose name is {@code named}; NaN
	 * without /proc.
	 */
	private static double cpuMillisOf(Path directory, Predicate<String> named) {
		long ticks = 0;
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory, "[0-9]*")) {
			for (Path entry : entries) {
				try {
					String stat = Files.readString(entry.resolve("stat"));
					int close = stat.lastIndexOf(')');
					if (!named.test(stat.substring(stat.indexOf('(') + 1, close))) {
						continue;
					}
					String[] fields = stat.substring(close + 2).split(" ");
					// utime and stime: fields 14 and 15 of stat(5), 12 and 13 after the
					// name.
					ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
				}
				catch (IOException | RuntimeException gone) {
					// It ended meanwhile.
				}
			}
		}
		catch (IOException noProc) {
			return Double.NaN;
		}
		// Clock ticks of 10 ms (USER_HZ is 100 on Linux).
		return ticks * 10.0;
	}

	/**
	 * A CI run: the bench document with its own build ({@code engine.commit}), branch and
	 * time.
	 */
	private static byte[] ciDocument(String title, int cells, int samples, long seed, Instant at, String branch) {
		String text = new String(RunDocuments.document(title, "bench-ci-system", cells, samples, 3000 + seed),
				StandardCharsets.UTF_8);
		String commit = String.format(Locale.ROOT, "%040x", 0xc1000L + seed + 1);
		text = text
			.replace("\"recorded_at\":\"2026-11-01T10:00:00Z\",",
					"\"recorded_at\":\"" + at + "\",\"context\":{\"branch\":\"" + branch + "\"},")
			.replace("\"engine\":{\"name\":\"vllm\",", "\"engine\":{\"name\":\"vllm\",\"commit\":\"" + commit + "\",");
		return text.getBytes(StandardCharsets.UTF_8);
	}

	// ---------------------------------------------------------------- scale

	private void scale() throws Exception {
		byte[] first = RunDocuments.document("Typical sweep A", "bench-system-A", 200, 0, 501);
		byte[] second = RunDocuments.document("Typical sweep B", "bench-system-B", 200, 0, 502);
		String a = JSON.readTree(http.postJson("/api/runs", first, UPLOADER, PASSWORD).ok().body())
			.get("id")
			.asString();
		String b = JSON.readTree(http.postJson("/api/runs", second, UPLOADER, PASSWORD).ok().body())
			.get("id")
			.asString();
		Map<String, String> pages = new LinkedHashMap<>();
		pages.put("home", "/");
		pages.put("run list", "/runs");
		pages.put("run list, page 3", "/runs?page=3");
		pages.put("run list JSON, page 3", "/api/runs?page=3");
		pages.put("search (free text)", "/runs?q=typical");
		pages.put("search (free text), page 3", "/runs?q=sweep&page=3");
		pages.put("filters (system + role)", "/runs?system=bench-system-A&role=measured");
		pages.put("filters (system + role), page 3", "/runs?system=h100-node&role=measured&page=3");
		pages.put("filter (commit prefix)", "/runs?commit=3f6c1a2b");
		pages.put("filter (commit prefix), page 3", "/runs?commit=3&page=3");
		pages.put("filter (model + harness)", "/runs?model=example-org/bench-70b&harness=bench-harness");
		pages.put("filter (model + harness), page 3",
				"/runs?model=meta-llama/Llama-3.1-70B-Instruct&harness=vllm-bench-serve&page=3");
		pages.put("run page (200 cells)", "/runs/" + a);
		pages.put("comparison (200 cells, uncached)", "/compare/" + a + "..." + b + "?band=");
		log("scale: pages on a near-empty database (" + count("run") + " runs, " + count("cell") + " cells)");
		Map<String, Double> empty = new LinkedHashMap<>(pageTimes(pages, 0));
		// The pages of history and an old comparison need a series and old runs: a
		// database holding one series of SCALE_SERIES_RUNS runs (SCALE_CELLS / SCALE_RUNS
		// cells each) and nothing else is the near-empty one for them.
		int cellsPerRun = (int) Math.max(1, SCALE_CELLS / SCALE_RUNS);
		log("scale: seeding a series of " + SCALE_SERIES_RUNS + " runs × " + cellsPerRun + " cells");
		ScaleSeed.Seeded small = ScaleSeed.seed(db, SCALE_SERIES_RUNS, cellsPerRun, 11,
				new ScaleSeed.Shape("a", SCALE_SERIES_RUNS, "nightly-a", "3"), ScaleSeed.byApplication(app),
				message -> log("scale:  " + message));
		String seriesA = seriesOf(small.ids().get(0));
		Map<String, String> history = new LinkedHashMap<>();
		history.put("series list", "/series");
		history.put("series page (" + SCALE_SERIES_RUNS + " runs, analysis computed)", "/series/" + seriesA);
		history.put("alerts", "/alerts");
		history.put("first comparison of two old runs (samples stored, uncached)",
				"/compare/" + small.ids().get(0) + "..." + small.ids().get(ScaleSeed.WITH_SAMPLES) + "?band=");
		double firstA = firstView("/series/" + seriesA);
		log(String.format(Locale.ROOT, "scale: first view of series %s (%d runs, analysis computed on it): %.0f ms",
				seriesA, SCALE_SERIES_RUNS, firstA));
		empty.putAll(pageTimes(history, 0));
		// The run lists again on that database, where each lists the rows it lists at
		// scale (50; near-empty above, two runs, every page 3 is empty): the series' runs
		// are measured runs of one system, model and harness, their titles say "sweep"
		// and their commits begin with 3. The lists' target is taken against these, like
		// for like; the empty pages' figures are reported beside them.
		Map<String, String> lists = new LinkedHashMap<>();
		pages.forEach((name, path) -> {
			if (path.startsWith("/runs?") || path.equals("/runs") || path.startsWith("/api/runs?")) {
				lists.put(name, path);
			}
		});
		log("scale: the run lists on the near-empty database holding the series (" + count("run") + " runs)");
		Map<String, Double> listed = pageTimes(lists, 2);
		long runsNow = count("run");
		long cellsNow = count("cell");
		int toSeed = (int) (SCALE_RUNS - runsNow);
		int bigCells = (int) Math.ceil((SCALE_CELLS - cellsNow) / (double) toSeed);
		log("scale: seeding " + toSeed + " runs × " + bigCells + " cells");
		ScaleSeed.Seeded seeded = ScaleSeed.seed(db, toSeed, bigCells, 7,
				new ScaleSeed.Shape("s", SCALE_SERIES_RUNS, "nightly-b"), ScaleSeed.byApplication(app),
				message -> log("scale:  " + message));
		log(String.format(Locale.ROOT, "scale: seeded in %.0f s; now %d runs, %d cells, %d series", seeded.seconds(),
				count("run"), count("cell"), count("series")));
		String seriesB = seriesOf(seeded.ids().get(0));
		List<String> old = oldestWithSamples("s");
		pages.putAll(history);
		pages.put("series page (" + SCALE_SERIES_RUNS + " runs, analysis computed)", "/series/" + seriesB);
		pages.put("first comparison of two old runs (samples stored, uncached)",
				"/compare/" + old.get(0) + "..." + old.get(1) + "?band=");
		QueryPlans.reset(db);
		double firstB = firstView("/series/" + seriesB);
		log(String.format(Locale.ROOT, "scale: first view of series %s (%d runs, analysis computed on it): %.0f ms",
				seriesB, SCALE_SERIES_RUNS, firstB));
		Map<String, Double> full = pageTimes(pages, 1);
		List<QueryPlans.Planned> plans;
		// EXPLAIN (GENERIC_PLAN) of a statement with $1 … needs the simple query
		// protocol.
		try (Connection simple = DriverManager.getConnection(jdbcUrl + "?preferQueryMode=simple", "postgres", "")) {
			plans = QueryPlans.captured(simple);
		}
		ObjectNode details = report.details().putObject("scale");
		details.put("runs", count("run"));
		details.put("cells", count("cell"));
		details.put("caveats", count("caveat"));
		details.put("retractions", count("retraction"));
		details.put("series", count("series"));
		details.put("runs_with_samples",
				count("run_statistics r where exists (select 1 from cell_median_window b where b.run_id = r.run_id)"));
		details.put("seed_seconds", seeded.seconds() + small.seconds());
		ObjectNode firstViews = details.putObject("series_first_view_ms");
		firstViews.put("near_empty", firstA);
		firstViews.put("at_scale", firstB);
		report.ratio("scale",
				"series page of " + SCALE_SERIES_RUNS + " runs, first view (its analysis computed on it) at "
						+ String.format(Locale.ROOT, "%,d", SCALE_RUNS) + " runs",
				firstB, "ms", "near-empty", firstA, "≤ 1.5×", false, 1.5);
		ObjectNode times = details.putObject("p50_ms");
		for (String name : pages.keySet()) {
			ObjectNode row = times.putObject(name);
			row.put("near_empty", empty.get(name));
			row.put("at_scale", full.get(name));
			row.put("bytes_near_empty", pageBytes.get(name + ", near-empty"));
			row.put("bytes_at_scale", pageBytes.get(name + ", at scale"));
			if (listed.containsKey(name)) {
				row.put("near_empty_listing_its_rows", listed.get(name));
				row.put("bytes_near_empty_listing_its_rows", pageBytes.get(name + ", near-empty listing its rows"));
				report.ratio("scale",
						name + " at " + String.format(Locale.ROOT, "%,d", SCALE_RUNS)
								+ " runs (p50; near-empty: the same rows listed, " + SCALE_SERIES_RUNS
								+ " runs; with two runs, the list empty or nearly: "
								+ String.format(Locale.ROOT, "%.1f", empty.get(name)) + " ms)",
						full.get(name), "ms", "near-empty", listed.get(name), "≤ 1.5×", false, 1.5);
			}
			else {
				report.ratio("scale", name + " at " + String.format(Locale.ROOT, "%,d", SCALE_RUNS) + " runs (p50)",
						full.get(name), "ms", "near-empty", empty.get(name), "≤ 1.5×", false, 1.5);
			}
		}
		ArrayNode planned = details.putArray("queries");
		List<String> fullScans = new ArrayList<>();
		for (QueryPlans.Planned plan : plans) {
			ObjectNode row = planned.addObject();
			row.put("query", plan.query());
			row.put("calls", plan.calls());
			row.put("mean_ms", plan.meanMillis());
			row.set("scans", JSON.valueToTree(plan.scans()));
			row.set("full_scans_of_large_tables", JSON.valueToTree(plan.fullScans()));
			plan.fullScans().forEach(scan -> fullScans.add(scan + " in: " + abbreviate(plan.query())));
		}
		report.check("scale",
				"every query the pages ran uses an index (EXPLAIN of " + plans.size()
						+ " statements captured by pg_stat_statements)",
				fullScans.isEmpty() ? "all indexed" : fullScans.size() + " full scans of large tables",
				"no Seq Scan on a table of ≥ " + QueryPlans.SMALL_TABLE + " rows", fullScans.isEmpty());
		fullScans.forEach(scan -> report.note("full scan: " + scan));
		Files.writeString(OUT.resolve("queries.txt"),
				plans.stream()
					.map(p -> p.calls() + " × " + String.format(Locale.ROOT, "%.2f", p.meanMillis()) + " ms  "
							+ p.scans() + "\n    " + p.query())
					.reduce("", (x, y) -> x + y + "\n"));
		report.write(OUT);
		ScaleStorage.measure(db, report, details, OUT, jdbcUrl, http, this::log);
	}

	/** The series a seeded run joined. */
	private String seriesOf(String runId) throws SQLException {
		try (var statement = db.prepareStatement("select series_id from series_run where run_id = ?")) {
			statement.setString(1, runId);
			try (ResultSet rs = statement.executeQuery()) {
				rs.next();
				return rs.getString(1);
			}
		}
	}

	/** The two oldest runs of a seed (by id prefix) whose samples were stored. */
	private List<String> oldestWithSamples(String prefix) throws SQLException {
		List<String> ids = new ArrayList<>();
		try (var statement = db.prepareStatement(
				"""
						select r.id from run r where r.id ~ ? and exists (select 1 from cell_median_window b where b.run_id = r.id)
						order by r.uploaded_at limit 2""")) {
			// The seed's ids alone (an uploaded run's random id may begin with the same
			// letter).
			statement.setString(1, "^" + prefix + "[0-9]{9}$");
			try (ResultSet rs = statement.executeQuery()) {
				while (rs.next()) {
					ids.add(rs.getString(1));
				}
			}
		}
		return ids;
	}

	/**
	 * A page as its first visitor gets it (one request, up to 30 minutes: a series' first
	 * analysis is computed on it), in milliseconds.
	 */
	private double firstView(String path) throws Exception {
		var client = HttpClient.newHttpClient();
		long start = System.nanoTime();
		var answer = client.send(
				HttpRequest.newBuilder(URI.create(http.base() + path)).timeout(Duration.ofMinutes(30)).GET().build(),
				HttpResponse.BodyHandlers.ofByteArray());
		double millis = (System.nanoTime() - start) / 1e6;
		assertThat(answer.statusCode()).as(path).isEqualTo(200);
		return millis;
	}

	/**
	 * The size of each page as measured, near-empty and at scale (a page 3 at scale must
	 * have rows to show).
	 */
	private final Map<String, Integer> pageBytes = new LinkedHashMap<>();

	/**
	 * The pages' p50 times; {@code phase} 0 near-empty, 1 at scale, 2 near-empty with the
	 * runs the lists show at scale.
	 */
	private Map<String, Double> pageTimes(Map<String, String> pages, int phase) {
		Map<String, Double> result = new LinkedHashMap<>();
		int rounds = 30;
		Map<String, List<Double>> times = new LinkedHashMap<>();
		pages.keySet().forEach(name -> times.put(name, new ArrayList<>()));
		// Interleaved, so that noise from the machine falls on every page alike; the
		// first rounds warm up.
		for (int round = -5; round < rounds; round++) {
			for (Map.Entry<String, String> page : pages.entrySet()) {
				String path = page.getValue();
				if (path.endsWith("band=")) {
					path = path + String.format(Locale.ROOT, "0.1%d%03d", phase + 1, round + 10);
				}
				Http.Timed answer = http.get(path).ok();
				if (round >= 0) {
					times.get(page.getKey()).add(answer.millis());
				}
				if (round == 0) {
					pageBytes.put(
							page.getKey() + (phase == 0 ? ", near-empty"
									: phase == 1 ? ", at scale" : ", near-empty listing its rows"),
							answer.body().length);
				}
			}
		}
		times.forEach((name, list) -> result.put(name, Http.median(list)));
		return result;
	}

	// ---------------------------------------------------------------- helpers

	/**
	 * Waits until no series update and no bootstrap medians job is waiting (both run
	 * after the commit, apart from the request, side by side), and returns how many
	 * milliseconds each took: {series, medians}.
	 */
	private double[] afterCommitDone() throws Exception {
		long start = System.nanoTime();
		long deadline = start + TimeUnit.SECONDS.toNanos(300);
		double[] done = { -1, -1 };
		while (done[0] < 0 || done[1] < 0) {
			if (done[0] < 0 && count("series_job") == 0) {
				done[0] = (System.nanoTime() - start) / 1e6;
			}
			if (done[1] < 0 && count("bootstrap_job") == 0) {
				done[1] = (System.nanoTime() - start) / 1e6;
			}
			if (System.nanoTime() > deadline) {
				throw new AssertionError("series updates or bootstrap medians still waiting after 300 s");
			}
			Thread.sleep(5);
		}
		return done;
	}

	private long countWhere(String table, String condition, List<String> ids) throws SQLException {
		try (var statement = db.prepareStatement("select count(*) from " + table + " where " + condition)) {
			statement.setArray(1, db.createArrayOf("varchar", ids.toArray()));
			try (ResultSet rs = statement.executeQuery()) {
				rs.next();
				return rs.getLong(1);
			}
		}
	}

	private long count(String table) throws SQLException {
		try (Statement statement = db.createStatement();
				ResultSet rs = statement.executeQuery("select count(*) from " + table)) {
			rs.next();
			return rs.getLong(1);
		}
	}

	private static ArrayNode array(List<Double> values) {
		ArrayNode array = JSON.createArrayNode();
		values.forEach(array::add);
		return array;
	}

	private static String abbreviate(String text) {
		return text.length() > 160 ? text.substring(0, 157) + "…" : text;
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	private static boolean runs(String section) {
		String only = System.getProperty("bench.only", "").strip();
		return only.isEmpty() || Arrays.asList(only.split(",")).contains(section);
	}

	private void log(String message) {
		System.out.println("[bench] " + message);
		if (message.startsWith(" ")) {
			return;
		}
		try {
			String load = Files.readString(Path.of("/proc/loadavg")).strip();
			report.details().withArray("load_average").add(message.split(":")[0] + ": " + load);
		}
		catch (IOException | RuntimeException ex) {
			// not Linux: no load average
		}
	}

}
