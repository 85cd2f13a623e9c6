package dev.parity.reliability;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

import dev.parity.Fixtures;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.reliability.ApiClient.Answer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The seed story with caveats, a refuted hypothesis, publications, supersessions and a
 * declared control, backed up as one zip and restored into a second, empty instance: the
 * same ids, the same API answers, pages and exports, byte for byte (but for the address
 * of the server and the time a live comparison was computed). And the restore refuses
 * what it must: a non-empty instance, a damaged archive, anyone but an administrator.
 */
@ParityTest
class BackupRestoreTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@LocalServerPort
	int port;

	@Test
	void aRestoredInstanceAnswersExactlyAsTheOriginal() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, "run-c-effort-high.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		String pair = reference + "..." + e;
		form("/runs/" + e + "/caveats", "text", "The 280-token row ran first after the warm-up", "cell",
				"cell-concurrency-1--prompt_tokens-280");
		String hypothesis = caveatId(form("/compare/" + pair + "/caveats", "text",
				"The short-prompt TTFT spike is cold shapes", "cell", "cell-concurrency-4--prompt_tokens-280", "metric",
				"ttft_s", "deciding_experiment", "warm up fully and re-run the 280-token row"));
		form("/caveats/" + hypothesis + "/status", "status", "refuted", "reason",
				"the spike moved after a full warm-up", "decided_by", e, "back", "/compare/" + pair);
		String first = publicationId(form("/compare/" + reference + "..." + c + "/publish", "title",
				"Spark vs reference: +101 %", "caption", "", "confirm_no_comparable", "true"));
		String controlled = publicationId(form("/compare/" + pair + "/publish", "title",
				"Spark vs reference, controlled", "caption", "decode within ±10 % on 18 of 18 cells"));
		form("/published/" + first + "/retract", "reason", "outputs were 801 vs 512 tokens", "replacement", controlled);
		form("/runs/" + c + "/retract", "reason", "superseded by the control run", "replacement", e);

		// A control declared for the confounded comparison, through the API: its
		// declaration travels with the record.
		int declared = mvc
			.perform(post("/api/controls").with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"control\": \"" + e + "\", \"of\": \"" + reference + "..." + c + "\"}"))
			.andReturn()
			.getResponse()
			.getStatus();
		assertThat(declared).as("declaring the control").isIn(200, 201);
		// A saved format (a field mapping): its versions travel with the record.
		// (its list has a name of its own: no other test's file is detected as this
		// format)
		String suffix = UUID.randomUUID().toString().substring(0, 8);
		mvc.perform(MockMvcRequestBuilders.post("/api/formats")
			.contentType(MediaType.APPLICATION_JSON)
			.content("{\"name\": \"backup-bench-" + suffix + "\", \"detect\": [\"$.backup_cases_" + suffix + "[*]\"],"
					+ " \"cells\": \"$.backup_cases_" + suffix + "[*]\", \"params\": {\"concurrency\": \"$.c\"},"
					+ " \"metrics\": {\"ttft_s\": \"$.ttft\"}}")
			.with(httpBasic(USER, PASSWORD))).andExpect(status().isCreated());
		byte[] backup = mvc.perform(get("/admin/backup").with(httpBasic(USER, PASSWORD)))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray();
		ApiClient original = new ApiClient("http://localhost:" + port);

		try (AppInstance restoredInstance = AppInstance.startWithItsOwnDatabase()) {
			ApiClient restored = new ApiClient(restoredInstance.baseUrl());
			Answer answer = restored.restore(backup);
			assertThat(answer.status()).as(answer.toString()).isEqualTo(200);

			List<String> paths = new ArrayList<>(List.of("/api/compare/" + pair, "/compare/" + pair + "/export.md",
					"/compare/" + pair + "/export.csv", "/compare/" + reference + "..." + c + "/export.md",
					"/published/" + first, "/published/" + controlled, "/api/published/" + first,
					"/published/" + first + "/export.md", "/published/" + controlled + "/export.md", "/api/formats",
					"/api/compare/" + reference + "..." + c + "/control"));
			for (String run : List.of(reference, c, e)) {
				paths.addAll(List.of("/api/runs/" + run, "/api/runs/" + run + "/document", "/runs/" + run,
						"/runs/" + run + "/export.md"));
			}
			// History: the series of the control run (its analysis recomputed after the
			// restore), its alerts
			String series = TestUploads.tree(original.get("/api/runs/" + e).body().getBytes(StandardCharsets.UTF_8))
				.at("/system/name")
				.asString();
			String seriesId = TestUploads
				.tree(original.get("/api/series?system=" + URLEncoder.encode(series, StandardCharsets.UTF_8))
					.body()
					.getBytes(StandardCharsets.UTF_8))
				.at("/series/0/id")
				.asString();
			paths.addAll(List.of("/api/series/" + seriesId, "/api/alerts?series=" + seriesId, "/series/" + seriesId));
			int total = TestUploads.tree(original.get("/api/runs?size=1").body().getBytes(StandardCharsets.UTF_8))
				.get("total")
				.asInt();
			for (int page = 0; page * 200 < total; page++) {
				paths.add("/api/runs?size=200&page=" + page);
			}
			for (String path : paths) {
				Answer before = path.startsWith("/api/") ? original.get(path) : original.page(path);
				Answer after = path.startsWith("/api/") ? restored.get(path) : restored.page(path);
				assertThat(before.status()).as("GET %s on the original", path).isEqualTo(200);
				assertThat(normalise(after.body(), restoredInstance.baseUrl())).as("GET %s", path)
					.isEqualTo(normalise(before.body(), "http://localhost:" + port));
			}
			JsonNode plan = TestUploads.tree(restored.get("/api/compare/" + reference + "..." + c + "/control")
				.body()
				.getBytes(StandardCharsets.UTF_8));
			assertThat(plan.get("controls").valueStream().map(control -> control.get("run").asString()))
				.as("the controls declared for %s...%s after the restore", reference, c)
				.contains(e);
			assertThat(restoredInstance.jdbc()
				.sql("""
						select declared_in || ' ' || declared_by || ' ' || declared_at from control_link
						where control_id = ? and baseline_id = ? and contender_id = ?""")
				.params(e, reference, c)
				.query(String.class)
				.single())
				.as("the declaration's author and time")
				.isEqualTo(jdbc.sql("""
						select declared_in || ' ' || declared_by || ' ' || declared_at from control_link
						where control_id = ? and baseline_id = ? and contender_id = ?""")
					.params(e, reference, c)
					.query(String.class)
					.single());
			String restoredRun = restored.get("/api/runs/" + c).body();
			assertThat(TestUploads.tree(restoredRun.getBytes(StandardCharsets.UTF_8))
				.at("/retraction/replacement")
				.asString()).isEqualTo("/runs/" + e);

			// A second restore, into an instance that now holds a record, is refused and
			// changes nothing.
			Answer again = restored.restore(backup);
			assertThat(again.status()).isEqualTo(409);
			assertThat(again.body()).contains("this instance is not empty").contains("never merged");
			assertThat(original.restore(backup).status()).isEqualTo(409);

			// The restored instance goes on: new uploads and records take new ids, the
			// same bytes the same run.
			assertThat(restored.upload(TestUploads.fresh("run-d-effort-off.json")).status()).isEqualTo(201);
			Answer same = restored.upload(Fixtures.seedStoryBytes("run-e-control.json"));
			assertThat(same.status()).isEqualTo(200);
			assertThat(same.body()).contains("\"" + e + "\"");
		}
	}

	@Test
	void aDamagedArchiveOrSomethingElseIsRefusedWithAReason() throws Exception {
		TestUploads.upload(mvc, "reference.json");
		byte[] backup = mvc.perform(get("/admin/backup").with(httpBasic(USER, PASSWORD)))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray();
		ApiClient client = new ApiClient("http://localhost:" + port);

		Answer damaged = client.restore(withOneByteChanged(backup, "/files/0"));
		assertThat(damaged.status()).as(damaged.toString()).isEqualTo(400);
		assertThat(damaged.body()).contains("damaged archive").contains("does not match its size and SHA-256");
		Answer notAZip = client.restore("{\"format\":\"benchmark-run/1\"}".getBytes(StandardCharsets.UTF_8));
		assertThat(notAZip.status()).isEqualTo(400);
		assertThat(notAZip.body()).contains("not a zip archive");
		Answer notABackup = client.restore(zip("results/run=0.json", "{}".getBytes(StandardCharsets.UTF_8)));
		assertThat(notABackup.status()).isEqualTo(400);
		assertThat(notABackup.body()).contains("not a Parity backup");
	}

	@Test
	void onlyAnAdministratorBacksUpOrRestores() throws Exception {
		mvc.perform(get("/admin/backup")).andExpect(status().isUnauthorized());
		mvc.perform(get("/admin/restore").accept(MediaType.TEXT_HTML)).andExpect(status().is3xxRedirection());
		assertThat(new ApiClient("http://localhost:" + port, "nobody", "wrong").restore(new byte[] { 'P', 'K', 3, 4 })
			.status()).isEqualTo(401);
		TestAccounts.uploader(jdbc);
		mvc.perform(get("/admin/backup").with(httpBasic(TestAccounts.UPLOADER, TestAccounts.PASSWORD)))
			.andExpect(status().isForbidden());
		Answer restore = new ApiClient("http://localhost:" + port, TestAccounts.UPLOADER, TestAccounts.PASSWORD)
			.restore(new byte[] { 'P', 'K', 3, 4 });
		assertThat(restore.status()).isEqualTo(403);
		assertThat(mvc.perform(get("/admin/restore").with(httpBasic(USER, PASSWORD)))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString()).contains("Download a backup").contains("Restore");
	}

	/**
	 * What differs between two servers answering the same: their address, and when a live
	 * comparison was computed.
	 */
	private static String normalise(String body, String baseUrl) {
		return body.replace(baseUrl, "http://server")
			.replaceAll("\"computed_at\":\"[^\"]*\"", "\"computed_at\":\"(now)\"")
			.replaceAll("name=\"_csrf\" value=\"[^\"]*\"", "name=\"_csrf\"");
	}

	private MvcResult form(String path, String... params) throws Exception {
		var request = post(path).with(httpBasic(USER, PASSWORD)).with(csrf());
		for (int i = 0; i < params.length; i += 2) {
			request.param(params[i], params[i + 1]);
		}
		return mvc.perform(request).andExpect(status().is3xxRedirection()).andReturn();
	}

	private static String caveatId(MvcResult result) {
		String location = result.getResponse().getRedirectedUrl();
		return location.substring(location.indexOf("#caveat-") + "#caveat-".length());
	}

	private static String publicationId(MvcResult result) {
		return result.getResponse().getRedirectedUrl().substring("/published/".length());
	}

	private static byte[] withOneByteChanged(byte[] archive, String entrySuffix) throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		boolean changed = false;
		try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(archive));
				ZipOutputStream zip = new ZipOutputStream(out)) {
			for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
				byte[] content = in.readAllBytes();
				if (!changed && entry.getName().endsWith(entrySuffix) && content.length > 0) {
					content[content.length / 2] ^= 0x20;
					changed = true;
				}
				zip.putNextEntry(new ZipEntry(entry.getName()));
				zip.write(content);
				zip.closeEntry();
			}
		}
		assertThat(changed).as("an entry ending in %s", entrySuffix).isTrue();
		return out.toByteArray();
	}

	private static byte[] zip(String name, byte[] content) throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		try (ZipOutputStream zip = new ZipOutputStream(out)) {
			zip.putNextEntry(new ZipEntry(name));
			zip.write(content);
			zip.closeEntry();
		}
		return out.toByteArray();
	}

}
