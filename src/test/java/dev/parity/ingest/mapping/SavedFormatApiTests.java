package dev.parity.ingest.mapping;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

import dev.parity.Fixtures;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.system.SchemaOwner;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockMultipartHttpServletRequestBuilder;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.multipart;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Saved formats through the API: created, listed, versioned, used by name and
 * name@version and by detection (never for a known harness's file), and every kind of bad
 * mapping refused naming its key, with nothing saved.
 */
@ParityTest
class SavedFormatApiTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	SchemaOwner owner;

	/**
	 * The lab-bench mapping under a name and a detect path of this test's own
	 * (the database is shared).
	 */
	private static ObjectNode mapping(String name) throws Exception {
		ObjectNode mapping = (ObjectNode) JSON.readTree(resource("lab-bench-mapping.json"));
		mapping.put("name", name);
		mapping.putArray("detect").add("$.cases[*].requests").add("$.base_url").add("$.rig_" + key(name));
		return mapping;
	}

	/**
	 * The lab-bench file with this test's own field, so only this test's format detects
	 * it.
	 */
	private static byte[] labBench(String name) throws Exception {
		ObjectNode file = (ObjectNode) JSON.readTree(resource("lab-bench-run.json"));
		file.put("rig_" + key(name), "bench-7");
		return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(file);
	}

	private static String key(String name) {
		return name.replaceAll("[^a-z0-9]", "_");
	}

	private static byte[] resource(String name) throws Exception {
		return Files.readAllBytes(Path.of("src/test/resources/mapping", name));
	}

	private static String unique(String prefix) {
		return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
	}

	private MvcResult save(String mapping, int expected) throws Exception {
		MvcResult result = mvc
			.perform(post("/api/formats").contentType(MediaType.APPLICATION_JSON)
				.content(mapping)
				.with(httpBasic(USER, PASSWORD)))
			.andReturn();
		assertThat(result.getResponse().getStatus()).as(result.getResponse().getContentAsString()).isEqualTo(expected);
		return result;
	}

	private JsonNode body(MvcResult result) throws Exception {
		return TestUploads.tree(result.getResponse().getContentAsByteArray());
	}

	@Test
	void aFormatIsCreatedListedForEveryoneAndEveryChangeIsANewVersion() throws Exception {
		String name = unique("lab-bench");
		ObjectNode mapping = mapping(name);
		JsonNode created = body(save(mapping.toString(), 201));
		assertThat(created.get("name").asString()).isEqualTo(name);
		assertThat(created.get("version").asInt()).isEqualTo(1);
		assertThat(body(save(mapping.toString(), 200)).get("version").asInt()).as("unchanged: no new version")
			.isEqualTo(1);
		((ObjectNode) mapping.get("metrics")).putObject("e2e_latency_s")
			.put("path", "$.median_e2e_ms")
			.put("unit", "ms");
		assertThat(body(save(mapping.toString(), 201)).get("version").asInt()).isEqualTo(2);

		JsonNode list = TestUploads.tree(mvc.perform(get("/api/formats"))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
		JsonNode listed = list.get("formats")
			.valueStream()
			.filter(f -> f.get("name").asString().equals(name))
			.findFirst()
			.orElseThrow();
		assertThat(listed.get("version").asInt()).isEqualTo(2);
		JsonNode one = TestUploads.tree(mvc.perform(get("/api/formats/{name}", name))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
		assertThat(one.get("versions").findValuesAsString("created_by")).hasSize(2);
		assertThat(one.get("mapping").get("metrics").has("e2e_latency_s")).isTrue();
		JsonNode first = TestUploads.tree(mvc.perform(get("/api/formats/{name}", name + "@1"))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
		assertThat(first.get("mapping").get("metrics").has("e2e_latency_s")).isFalse();
		mvc.perform(get("/api/formats/{name}", unique("no-such-format"))).andExpect(status().isNotFound());
		// a version, once saved, never changes: not even the schema's owner may rewrite
		// it
		Assertions
			.assertThatThrownBy(() -> JdbcClient.create(owner.dataSource())
				.sql("update saved_format set mapping = '{}' where name = ?")
				.param(name)
				.update())
			.rootCause()
			.hasMessageContaining("append-only");
	}

	/**
	 * Issue 23, finding 9: a format belongs to whoever made it. Another uploader cannot
	 * add a version to it (403 naming the rule, nothing saved); its maker and an admin
	 * can.
	 */
	@Test
	void anotherUploaderCannotAddAVersionToSomebodyElsesFormat() throws Exception {
		String maker = unique("maker");
		String other = unique("other");
		String secret = "ochre-lantern-walrus-93";
		for (String user : new String[] { maker, other }) {
			mvc.perform(post("/admin/users").param("username", user)
				.param("password", secret)
				.param("role", "uploader")
				.with(httpBasic(USER, PASSWORD))
				.with(csrf())).andExpect(status().is3xxRedirection());
		}
		String name = unique("team-format");
		ObjectNode mapping = mapping(name);
		mvc.perform(post("/api/formats").contentType(MediaType.APPLICATION_JSON)
			.content(mapping.toString())
			.with(httpBasic(maker, secret))).andExpect(status().isCreated());
		((ObjectNode) mapping.get("metrics").get("ttft_s")).put("unit", "ms");
		MvcResult refused = mvc
			.perform(post("/api/formats").contentType(MediaType.APPLICATION_JSON)
				.content(mapping.toString())
				.with(httpBasic(other, secret)))
			.andReturn();
		assertThat(refused.getResponse().getStatus()).isEqualTo(403);
		assertThat(refused.getResponse().getContentAsString()).contains("belongs to " + maker).contains("another name");
		MockMultipartHttpServletRequestBuilder multipart = multipart("/api/formats");
		multipart.param("mapping", mapping.toString());
		assertThat(mvc.perform(multipart.with(httpBasic(other, secret))).andReturn().getResponse().getStatus())
			.isEqualTo(403);
		assertThat(jdbc.sql("select count(*) from saved_format where name = ?").param(name).query(Long.class).single())
			.as("nothing saved")
			.isEqualTo(1);
		// Its maker and an admin may.
		mvc.perform(post("/api/formats").contentType(MediaType.APPLICATION_JSON)
			.content(mapping.toString())
			.with(httpBasic(maker, secret))).andExpect(status().isCreated());
		((ObjectNode) mapping.get("metrics").get("ttft_s")).put("unit", "s");
		save(mapping.toString(), 201);
		assertThat(jdbc.sql("select count(*) from saved_format where name = ?").param(name).query(Long.class).single())
			.isEqualTo(3);
	}

	@Test
	void aFileIsImportedByNameAndByNameAtVersionAndKeepsTheVersionThatReadIt() throws Exception {
		String name = unique("lab-bench");
		ObjectNode mapping = mapping(name);
		save(mapping.toString(), 201);
		// version 2 says the file writes TTFT in ms (it does not): its values come out
		// 1,000 times smaller
		((ObjectNode) mapping.get("metrics").get("ttft_s")).put("unit", "ms");
		save(mapping.toString(), 201);
		byte[] file = labBench(name);

		String v1 = importRun(file, name + "@1", 201);
		JsonNode run = run(v1);
		assertThat(run.get("cells")).hasSize(4);
		JsonNode cell = cell(run, 8192, 4);
		assertThat(cell.get("requests").get("completed").asInt()).isEqualTo(4);
		assertThat(cell.get("requests").get("cancelled").asInt()).isEqualTo(2);
		assertThat(cell.get("requests").get("failed").asInt()).isZero();
		JsonNode small = cell(run, 1024, 1);
		assertThat(small.get("metrics").get("ttft_s").asDouble()).isCloseTo(0.0522, within(1e-9));
		assertThat(small.get("params").get("prompt_tokens").asInt()).isEqualTo(1024);
		assertThat(run.get("files").findValuesAsString("name")).contains("parity-format-" + name + "@1.json");
		assertThat(jdbc.sql("select detail from audit_event where action = 'import-run' and subject = ?")
			.param(v1)
			.query(String.class)
			.single()).contains(name + "@1:");

		String latest = importRun(file, name, 201);
		assertThat(cell(run(latest), 1024, 1).get("metrics").get("ttft_s").asDouble()).isCloseTo(0.0000522,
				within(1e-12));
		assertThat(run(latest).get("files").findValuesAsString("name")).contains("parity-format-" + name + "@2.json");

		// a new version changes no stored run
		JsonNode before = run(v1);
		((ObjectNode) mapping.get("params")).put("concurrency", "$.target_prompt_tokens");
		save(mapping.toString(), 201);
		assertThat(run(v1).get("cells")).isEqualTo(before.get("cells"));

		String unknownVersion = importResponse(file, name + "@9", 400);
		assertThat(unknownVersion).contains("\"path\":\"format\"").contains("no version 9");
		String unknown = importResponse(file, unique("nobody"), 400);
		assertThat(unknown).contains("\"path\":\"format\"").contains("unknown format");
	}

	@Test
	void detectionOffersASavedFormatOnlyForFilesNoBuiltInFormatReads() throws Exception {
		String name = unique("lab-bench");
		save(mapping(name).toString(), 201);
		String id = importRun(labBench(name), null, 201);
		assertThat(jdbc.sql("select detail from audit_event where action = 'import-run' and subject = ?")
			.param(id)
			.query(String.class)
			.single()).contains(name + "@1:");

		// a saved format whose detect paths are all in a vLLM file: the file is still
		// read as vLLM's
		String greedy = unique("greedy");
		ObjectNode vllmLike = JSON.createObjectNode();
		vllmLike.put("name", greedy);
		vllmLike.putArray("detect").add("$.date").add("$.completed");
		vllmLike.put("cells", "$");
		vllmLike.putObject("params").put("concurrency", "$.max_concurrency");
		vllmLike.putObject("metrics").put("ttft_s", "$.median_ttft_ms");
		save(vllmLike.toString(), 201);
		String vllm = importRun(Fixtures.read(Fixtures.sample("vllm-bench-serve-detailed.json")), null, 201,
				"vllm-bench-serve-detailed.json");
		assertThat(jdbc.sql("select detail from audit_event where action = 'import-run' and subject = ?")
			.param(vllm)
			.query(String.class)
			.single()).startsWith("stored vllm:").doesNotContain(greedy);
	}

	@Test
	void aMappingWithItsSampleIsSavedAndOneThatReadsNothingOfItIsRefused() throws Exception {
		String name = unique("lab-bench");
		MockMultipartHttpServletRequestBuilder good = multipart("/api/formats");
		good.param("mapping", mapping(name).toString());
		good.file(new MockMultipartFile("sample", "lab-bench-run.json", "application/json", labBench(name)));
		MvcResult result = mvc.perform(good.with(httpBasic(USER, PASSWORD))).andReturn();
		assertThat(result.getResponse().getStatus()).as(result.getResponse().getContentAsString()).isEqualTo(201);

		String other = unique("lab-bench");
		ObjectNode wrong = mapping(other);
		((ObjectNode) wrong.get("metrics")).put("ttft_s", "$.ttft_median");
		((ObjectNode) wrong.get("metrics")).put("decode_tps", "$.tps");
		MockMultipartHttpServletRequestBuilder bad = multipart("/api/formats");
		bad.param("mapping", wrong.toString());
		bad.file(new MockMultipartFile("sample", "lab-bench-run.json", "application/json", labBench(other)));
		String refused = mvc.perform(bad.with(httpBasic(USER, PASSWORD)))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(refused).contains("\"path\":\"metrics.ttft_s\"")
			.contains("\"path\":\"metrics.decode_tps\"")
			.contains("reads nothing");
		assertThat(savedVersions(other)).isZero();
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', value = {
			"filter            | cells          | \"$.cases[?(@.concurrency > 1)]\"                | filters",
			"deep scan         | cells          | \"$..cases\"                                      | deep scan",
			"regex             | cells          | \"$.cases[?(@.name =~ /p.*/)]\"                  | regular expressions",
			"function          | params.concurrency | {\"concurrency\": \"$.requests.length()\"}    | functions",
			"slice             | cells          | \"$.cases[0:2]\"                                  | slices",
			"bad unit          | metrics.ttft_s.unit | {\"ttft_s\": {\"path\": \"$.x\", \"unit\": \"furlongs\"}} | unknown unit",
			"wrong unit        | metrics.ttft_s.unit | {\"ttft_s\": {\"path\": \"$.x\", \"unit\": \"tokens/s\"}} | cannot be converted",
			"unknown metric    | metrics.speed  | {\"speed\": \"$.x\"}                              | not a catalogue metric",
			"bad statistic     | metrics.ttft_s.p999x | {\"ttft_s\": {\"p999x\": \"$.x\"}}              | unknown key",
			"not a path        | params.concurrency | {\"concurrency\": 4}                          | must be a path",
			"no dollar         | params.concurrency | {\"concurrency\": \"concurrency\"}            | must start with $",
			"bad status        | samples.status.map.true | {\"path\": \"$.requests[*]\", \"status\": {\"path\": \"$.cancelled\", \"map\": {\"true\": \"aborted\"}}} | ok, failed or cancelled",
			"counts sans samples | requests.from_samples | {\"from_samples\": true}                   | no samples",
			"typo              | metric         | {\"ttft_s\": \"$.x\"}                              | unknown key",
			"builtin name      | name           | \"vllm\"                                          | built-in format",
			"sample list path  | samples.path   | {\"path\": \"$.requests\"}                        | list of requests" })
	void everyKindOfBadMappingIsRefusedNamingTheKeyAndNothingIsSaved(String what, String key, String value,
			String message) throws Exception {
		String name = unique("bad");
		ObjectNode mapping = JSON.createObjectNode();
		mapping.put("name", name);
		mapping.putArray("detect").add("$.cases[*]");
		mapping.put("cells", "$.cases[*]");
		mapping.putObject("params").put("concurrency", "$.concurrency");
		mapping.putObject("metrics").put("ttft_s", "$.median_ttft_s");
		String top = key.contains(".") ? key.substring(0, key.indexOf('.')) : key;
		mapping.set(top, JSON.readTree(value));
		long before = jdbc.sql("select count(*) from saved_format").query(Long.class).single();
		String body = save(mapping.toString(), 400).getResponse().getContentAsString();
		assertThat(body).contains("\"path\":\"" + key + "\"").contains(message);
		assertThat(jdbc.sql("select count(*) from saved_format").query(Long.class).single()).isEqualTo(before);
	}

	@Test
	void aMappingThatIsNotJsonOrNotAnObjectIsRefused() throws Exception {
		assertThat(save("{\"name\": ", 400).getResponse().getContentAsString()).contains("\"path\":\"mapping\"");
		assertThat(save("[1, 2]", 400).getResponse().getContentAsString()).contains("\"path\":\"mapping\"");
		String empty = save("{}", 400).getResponse().getContentAsString();
		assertThat(empty).contains("\"path\":\"name\"")
			.contains("\"path\":\"detect\"")
			.contains("\"path\":\"cells\"")
			.contains("\"path\":\"params\"");
	}

	private long savedVersions(String name) {
		return jdbc.sql("select count(*) from saved_format where name = ?").param(name).query(Long.class).single();
	}

	private static JsonNode cell(JsonNode run, int prompt, int concurrency) {
		return run.get("cells")
			.valueStream()
			.filter(c -> c.get("params").get("prompt_tokens").asInt() == prompt
					&& c.get("params").get("concurrency").asInt() == concurrency)
			.findFirst()
			.orElseThrow();
	}

	private String importRun(byte[] file, String format, int expected) throws Exception {
		return importRun(file, format, expected, "lab-bench-run.json");
	}

	private String importRun(byte[] file, String format, int expected, String fileName) throws Exception {
		MvcResult result = mvc.perform(importRequest(file, format, fileName)).andReturn();
		assertThat(result.getResponse().getStatus()).as(result.getResponse().getContentAsString()).isEqualTo(expected);
		return body(result).get("id").asString();
	}

	private String importResponse(byte[] file, String format, int expected) throws Exception {
		MvcResult result = mvc.perform(importRequest(file, format, "lab-bench-run.json")).andReturn();
		assertThat(result.getResponse().getStatus()).as(result.getResponse().getContentAsString()).isEqualTo(expected);
		return result.getResponse().getContentAsString(StandardCharsets.UTF_8);
	}

	private static MockMultipartHttpServletRequestBuilder importRequest(byte[] file, String format, String fileName) {
		MockMultipartHttpServletRequestBuilder request = multipart("/api/runs/import");
		request.file(new MockMultipartFile("files", fileName, "application/json", file));
		if (format != null) {
			request.param("format", format);
		}
		request.param("provenance", """
				{"title": "lab bench %s", "role": "measured", "system": {"name": "1x L40S"},
				 "model": {"repo": "our-org/chat-8b", "revision": "main"}, "engine": {"name": "vllm"},
				 "harness": {"name": "lab-bench.py"}, "workload": {}}""".formatted(UUID.randomUUID()));
		request.with(httpBasic(USER, PASSWORD));
		return request;
	}

	private JsonNode run(String id) throws Exception {
		return TestUploads.tree(mvc.perform(get("/api/runs/{id}", id))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
	}

}
