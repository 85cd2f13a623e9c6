package dev.parity.bench;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.parity.ParityApplication;
import dev.parity.history.SeriesUpdates;
import dev.parity.run.RunId;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.security.crypto.password.PasswordEncoder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A series of 1,000 runs × 20 cells: the series page and the alert computation for one
 * new run, against a run page of the same size in the same instance. The first runs are
 * uploaded over HTTP (to see how an upload's series update grows with the series); the
 * rest are copies of an uploaded run made in SQL (new id, later recorded_at, another
 * engine commit, noisy metrics with a 10 % step), after which the series is analysed once
 * by the application's own service. Run with
 * {@code ./mvnw -B -Pbench verify -Dtest=SeriesBenchmark}; figures appended to
 * {@code target/bench/series.md}. {@code -Dbench.seriesRuns=} scales the series down.
 */
class SeriesBenchmark {

	static final Path OUT = Path.of("target", "bench").toAbsolutePath();

	static final String UPLOADER = "bench-uploader";

	static final String PASSWORD = "bench-uploader-secret";

	static final int RUNS = Integer.getInteger("bench.seriesRuns", 1_000);

	static final int CELLS = 20;

	static final int SAMPLES = 12;

	static final int UPLOADED = 5;

	/**
	 * New runs uploaded into the full series, one after the other (each analyses the
	 * whole series again).
	 */
	static final int NEW_RUNS = Integer.getInteger("bench.seriesNewRuns", 2);

	private final StringBuilder md = new StringBuilder();

	private Http http;

	private Connection db;

	private int uploads;

	@Test
	void measure() throws Exception {
		Files.createDirectories(OUT);
		long started = System.nanoTime();
		md.append("\n## Series benchmark, ")
			.append(Instant.now())
			.append(" (")
			.append(RUNS)
			.append(" runs × ")
			.append(CELLS)
			.append(" cells)\n\n");
		try (EmbeddedPostgres postgres = EmbeddedPostgres.builder()
			.setDataDirectory(Files.createDirectories(OUT.resolve("postgres-series")))
			.setCleanDataDirectory(true)
			.setPGStartupWait(Duration.ofSeconds(60))
			.start()) {
			String jdbcUrl = "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres";
			log("starting the application");
			ConfigurableApplicationContext app = new SpringApplicationBuilder(ParityApplication.class).run(
					"--server.port=0", "--parity.db.url=" + jdbcUrl, "--parity.db.user=postgres",
					"--parity.db.password=", "--parity.admin.user=bench-admin",
					"--parity.admin.password=bench-quay-lantern-7", "--logging.level.root=WARN",
					"--spring.main.banner-mode=off");
			try (Connection connection = DriverManager.getConnection(jdbcUrl, "postgres", "")) {
				db = connection;
				createUploader(app);
				http = new Http("http://127.0.0.1:" + ((WebServerApplicationContext) app).getWebServer().getPort());
				run(app.getBean(SeriesUpdates.class));
			}
			finally {
				app.close();
			}
		}
		finally {
			double seconds = (System.nanoTime() - started) / 1e9;
			md.append(String.format(Locale.ROOT, "\nWhole benchmark: %.0f s.\n", seconds));
			Files.writeString(OUT.resolve("series.md"), md, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
					StandardOpenOption.APPEND);
			System.out.println();
			System.out.println(md);
			System.out.println("Appended to " + OUT.resolve("series.md"));
		}
	}

	private void run(SeriesUpdates updates) throws Exception {
		// Warm-up: the JIT, the pool, the templates — on series of their own.
		for (int i = 0; i < 3; i++) {
			String warm = upload("bench-warm-" + i, Instant.parse("2026-10-01T00:00:00Z"));
			http.get("/runs/" + warm).ok();
			http.get("/series/" + seriesOf(warm)).ok();
		}
		// One upload + series update on a series of its own (1 run): the baseline.
		List<Double> alone = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			alone.add(timedUpload("bench-alone-" + i, Instant.parse("2026-10-01T00:00:00Z")));
		}
		// The first runs of the measured series over HTTP: upload + update at sizes 1 …
		// UPLOADED.
		List<String> uploaded = new ArrayList<>();
		List<Double> growing = new ArrayList<>();
		for (int i = 0; i < UPLOADED; i++) {
			long t = System.nanoTime();
			uploaded.add(upload("bench-series", Instant.parse("2026-11-01T00:00:00Z").plusSeconds(60L * i)));
			growing.add((System.nanoTime() - t) / 1e6);
		}
		String seriesId = seriesOf(uploaded.get(0));
		log("series " + seriesId + ": uploads at sizes 1.." + UPLOADED + " took " + fmt(growing) + " ms");
		md.append("- POST /api/runs (")
			.append(CELLS)
			.append(" cells, ")
			.append(SAMPLES)
			.append(" samples each), request → committed + series analysed, series sizes 1..")
			.append(UPLOADED)
			.append(": ")
			.append(fmt(growing))
			.append(" ms\n");

		// Seed the rest with SQL copies of the first uploaded run.
		int copies = RUNS - UPLOADED;
		log("seeding " + copies + " copies of a " + CELLS + "-cell run in SQL");
		double seedSeconds = seed(uploaded.get(0), seriesId, copies);
		assertThat(count("select count(*) from series_run where series_id = '" + seriesId + "'")).isEqualTo(RUNS);
		log(String.format(Locale.ROOT, "seeded in %.1f s; series has %d runs, %d cells", seedSeconds, RUNS,
				count("select count(*) from cell c join series_run s on s.run_id = c.run_id where s.series_id = '"
						+ seriesId + "'")));
		md.append(String.format(Locale.ROOT, "- seeded %d runs × %d cells in SQL in %.1f s (+ %d over HTTP)\n", copies,
				CELLS, seedSeconds, UPLOADED));

		// The first analysis of the seeded series by the application's own service: every
		// run's facts and every
		// pair's checks are computed (cold), as after a restore.
		long analysed = System.nanoTime();
		assertThat(updates.update(new RunId(uploaded.get(UPLOADED - 1)))).contains(seriesId);
		double cold = (System.nanoTime() - analysed) / 1e6;
		log("SeriesUpdates.update at " + RUNS + " runs, cold (every run's facts and pair computed): "
				+ fmt(List.of(cold)) + " ms");
		String alerts = String.valueOf(count("select count(*) from alert where series_id = '" + seriesId + "'"));
		md.append("- first analysis of the seeded ")
			.append(RUNS)
			.append("-run series (every run's facts and pair computed, ")
			.append("as after a restore): ")
			.append(fmt(List.of(cold)))
			.append(" ms (alerts in the series: ")
			.append(alerts)
			.append(")\n");
		// Warm: the same update again, facts and pairs kept (what an update costs besides
		// the new run's own facts).
		List<Double> warmUpdates = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			long t = System.nanoTime();
			updates.update(new RunId(uploaded.get(UPLOADED - 1)));
			warmUpdates.add((System.nanoTime() - t) / 1e6);
		}

		// (b) New runs over HTTP: the POST answers after the commit; the worker updates
		// the series after it.
		List<Double> joining = new ArrayList<>();
		List<Double> untilAnalysed = new ArrayList<>();
		// The worker's own time for each new run: claim of the job to the commit of the
		// analysis (its timer).
		List<Double> updateWork = new ArrayList<>();
		// ...and the processor time its thread used for it: what the update costs
		// whatever else the machine runs.
		List<Double> updateCpu = new ArrayList<>();
		String newest = null;
		for (int i = 0; i < NEW_RUNS; i++) {
			double cpuBefore = workerCpu();
			double workBefore = updateTime();
			long updatesBefore = updates();
			long t = System.nanoTime();
			newest = upload("bench-series", Instant.parse("2026-12-01T00:00:00Z").plusSeconds(60L * i));
			joining.add((System.nanoTime() - t) / 1e6);
			while (!newest.equals(lastAnalysed(seriesId))) {
				Thread.sleep(2);
			}
			untilAnalysed.add((System.nanoTime() - t) / 1e6);
			while (updates() == updatesBefore) {
				Thread.sleep(2); // the timer records after the commit
			}
			updateWork.add(updateTime() - workBefore);
			updateCpu.add(workerCpu() - cpuBefore);
			String api = http.get("/api/series/" + seriesId).ok().text();
			assertThat(api).as("the new run is in the series").contains(newest);
		}
		log("POST of a new run into the " + RUNS + "-run series: " + fmt(joining)
				+ " ms (until analysed by the worker: " + fmt(untilAnalysed) + " ms; the worker's update: "
				+ fmt(updateWork) + " ms, processor time " + fmt(updateCpu) + " ms); into a new series: " + fmt(alone)
				+ " ms; warm update: " + fmt(warmUpdates) + " ms");

		// (a) The series page and API; (c) the run page of a 20-cell run of the same
		// series.
		Timing page = timing(() -> http.get("/series/" + seriesId).ok());
		Files.write(OUT.resolve("series-page.html"), http.get("/series/" + seriesId).ok().body());
		Timing api = timing(() -> http.get("/api/series/" + seriesId).ok());
		String newestRun = newest;
		Timing runPage = timing(() -> http.get("/runs/" + newestRun).ok());
		Timing runApi = timing(() -> http.get("/api/runs/" + newestRun).ok());

		md.append(
				"\n| what | first ms | warm ms (median of 5) | bytes | vs run page (warm) |\n|---|---:|---:|---:|---:|\n");
		row("GET /series/" + seriesId + " (" + (RUNS + NEW_RUNS) + " runs)", page, runPage);
		row("GET /api/series/" + seriesId, api, runPage);
		row("GET /runs/{id} (" + CELLS + " cells)", runPage, runPage);
		row("GET /api/runs/{id}", runApi, runPage);
		md.append(String.format(Locale.ROOT, "\n| one new %d-cell run | median ms | all |\n|---|---:|---|\n", CELLS));
		md.append(String.format(Locale.ROOT, "| POST into the %d-run series (answers after the commit) | %.1f | %s |\n",
				RUNS, Http.median(joining), fmt(joining)));
		md.append(String.format(Locale.ROOT, "| POST into a series of its own (1 run) | %.1f | %s |\n",
				Http.median(alone), fmt(alone)));
		md.append(String.format(Locale.ROOT,
				"| POST start → series analysed with it by the worker (%d-run series) | %.1f | %s |\n", RUNS,
				Http.median(untilAnalysed), fmt(untilAnalysed)));
		md.append(String.format(Locale.ROOT,
				"| the worker's update of the %d-run series for the new run (claim → commit, `parity.series.update`) | %.1f | %s |\n",
				RUNS, Http.median(updateWork), fmt(updateWork)));
		md.append(String.format(Locale.ROOT,
				"| the processor time of the worker's thread for that update (independent of the machine's load) | %.1f | %s |\n",
				Http.median(updateCpu), fmt(updateCpu)));
		md.append(String.format(Locale.ROOT, "| series update, facts and pairs kept (service call) | %.1f | %s |\n",
				Http.median(warmUpdates), fmt(warmUpdates)));
		md.append(String.format(Locale.ROOT,
				"\nRatios: series page / run page %.2f× (target ≤ 2); series API / run page %.2f×; POST into the %d-run series / into a new one %.2f×; "
						+ "the work for one new run (the worker's update) %.1f ms, of which processor time %.1f ms (target ≤ 50); "
						+ "analysed − POST %.0f ms.\n",
				page.warm / runPage.warm, api.warm / runPage.warm, RUNS, Http.median(joining) / Http.median(alone),
				Http.median(updateWork), Http.median(updateCpu), Http.median(untilAnalysed) - Http.median(joining)));
		profile(seriesId, newestRun, updates);
	}

	/**
	 * With {@code -Dbench.seriesProfile=N}: N more series pages, N more new runs (each
	 * waited for until the worker has analysed it) and N more updates of the series by a
	 * service call, unmeasured, so that a flight recording
	 * ({@code JAVA_TOOL_OPTIONS=-XX:StartFlightRecording=...}) has samples enough of
	 * each.
	 */
	private void profile(String seriesId, String runId, SeriesUpdates updates) throws Exception {
		int loops = Integer.getInteger("bench.seriesProfile", 0);
		if (loops > 0) {
			log("profiling: " + loops + " series pages, new runs and updates");
			for (int i = 0; i < loops; i++) {
				http.get("/series/" + seriesId).ok();
			}
			for (int i = 0; i < loops; i++) {
				String run = upload("bench-series", Instant.parse("2026-12-02T00:00:00Z").plusSeconds(60L * i));
				while (!run.equals(lastAnalysed(seriesId))) {
					Thread.sleep(2);
				}
			}
			for (int i = 0; i < loops; i++) {
				updates.update(new RunId(runId));
			}
		}
	}

	/** The processor time the series worker's thread has used so far, in milliseconds. */
	private static double workerCpu() {
		var threads = ManagementFactory.getThreadMXBean();
		for (Thread thread : Thread.getAllStackTraces().keySet()) {
			if (thread.getName().equals("series-updates")) {
				return threads.getThreadCpuTime(thread.getId()) / 1e6;
			}
		}
		return 0;
	}

	/** How many series updates were done so far. */
	private static long updates() {
		Timer timer = Metrics.globalRegistry.find("parity.series.update").timer();
		return timer == null ? 0 : timer.count();
	}

	/** The total time of the series updates done so far, in milliseconds. */
	private static double updateTime() {
		Timer timer = Metrics.globalRegistry.find("parity.series.update").timer();
		return timer == null ? 0 : timer.totalTime(TimeUnit.NANOSECONDS) / 1e6;
	}

	private String lastAnalysed(String seriesId) throws SQLException {
		try (var statement = db.prepareStatement("select last_run from series_analysis where series_id = ?")) {
			statement.setString(1, seriesId);
			try (ResultSet rs = statement.executeQuery()) {
				return rs.next() ? rs.getString(1) : null;
			}
		}
	}

	private record Timing(double first, double warm, int bytes) {
	}

	private static Timing timing(Supplier<Http.Timed> get) {
		Http.Timed first = get.get();
		List<Double> warm = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			warm.add(get.get().millis());
		}
		return new Timing(first.millis(), Http.median(warm), first.body().length);
	}

	private void row(String what, Timing t, Timing runPage) {
		md.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %,d | %.1f× |\n", what, t.first, t.warm, t.bytes,
				t.warm / runPage.warm));
		log(String.format(Locale.ROOT, "%-50s first %8.1f ms  warm %8.1f ms  %,d bytes", what, t.first, t.warm,
				t.bytes));
	}

	private double timedUpload(String system, Instant recordedAt) throws Exception {
		long t = System.nanoTime();
		upload(system, recordedAt);
		return (System.nanoTime() - t) / 1e6;
	}

	/**
	 * Uploads one run of this system, recorded then, with an engine commit of its own;
	 * returns its id.
	 */
	private String upload(String system, Instant recordedAt) throws Exception {
		uploads++;
		String commit = RunDocuments.randomCommit(new Random(uploads * 31L));
		String document = new String(RunDocuments.document("Series sweep " + uploads, system, CELLS, SAMPLES, uploads),
				StandardCharsets.UTF_8)
			.replace("2026-11-01T10:00:00Z", recordedAt.toString())
			.replace("\"version\":\"0.11.2\"", "\"version\":\"0.11.2\",\"commit\":\"" + commit + "\"");
		Http.Timed stored = http.postJson("/api/runs", document.getBytes(StandardCharsets.UTF_8), UPLOADER, PASSWORD)
			.ok();
		assertThat(stored.status()).isEqualTo(201);
		return PerformanceBenchmark.JSON.readTree(stored.body()).get("id").asString();
	}

	private String seriesOf(String runId) throws SQLException {
		try (var statement = db.prepareStatement("select series_id from series_run where run_id = ?")) {
			statement.setString(1, runId);
			try (ResultSet rs = statement.executeQuery()) {
				assertThat(rs.next()).as("run " + runId + " is in a series").isTrue();
				return rs.getString(1);
			}
		}
	}

	/**
	 * Copies the template run {@code copies} times (run and cell rows, every column the
	 * application wrote), each copy recorded an hour after the previous one (all before
	 * the uploaded runs), with an engine commit of its own and its numeric metrics ± 2 %
	 * noise, 10 % lower after 70 % of the copies; then makes them runs of the series.
	 */
	private double seed(String template, String seriesId, int copies) throws SQLException {
		long t = System.nanoTime();
		String id = "'k' || lpad(g::text, 9, '0')";
		String commit = "substr(md5('c' || g) || md5('d' || g), 1, 40)";
		String factor = "((1 + 0.04 * (random() - 0.5)) * (case when g > " + (copies * 7 / 10)
				+ " then 0.9 else 1 end))";
		Map<String, String> runOverrides = Map.of("id", id, "upload_sha256", "md5('a' || g) || md5('b' || g)",
				"recorded_at", "timestamptz '2025-01-01T00:00:00Z' + g * interval '1 hour'", "engine_commit", commit,
				"provenance", "jsonb_set(provenance, '{engine,commit}', to_jsonb(" + commit + "))", "uploaded_at",
				"now() - (" + copies + " - g) * interval '1 minute'", "title", "'Series sweep copy ' || g");
		Map<String, String> cellOverrides = Map.of("run_id", id, "metrics",
				"""
						(select jsonb_object_agg(e.key, case
						   when jsonb_typeof(e.value) = 'number' then to_jsonb(round((e.value::text::numeric) * %1$s::numeric, 4))
						   when jsonb_typeof(e.value) = 'object' and e.value ? 'median' then
						     jsonb_set(e.value, '{median}', to_jsonb(round(((e.value ->> 'median')::numeric) * %1$s::numeric, 4)))
						   else e.value end) from jsonb_each(metrics) e)"""
					.formatted(factor));
		boolean autoCommit = db.getAutoCommit();
		db.setAutoCommit(false);
		try (Statement statement = db.createStatement()) {
			statement.executeUpdate(copy("run", runOverrides,
					"from run, generate_series(1, " + copies + ") g where id = '" + template + "'"));
			statement.executeUpdate(copy("cell", cellOverrides,
					"from cell, generate_series(1, " + copies + ") g where run_id = '" + template + "'"));
			statement.executeUpdate("insert into series_run (series_id, run_id) select '" + seriesId + "', " + id
					+ " from generate_series(1, " + copies + ") g");
			db.commit();
		}
		finally {
			db.setAutoCommit(autoCommit);
		}
		try (Statement statement = db.createStatement()) {
			statement.execute("vacuum analyze");
		}
		return (System.nanoTime() - t) / 1e9;
	}

	/**
	 * insert into {@code table} (its columns, but generated ones) select (each column, or
	 * its override) …
	 */
	private String copy(String table, Map<String, String> overrides, String from) throws SQLException {
		List<String> columns = new ArrayList<>();
		try (var statement = db.prepareStatement("""
				select column_name from information_schema.columns
				where table_schema = current_schema() and table_name = ? and is_generated = 'NEVER'
				  and coalesce(column_default, '') not like 'nextval%' and is_identity = 'NO'
				order by ordinal_position""")) {
			statement.setString(1, table);
			try (ResultSet rs = statement.executeQuery()) {
				while (rs.next()) {
					columns.add(rs.getString(1));
				}
			}
		}
		return "insert into " + table + " (" + String.join(", ", columns) + ") select "
				+ String.join(", ", columns.stream().map(c -> overrides.getOrDefault(c, c)).toList()) + " " + from;
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

	private long count(String sql) throws SQLException {
		try (Statement statement = db.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
			rs.next();
			return rs.getLong(1);
		}
	}

	private static String fmt(List<Double> values) {
		return String.join(", ", values.stream().map(v -> String.format(Locale.ROOT, "%.1f", v)).toList());
	}

	private static void log(String message) {
		System.out.println("[series-bench] " + message);
	}

}
