package dev.parity.run;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import dev.parity.ParityApplication;
import dev.parity.bench.ScaleSeed;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The benchmark's scale seed writes runs as an upload does: on a database of its own (the
 * seed would crowd the shared one), every seeded run has what a comparison reads instead
 * of samples (complete statistics, a median window for every cell × metric with enough
 * samples), and the application shows the runs, their series and a comparison of two runs
 * with samples.
 */
class SeededRunsTests {

	@Test
	void seededRunsReadBackAsUploadedOnes() throws Exception {
		Path data = Files.createTempDirectory(Files.createDirectories(Path.of("target", "seeded")), "postgres-");
		try (EmbeddedPostgres postgres = EmbeddedPostgres.builder()
			.setDataDirectory(data)
			.setCleanDataDirectory(true)
			.setPGStartupWait(Duration.ofSeconds(60))
			.setServerConfig("fsync", "off")
			.start()) {
			String url = "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres";
			try (ConfigurableApplicationContext app = new SpringApplicationBuilder(ParityApplication.class).run(
					"--server.port=0", "--parity.db.url=" + url, "--parity.db.user=postgres", "--parity.db.password=",
					"--parity.admin.user=seed-admin", "--parity.admin.password=seed-quay-lantern-7",
					"--logging.level.root=WARN", "--spring.main.banner-mode=off");
					Connection db = DriverManager.getConnection(url, "postgres", "")) {
				ScaleSeed.Seeded seeded = ScaleSeed.seed(db, 120, 16, 3, new ScaleSeed.Shape("q", 60, "nightly-q"),
						ScaleSeed.byApplication(app), message -> {
						});
				assertThat(seeded.cells()).isEqualTo(120 * 16);
				String withSamples = seeded.ids().get(0);
				String other = seeded.ids().get(ScaleSeed.WITH_SAMPLES);
				String without = seeded.ids().get(1);

				// What a comparison reads instead of samples, for every run, as after an
				// upload.
				CellStatistics statistics = app.getBean(CellStatistics.class);
				assertThat(statistics.complete(seeded.ids().toArray(String[]::new), CellStatistics.computedUnder(5)))
					.hasSize(120);
				assertThat(count(db, "select count(*) from cell_median_window where run_id = '" + withSamples + "'"))
					.as("ttft_s and decode_tps of each of 16 cells")
					.isEqualTo(32);
				assertThat(count(db, "select count(*) from cell_statistics where run_id = '" + withSamples + "'"))
					.isEqualTo(48);
				assertThat(count(db, "select count(*) from cell_statistics where run_id = '" + without + "'")).isZero();
				assertThat(app.getBean(RunRepository.class).find(new RunId(withSamples)).orElseThrow().cells())
					.hasSize(16)
					.allSatisfy(cell -> assertThat(cell.samples()).hasSize(ScaleSeed.SAMPLES));

				// The application shows them.
				String base = "http://127.0.0.1:" + ((WebServerApplicationContext) app).getWebServer().getPort();
				assertThat(get(base + "/api/runs/" + without)).contains("\"cell-concurrency-4--prompt_tokens-512\"");
				assertThat(get(base + "/runs?q=nightly")).contains(seeded.ids().get(59));
				String series = single(db, "select series_id from series_run where run_id = '" + withSamples + "'");
				assertThat(get(base + "/api/series/" + series)).contains(seeded.ids().get(59));
				assertThat(get(base + "/compare/" + withSamples + "..." + other)).contains(withSamples, other);
			}
		}
	}

	private static String get(String url) throws Exception {
		HttpResponse<String> answer = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
		assertThat(answer.statusCode()).as(url).isEqualTo(200);
		return answer.body();
	}

	private static long count(Connection db, String sql) throws SQLException {
		return Long.parseLong(single(db, sql));
	}

	private static String single(Connection db, String sql) throws SQLException {
		try (Statement statement = db.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
			rs.next();
			return rs.getString(1);
		}
	}

}
