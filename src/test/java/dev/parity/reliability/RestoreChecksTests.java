package dev.parity.reliability;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.reliability.ApiClient.Answer;
import dev.parity.run.Sha256;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A restore believes nothing a backup claims without checking it: a forged or
 * inconsistent archive (a document changed with its checksums, counts that do not add up,
 * a reference to nothing, a malformed id) is refused with a 400 that names the problem,
 * and nothing of it is stored. A restore that succeeds is in the audit trail: who, from
 * which archive (its name and SHA-256), and what it held.
 */
@ParityTest
class RestoreChecksTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@LocalServerPort
	int port;

	@Test
	void aForgedOrInconsistentArchiveIsRefusedNamingTheProblemAndNothingIsStored() throws Exception {
		String id = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		byte[] backup = backup();
		ApiClient client = new ApiClient("http://localhost:" + port);
		TestUploads.RowCounts before = TestUploads.rows(jdbc);

		// The document rewritten, its size and SHA-256 in the manifest rewritten to
		// match: still not the run uploaded.
		byte[] forgedDocument = TestUploads.fresh("run-d-effort-off.json");
		Answer forged = client.restore(rewrite(backup, (manifest, entries) -> {
			JsonNode file = runEntry(manifest, id).get("files").get(0);
			((ObjectNode) file.get("row")).put("sha256", Sha256.hex(forgedDocument))
				.put("size_bytes", forgedDocument.length);
			entries.put(file.get("path").asString(), forgedDocument);
		}));
		assertThat(forged.status()).as(forged.toString()).isEqualTo(400);
		assertThat(forged.body())
			.contains("the document of run '" + id + "' does not hash to the run's upload SHA-256");

		Answer counts = client.restore(rewrite(backup, (manifest, entries) -> {
			ObjectNode claimed = (ObjectNode) manifest.get("counts");
			claimed.put("cells", claimed.get("cells").asLong() + 1);
		}));
		assertThat(counts.status()).as(counts.toString()).isEqualTo(400);
		assertThat(counts.body()).contains("the manifest counts").contains("cells, but the archive holds");

		Answer dangling = client.restore(rewrite(backup, (manifest, entries) -> {
			ObjectNode retraction = manifest.withArray("retractions").addObject();
			retraction.put("id", 999_999)
				.put("subject_kind", "run")
				.put("subject_id", "zzzzzzzzzz")
				.put("kind", "retracted")
				.put("reason", "forged")
				.put("created_by", USER)
				.put("created_at", "2026-01-01T00:00:00Z");
			ObjectNode claimed = (ObjectNode) manifest.get("counts");
			claimed.put("retractions", claimed.get("retractions").asLong() + 1);
		}));
		assertThat(dangling.status()).as(dangling.toString()).isEqualTo(400);
		assertThat(dangling.body())
			.contains("retraction 999999 refers to 'zzzzzzzzzz' (subject_id), which is not in the archive");

		Answer danglingControl = client.restore(rewrite(backup, (manifest, entries) -> {
			controlLink(manifest, "zzzzzzzzz1", "zzzzzzzzzz", id, id);
			ObjectNode claimed = (ObjectNode) manifest.get("counts");
			claimed.put("control_links", claimed.get("control_links").asLong() + 1);
		}));
		assertThat(danglingControl.status()).as(danglingControl.toString()).isEqualTo(400);
		assertThat(danglingControl.body())
			.contains("control link 'zzzzzzzzz1' refers to 'zzzzzzzzzz' (control_id), which is not in the archive");

		Answer badControlId = client.restore(rewrite(backup, (manifest, entries) -> {
			controlLink(manifest, "../x", id, id, id);
			ObjectNode claimed = (ObjectNode) manifest.get("counts");
			claimed.put("control_links", claimed.get("control_links").asLong() + 1);
		}));
		assertThat(badControlId.status()).as(badControlId.toString()).isEqualTo(400);
		assertThat(badControlId.body()).contains("a control link id '../x' is not an id");

		Answer twice = client.restore(rewrite(backup, (manifest, entries) -> {
			controlLink(manifest, "zzzzzzzzz2", id, id, id);
			controlLink(manifest, "zzzzzzzzz2", id, id, id);
			ObjectNode claimed = (ObjectNode) manifest.get("counts");
			claimed.put("control_links", claimed.get("control_links").asLong() + 2);
		}));
		assertThat(twice.status()).as(twice.toString()).isEqualTo(400);
		assertThat(twice.body()).contains("a control link 'zzzzzzzzz2' is in the archive twice");

		Answer controlCount = client.restore(rewrite(backup, (manifest, entries) -> {
			ObjectNode claimed = (ObjectNode) manifest.get("counts");
			claimed.put("control_links", claimed.get("control_links").asLong() + 1);
		}));
		assertThat(controlCount.status()).as(controlCount.toString()).isEqualTo(400);
		assertThat(controlCount.body()).contains("the manifest counts")
			.contains("control links, but the archive holds");

		Answer badId = client.restore(rewrite(backup,
				(manifest, entries) -> ((ObjectNode) runEntry(manifest, id).get("run")).put("id", "../../etc")));
		assertThat(badId.status()).as(badId.toString()).isEqualTo(400);
		assertThat(badId.body()).contains("a run id '../../etc' is not a run id");

		assertThat(TestUploads.rows(jdbc)).as("rows after the refused restores").isEqualTo(before);
		assertThat(jdbc.sql("select count(*) from audit_event where action = 'restore-backup' and outcome = 'done'")
			.query(Long.class)
			.single()).as("restores recorded as done").isZero();
	}

	@Test
	void aRestoreIsInTheAuditTrailWithWhoAndFromWhichArchive() throws Exception {
		TestUploads.upload(mvc, "reference.json");
		// As an archive made before control links were backed up: no list of them, no
		// count; it restores as it did.
		byte[] backup = rewrite(backup(), (manifest, entries) -> {
			manifest.remove("control_links");
			((ObjectNode) manifest.get("counts")).remove("control_links");
		});
		String claimedAuthor = JSON.readTree(entries(backup).get("manifest.json")).get("created_by").asString();
		try (AppInstance restored = AppInstance.startWithItsOwnDatabase()) {
			Answer answer = new ApiClient(restored.baseUrl()).restore(backup, "parity-backup-20261201.zip");
			assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
			JsonNode counts = JSON.readTree(answer.body()).get("restored");
			Map<String, Object> entry = restored.jdbc()
				.sql("select username, subject, detail from audit_event where action = 'restore-backup' and outcome = 'done'")
				.query()
				.singleRow();
			assertThat(entry.get("username")).isEqualTo(USER);
			assertThat(entry.get("subject")).isEqualTo("parity-backup-20261201.zip");
			assertThat((String) entry.get("detail")).contains("SHA-256 " + Sha256.hex(backup))
				.contains("by " + claimedAuthor)
				.contains(counts.get("runs").asLong() + " runs")
				.contains(counts.get("cells").asLong() + " cells");
			// The record's own authors and dates are kept: the uploads are still the
			// uploader's, not the restorer's.
			assertThat(restored.jdbc()
				.sql("select count(*) from run where uploaded_by <> ?")
				.param(USER)
				.query(Long.class)
				.single())
				.isEqualTo(jdbc.sql("select count(*) from run where uploaded_by <> ?")
					.param(USER)
					.query(Long.class)
					.single());
		}
	}

	@Test
	void anEntryOfNineHundredMebibytesOfZerosIsRefusedNamingTheLimitAndTheServerKeepsAnswering() throws Exception {
		String id = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		byte[] backup = backup();
		ApiClient client = new ApiClient("http://localhost:" + port);
		TestUploads.RowCounts before = TestUploads.rows(jdbc);
		long limit = Math.min(1L << 30, Runtime.getRuntime().maxMemory() / 8);
		long zeros = Math.max(900L << 20, limit + (1 << 20));
		String path = runEntry(JSON.readTree(entries(backup).get("manifest.json")), id).get("files")
			.get(0)
			.get("path")
			.asString();

		// The manifest declares the size: refused before a byte of the entry is read.
		byte[] declared = withZeros(rewrite(backup,
				(manifest, entries) -> ((ObjectNode) runEntry(manifest, id).get("files").get(0).get("row"))
					.put("size_bytes", zeros)),
				path, zeros);
		assertThat(declared.length).isLessThan(16 << 20);
		Answer refused = client.restore(declared);
		assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
		assertThat(refused.body()).contains("the archive's " + path + " is " + zeros + " bytes")
			.contains("a restore reads entries of at most " + (limit >> 20) + " MiB");
		assertThat(client.get("/actuator/health").status()).isEqualTo(200);

		// The manifest keeps the document's size: the zeros are refused once more than
		// that has been inflated.
		Answer lying = client.restore(withZeros(backup, path, zeros));
		assertThat(lying.status()).as(lying.toString()).isEqualTo(400);
		assertThat(lying.body()).contains(path + " does not match its size and SHA-256 in the manifest");
		assertThat(client.get("/actuator/health").status()).isEqualTo(200);

		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
	}

	/**
	 * The archive with one entry replaced by {@code size} zeros, deflated as the archive
	 * is written.
	 */
	private static byte[] withZeros(byte[] archive, String path, long size) throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		try (ZipOutputStream zip = new ZipOutputStream(out)) {
			zip.setLevel(1);
			for (Map.Entry<String, byte[]> entry : entries(archive).entrySet()) {
				zip.putNextEntry(new ZipEntry(entry.getKey()));
				if (entry.getKey().equals(path)) {
					byte[] chunk = new byte[1 << 20];
					for (long written = 0; written < size; written += chunk.length) {
						zip.write(chunk, 0, (int) Math.min(chunk.length, size - written));
					}
				}
				else {
					zip.write(entry.getValue());
				}
				zip.closeEntry();
			}
		}
		return out.toByteArray();
	}

	private byte[] backup() throws Exception {
		return mvc.perform(get("/admin/backup").with(httpBasic(USER, PASSWORD)))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray();
	}

	/** Adds a control link to the manifest (its count left as it was). */
	private static void controlLink(ObjectNode manifest, String id, String control, String baseline, String contender) {
		manifest.withArray("control_links")
			.addObject()
			.put("id", id)
			.put("control_id", control)
			.put("baseline_id", baseline)
			.put("contender_id", contender)
			.put("declared_in", "api")
			.put("declared_by", USER)
			.put("declared_at", "2026-01-01T00:00:00Z");
	}

	private static JsonNode runEntry(JsonNode manifest, String id) {
		for (JsonNode run : manifest.get("runs")) {
			if (run.at("/run/id").asString().equals(id)) {
				return run;
			}
		}
		throw new AssertionError("run " + id + " is not in the backup");
	}

	/** The archive with its manifest (and any entries) changed. */
	private static byte[] rewrite(byte[] archive, BiConsumer<ObjectNode, Map<String, byte[]>> change)
			throws IOException {
		Map<String, byte[]> entries = entries(archive);
		ObjectNode manifest = (ObjectNode) JSON.readTree(entries.get("manifest.json"));
		change.accept(manifest, entries);
		entries.put("manifest.json", JSON.writeValueAsBytes(manifest));
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		try (ZipOutputStream zip = new ZipOutputStream(out)) {
			for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
				zip.putNextEntry(new ZipEntry(entry.getKey()));
				zip.write(entry.getValue());
				zip.closeEntry();
			}
		}
		return out.toByteArray();
	}

	private static Map<String, byte[]> entries(byte[] archive) throws IOException {
		Map<String, byte[]> entries = new LinkedHashMap<>();
		try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(archive))) {
			for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
				entries.put(entry.getName(), in.readAllBytes());
			}
		}
		return entries;
	}

}
