package dev.parity.reliability;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.parity.Fixtures;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.TestUploads.RowCounts;
import dev.parity.reliability.ApiClient.Answer;
import dev.parity.run.Sha256;
import dev.parity.system.SchemaOwner;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Eight clients post 500 documents at once over real HTTP, a fifth of them byte-for-byte
 * duplicates of others (sent at the same moment as their original) and a fifth invalid:
 * exactly the unique valid documents are stored, every copy of one document gets the same
 * run, invalid ones get 400, nothing gets a 500. On one server, and on two servers
 * sharing one PostgreSQL.
 */
@ParityTest
class ConcurrentUploadsTests {

	private static final int CLIENTS = 8;

	private static final int UNIQUE = 300;

	private static final int DUPLICATES = 100;

	private static final int INVALID = 100;

	@Autowired
	JdbcClient jdbc;

	@LocalServerPort
	int port;

	@Autowired
	SchemaOwner owner;

	@BeforeEach
	void createTheUploader() {
		TestAccounts.uploader(jdbc);
	}

	@Test
	void eightClientsStoreExactlyTheUniqueValidDocuments() throws Exception {
		uploadConcurrently(List.of("http://localhost:" + port), 1);
	}

	@Test
	void twoServersOnOnePostgresStoreExactlyTheUniqueValidDocuments() throws Exception {
		try (AppInstance second = AppInstance.startBeside(owner)) {
			uploadConcurrently(List.of("http://localhost:" + port, second.baseUrl()), 2);
		}
	}

	/** One document to send, what it is, and the answer it got. */
	private static final class Upload {

		final byte[] bytes;

		final boolean valid;

		volatile Answer answer;

		Upload(byte[] bytes, boolean valid) {
			this.bytes = bytes;
			this.valid = valid;
		}

	}

	private void uploadConcurrently(List<String> servers, long seed) throws Exception {
		Random random = new Random(seed);
		List<Upload> uploads = uploads(random);
		RowCounts before = TestUploads.rows(jdbc);

		ConcurrentLinkedQueue<Upload> queue = new ConcurrentLinkedQueue<>(uploads);
		ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
		List<Future<?>> running = new ArrayList<>();
		for (int c = 0; c < CLIENTS; c++) {
			ApiClient client = new ApiClient(servers.get(c % servers.size()), TestAccounts.UPLOADER,
					TestAccounts.PASSWORD);
			running.add(clients.submit(() -> {
				for (Upload upload = queue.poll(); upload != null; upload = queue.poll()) {
					upload.answer = client.upload(upload.bytes);
				}
			}));
		}
		for (Future<?> future : running) {
			future.get();
		}
		clients.shutdown();

		Map<String, List<Upload>> bySha = new HashMap<>();
		for (Upload upload : uploads) {
			if (upload.valid) {
				assertThat(upload.answer.status()).as("answer to a valid document: %s", upload.answer).isIn(200, 201);
				bySha.computeIfAbsent(Sha256.hex(upload.bytes), sha -> new ArrayList<>()).add(upload);
			}
			else {
				assertThat(upload.answer.status()).as("answer to an invalid document: %s", upload.answer)
					.isEqualTo(400);
			}
		}
		assertThat(bySha).hasSize(UNIQUE);
		long cells = 0;
		for (Map.Entry<String, List<Upload>> copies : bySha.entrySet()) {
			Set<String> ids = new HashSet<>();
			int created = 0;
			for (Upload copy : copies.getValue()) {
				ids.add(TestUploads.tree(copy.answer.body().getBytes(StandardCharsets.UTF_8)).get("id").asString());
				created += copy.answer.status() == 201 ? 1 : 0;
			}
			assertThat(ids).as("runs of one document sent %d times", copies.getValue().size()).hasSize(1);
			assertThat(created).as("201s among %d copies of one document", copies.getValue().size()).isEqualTo(1);
			assertThat(jdbc.sql("select id from run where upload_sha256 = ?")
				.param(copies.getKey())
				.query(String.class)
				.list()).containsExactlyElementsOf(ids);
			cells += TestUploads.tree(copies.getValue().get(0).bytes).get("cells").size();
		}
		assertThat(TestUploads.rows(jdbc))
			.isEqualTo(new RowCounts(before.runs() + UNIQUE, before.cells() + cells, before.files() + UNIQUE));
	}

	/**
	 * 300 new valid documents, 100 copies of 50 of them (each copy next to its original,
	 * so that several clients send one document at the same moment), and 100 invalid
	 * documents, in a shuffled order otherwise.
	 */
	private static List<Upload> uploads(Random random) {
		List<String> fixtures = Fixtures.seedStoryNames();
		List<byte[]> unique = new ArrayList<>();
		for (int i = 0; i < UNIQUE; i++) {
			unique.add(TestUploads.fresh(fixtures.get(i % fixtures.size())));
		}
		List<List<Upload>> groups = new ArrayList<>();
		for (int i = 0; i < UNIQUE; i++) {
			List<Upload> group = new ArrayList<>(List.of(new Upload(unique.get(i), true)));
			if (i < DUPLICATES / 2) {
				group.add(new Upload(unique.get(i).clone(), true));
				group.add(new Upload(unique.get(i).clone(), true));
			}
			groups.add(group);
		}
		for (int i = 0; i < INVALID; i++) {
			groups.add(List.of(new Upload(invalid(TestUploads.fresh(fixtures.get(i % fixtures.size())), i), false)));
		}
		Collections.shuffle(groups, random);
		List<Upload> uploads = new ArrayList<>();
		groups.forEach(uploads::addAll);
		assertThat(uploads).hasSize(UNIQUE + DUPLICATES + INVALID);
		return uploads;
	}

	/** A valid document broken in one of five ways. */
	private static byte[] invalid(byte[] valid, int way) {
		ObjectNode document = (ObjectNode) TestUploads.tree(valid);
		switch (way % 5) {
			case 0 -> document.remove("title");
			case 1 -> document.put("format", "benchmark-run/2");
			case 2 -> document.putArray("cells");
			case 3 -> ((ObjectNode) document.get("cells").get(0).get("requests")).put("failed", -1);
			default -> {
				byte[] truncated = new byte[valid.length / 2];
				System.arraycopy(valid, 0, truncated, 0, truncated.length);
				return truncated;
			}
		}
		return document.toString().getBytes(StandardCharsets.UTF_8);
	}

}
