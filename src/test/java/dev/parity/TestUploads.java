package dev.parity;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.parity.run.BootstrapJobs;
import dev.parity.run.RunId;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Uploads through the API as the test administrator, and counts what the run tables hold.
 */
public final class TestUploads {

	public static final String USER = "test-admin";

	public static final String PASSWORD = "lantern-quay-secret-5";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private TestUploads() {
	}

	/**
	 * Uploads a seed-story fixture (or finds it stored already) and returns its run id.
	 */
	public static String upload(MockMvc mvc, String fixture) throws Exception {
		return upload(mvc, Fixtures.seedStoryBytes(fixture));
	}

	public static String upload(MockMvc mvc, byte[] document) throws Exception {
		MvcResult result = mvc
			.perform(post("/api/runs").with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content(document))
			.andReturn();
		int status = result.getResponse().getStatus();
		if (status != 200 && status != 201) {
			throw new AssertionError("upload answered " + status + ": " + result.getResponse().getContentAsString());
		}
		String id = JSON.readTree(result.getResponse().getContentAsString()).get("id").asString();
		// Its bootstrap medians are computed after the upload (BootstrapJobs): tests see
		// the run as it settles.
		mvc.getDispatcherServlet().getWebApplicationContext().getBean(BootstrapJobs.class).complete(new RunId(id));
		return id;
	}

	/**
	 * A fixture with a title made unique, so that it is new to the database whatever ran
	 * before.
	 */
	public static byte[] fresh(String fixture) {
		ObjectNode document = (ObjectNode) JSON.readTree(Fixtures.seedStoryBytes(fixture));
		document.put("title", document.get("title").asString() + " " + UUID.randomUUID().toString().substring(0, 8));
		return JSON.writeValueAsBytes(document);
	}

	public static JsonNode tree(byte[] bytes) {
		return JSON.readTree(bytes);
	}

	/** Uploads these documents in order and returns their run ids. */
	public static List<String> uploadAll(MockMvc mvc, List<? extends JsonNode> documents) throws Exception {
		List<String> ids = new ArrayList<>();
		for (JsonNode document : documents) {
			ids.add(upload(mvc, JSON.writeValueAsBytes(document)));
		}
		return ids;
	}

	/** The JSON an anonymous GET of this URL answers, which must be 200. */
	public static JsonNode getJson(MockMvc mvc, String url) throws Exception {
		return tree(mvc.perform(get(url)).andExpect(status().isOk()).andReturn().getResponse().getContentAsByteArray());
	}

	/** How many rows the run tables hold: (runs, cells, files). */
	/**
	 * The upload SHA-256 of a run copied in SQL (an SQL expression, from the SQL
	 * expression of its id): the hash of the document {@link #copyFiles} gives it, so
	 * that a backup of the shared test database stays consistent.
	 */
	public static String copiedSha256(String idExpression) {
		return "encode(sha256(" + copiedDocument(idExpression) + "), 'hex')";
	}

	/**
	 * Gives runs copied in SQL their uploaded document (a placeholder whose SHA-256 is
	 * {@link #copiedSha256}): every run has one, and a backup of the test database checks
	 * it.
	 * @param from the rest of the select that yields the copies' ids, e.g.
	 * {@code from generate_series(1, 100) g}
	 */
	public static void copyFiles(JdbcClient jdbc, String idExpression, String from, Object... params) {
		String document = copiedDocument(idExpression);
		jdbc.sql("insert into run_file (run_id, position, file_name, media_type, sha256, size_bytes, content) select "
				+ idExpression + ", 0, 'copied.json', 'application/json', " + copiedSha256(idExpression)
				+ ", octet_length(" + document + "), " + document + " " + from)
			.params(params)
			.update();
	}

	/**
	 * Copies a stored run's row under another id in SQL, as a restore or a run stored
	 * before a migration has it: the row alone, without its cells or files
	 * ({@link #copyFiles} gives it its document).
	 */
	public static void copyRunRow(JdbcClient jdbc, String from, String to) {
		jdbc.sql("""
				insert into run select (jsonb_populate_record(null::run, to_jsonb(r)
				    || jsonb_build_object('id', ?::text, 'upload_sha256', %s))).*
				from run r where r.id = ?""".formatted(copiedSha256("?::text"))).params(to, to, from).update();
	}

	private static String copiedDocument(String idExpression) {
		return "convert_to('a run copied in SQL: ' || " + idExpression + ", 'UTF8')";
	}

	public static RowCounts rows(JdbcClient jdbc) {
		return new RowCounts(count(jdbc, "run"), count(jdbc, "cell"), count(jdbc, "run_file"));
	}

	private static long count(JdbcClient jdbc, String table) {
		return jdbc.sql("select count(*) from " + table).query(Long.class).single();
	}

	/** Row counts of the run tables. */
	public record RowCounts(long runs, long cells, long files) {
	}

}
