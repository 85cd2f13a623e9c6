package dev.parity.ingest.web;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.parity.Fixtures;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.multipart;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The import page does not shout: a file that is not a benchmark's output is named for
 * what it is (an image, cut-off JSON, an empty or binary file) instead of being offered a
 * format description; the first preview lists what is still to fill in rather than
 * errors; the format editor renames params, reads provenance from top-level fields, never
 * claims an unsaved version, and the import page says which saved format read the file.
 */
@ParityTest
class ImportWithoutShoutingTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String PROVENANCE = """
			{"title": "t %s", "role": "measured", "system": {"name": "1x L40S"},
			 "model": {"repo": "our-org/chat-8b", "revision": "main"}, "engine": {"name": "vllm"},
			 "harness": {"name": "lab-bench.py"}, "workload": {}}""";

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	static Stream<Arguments> notBenchmarks() {
		byte[] png = { (byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 'I', 'H', 'D', 'R' };
		byte[] jpeg = { (byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 0, 16, 'J', 'F', 'I', 'F', 0 };
		byte[] binary = new byte[256];
		for (int i = 0; i < binary.length; i++) {
			binary[i] = (byte) (255 - i);
		}
		String cut = "{\"results\": [{\"concurrency\": 1, \"ttft\": 0.05}, {\"concurrency\": 4, \"tt";
		return Stream.of(Arguments.of("chart.png", png, "chart.png is a PNG image, not a benchmark"),
				Arguments.of("photo.jpg", jpeg, "photo.jpg is a JPEG image"),
				Arguments.of("anim.gif", "GIF89a\u0001\u0000".getBytes(StandardCharsets.ISO_8859_1),
						"anim.gif is a GIF image"),
				Arguments.of("paper.pdf", "%PDF-1.7\n%\u00e2\u00e3\n1 0 obj".getBytes(StandardCharsets.ISO_8859_1),
						"paper.pdf is a PDF document"),
				Arguments.of("cut.json", cut.getBytes(StandardCharsets.UTF_8),
						"cut.json is JSON that ends at byte " + cut.length() + " before its value is complete"),
				Arguments.of("broken.json", "{\"a\": 1,, \"b\": 2}".getBytes(StandardCharsets.UTF_8),
						"broken.json is not valid JSON: it breaks at byte 9"),
				Arguments.of("blank.json", "  \n\n ".getBytes(StandardCharsets.UTF_8),
						"blank.json holds only blank space"),
				Arguments.of("dump.bin", binary, "dump.bin is a binary file, not text"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("notBenchmarks")
	void aFileThatIsNotABenchmarksOutputIsNamedForWhatItIs(String name, byte[] content, String said) throws Exception {
		TestUploads.RowCounts before = TestUploads.rows(jdbc);
		MvcResult api = mvc
			.perform(multipart("/api/runs/import").file(new MockMultipartFile("files", name, null, content))
				.param("provenance", PROVENANCE.formatted(UUID.randomUUID()))
				.with(httpBasic(USER, PASSWORD)))
			.andReturn();
		assertThat(api.getResponse().getStatus()).isEqualTo(400);
		assertThat(api.getResponse().getContentAsString(StandardCharsets.UTF_8)).contains("\"path\":\"files\"")
			.contains(said);

		String page = mvc
			.perform(multipart("/upload").file(new MockMultipartFile("file", name, null, content))
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(page).contains("id=\"not-a-benchmark\"")
			.contains(said)
			.doesNotContain("Describe this format")
			.contains("id=\"another-file\"")
			.contains("Pick another file");
		assertThat(TestUploads.rows(jdbc)).as("nothing stored").isEqualTo(before);
	}

	@Test
	void anEmptyFileIsNamedAsEmpty() throws Exception {
		TestUploads.RowCounts before = TestUploads.rows(jdbc);
		MvcResult api = mvc
			.perform(multipart("/api/runs/import").file(new MockMultipartFile("files", "run.json", null, new byte[0]))
				.param("provenance", PROVENANCE.formatted(UUID.randomUUID()))
				.with(httpBasic(USER, PASSWORD)))
			.andReturn();
		assertThat(api.getResponse().getStatus()).isEqualTo(400);
		assertThat(api.getResponse().getContentAsString()).contains("run.json is empty (0 bytes)");
		String page = mvc
			.perform(multipart("/upload").file(new MockMultipartFile("file", "run.json", null, new byte[0]))
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(page).contains("run.json is empty (0 bytes): choose another file");
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
	}

	@Test
	void theFirstPreviewListsWhatIsStillToFillInAndNoErrorsAndNeverAsksForWhatTheImporterFilled() throws Exception {
		byte[] sweep = Files.readAllBytes(Fixtures.sample("vllm-bench-sweep-run.json"));
		String page = mvc
			.perform(multipart("/upload").file(new MockMultipartFile("file", "sweep.json", null, sweep))
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(page).doesNotContain("id=\"problems\"")
			.doesNotContain("aria-invalid=\"true\"")
			.doesNotContain("class=\"field-error\"");
		String stillNeeded = between(page, "id=\"still-needed\"", "</p>");
		assertThat(stillNeeded).contains("Title")
			.contains("System name")
			.doesNotContain("Engine name")
			.doesNotContain("Harness name");
		assertThat(page).contains("name=\"engineName\"").containsPattern("name=\"engineName\" value=\"vllm\"");

		// Once the uploader acts (updates the preview or stores), what is missing is a
		// problem by its field.
		String token = token(page);
		String acted = mvc
			.perform(post("/upload/import").param("token", token)
				.param("edited", "true")
				.param("action", "preview")
				.param("engineName", "vllm")
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(acted).contains("id=\"problems\"")
			.contains("$.title")
			.contains("id=\"error-title\"")
			.doesNotContain("id=\"still-needed\"")
			.doesNotContain("id=\"error-engineName\"");
	}

	@Test
	void theEditorRenamesAParamAndItsPreviewClaimsNoVersionThatIsNotSaved() throws Exception {
		String suffix = UUID.randomUUID().toString().substring(0, 8);
		byte[] file = labBench(suffix);
		String token = token(upload(file));
		ObjectNode mapping = mapping("renamed-" + suffix, suffix);
		((ObjectNode) mapping.get("params")).removeAll()
			.put("prompt_tokens", "$.target_prompt_tokens")
			.put("concurrency", "$.concurrency");
		JsonNode preview = TestUploads.tree(mvc.perform(post("/upload/describe/preview").param("token", token)
			.param("mapping", mapping.toString())
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())).andExpect(status().isOk()).andReturn().getResponse().getContentAsByteArray());
		assertThat(preview.get("problems")).isEmpty();
		assertThat(preview.get("cells").findValuesAsString("params")).hasSize(4)
			.allMatch(params -> params.contains("prompt_tokens=") && !params.contains("target_prompt_tokens"))
			.anyMatch(params -> params.contains("prompt_tokens=8192"));
		assertThat(preview.get("notes").toString()).contains("not saved yet").doesNotContain("@0").doesNotContain("@1");
	}

	@Test
	void aSavedFormatReadsTheModelAndSystemFromTopLevelFields() throws Exception {
		String suffix = UUID.randomUUID().toString().substring(0, 8);
		String name = "provenance-" + suffix;
		ObjectNode mapping = mapping(name, suffix);
		mapping.putObject("provenance").put("model", "$.model").put("system", "$.rig_" + suffix);
		mvc.perform(post("/api/formats").contentType(MediaType.APPLICATION_JSON)
			.content(mapping.toString())
			.with(httpBasic(USER, PASSWORD))).andExpect(status().isCreated());

		MvcResult imported = mvc
			.perform(multipart("/api/runs/import")
				.file(new MockMultipartFile("files", "lab.json", null, labBench(suffix)))
				.param("format", name)
				.param("provenance", """
						{"title": "lab %s", "engine": {"name": "vllm"}}""".formatted(suffix))
				.with(httpBasic(USER, PASSWORD)))
			.andReturn();
		assertThat(imported.getResponse().getStatus()).as(imported.getResponse().getContentAsString()).isEqualTo(201);
		String id = TestUploads.tree(imported.getResponse().getContentAsByteArray()).get("id").asString();
		JsonNode run = TestUploads.tree(mvc.perform(get("/api/runs/{id}", id))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
		assertThat(run.at("/model/repo").asString()).isEqualTo("our-org/chat-8b");
		assertThat(run.at("/system/name").asString()).isEqualTo("bench-7 " + suffix);

		// The import page pre-fills them, and says which format (name and version) read
		// the file.
		String page = mvc
			.perform(post("/upload/import").param("token", token(upload(labBench(suffix))))
				.param("format", name + "@1")
				.param("saved", "created")
				.param("action", "preview")
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(between(page, "id=\"read-by\"", "</p>")).contains(name).contains("version <span>1</span>");
		assertThat(page).contains("You saved this format just now as " + name + ", version 1")
			.containsPattern("name=\"modelRepo\"[^>]*value=\"our-org/chat-8b\"")
			.containsPattern("name=\"systemName\"[^>]*value=\"bench-7 " + suffix + "\"");
	}

	@Test
	void aProvenanceFieldNoRunHasIsRefusedNamingIt() throws Exception {
		String suffix = UUID.randomUUID().toString().substring(0, 8);
		String name = "bad-provenance-" + suffix;
		ObjectNode mapping = mapping(name, suffix);
		mapping.putObject("provenance").put("gpu", "$.rig_" + suffix).put("model", "$.runs[*].model");
		MvcResult refused = mvc
			.perform(post("/api/formats").contentType(MediaType.APPLICATION_JSON)
				.content(mapping.toString())
				.with(httpBasic(USER, PASSWORD)))
			.andReturn();
		assertThat(refused.getResponse().getStatus()).isEqualTo(400);
		assertThat(refused.getResponse().getContentAsString()).contains("\"path\":\"provenance.gpu\"")
			.contains("unknown provenance field")
			.contains("\"path\":\"provenance.model\"")
			.contains("one value");
		assertThat(jdbc.sql("select count(*) from saved_format where name = ?").param(name).query(Long.class).single())
			.isZero();
	}

	private String upload(byte[] file) throws Exception {
		return mvc
			.perform(multipart("/upload").file(new MockMultipartFile("file", "lab.json", null, file))
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
	}

	private static String token(String page) {
		Matcher matcher = Pattern.compile("name=\"token\" value=\"([^\"]+)\"").matcher(page);
		assertThat(matcher.find()).as("a held upload").isTrue();
		return matcher.group(1);
	}

	private static String between(String page, String start, String end) {
		int from = page.indexOf(start);
		assertThat(from).as(start + " in the page").isNotNegative();
		return page.substring(from, page.indexOf(end, from));
	}

	/**
	 * The lab-bench file with a field and a cells list of this test's own, so only this
	 * test's format reads it.
	 */
	private static byte[] labBench(String suffix) throws Exception {
		String text = Files.readString(Path.of("src/test/resources/mapping/lab-bench-run.json"))
			.replace("\"cases\":", "\"cases_" + suffix + "\":");
		ObjectNode file = (ObjectNode) JSON.readTree(text);
		file.put("rig_" + suffix, "bench-7 " + suffix);
		return JSON.writeValueAsBytes(file);
	}

	private static ObjectNode mapping(String name, String suffix) throws Exception {
		ObjectNode mapping = (ObjectNode) JSON
			.readTree(Files.readString(Path.of("src/test/resources/mapping/lab-bench-mapping.json"))
				.replace("$.cases[*]", "$.cases_" + suffix + "[*]"));
		mapping.put("name", name);
		mapping.putArray("detect").add("$.cases_" + suffix + "[*].requests").add("$.rig_" + suffix);
		return mapping;
	}

}
