package dev.parity.ingest;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.parity.Fixtures;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mock.web.MockHttpSession;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The optional fields of src/docs/design/HISTORY.md (engine commit, context,
 * environment): accepted, stored, shown, refused when wrong.
 */
@ParityTest
class HistoryFieldsTests {

	private static final String ENGINE_COMMIT = "0123456789abcdef0123456789ABCDEF01234567";

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Test
	void aDocumentWithEveryOptionalFieldRoundTrips() throws Exception {
		ObjectNode document = withHistoryFields((ObjectNode) TestUploads.tree(TestUploads.fresh("run-e-control.json")));
		byte[] bytes = document.toString().getBytes(StandardCharsets.UTF_8);
		String id = TestUploads.upload(mvc, bytes);

		assertThat(mvc.perform(get("/api/runs/{id}/document", id)).andReturn().getResponse().getContentAsByteArray())
			.isEqualTo(bytes);
		JsonNode api = TestUploads.tree(mvc.perform(get("/api/runs/{id}", id))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
		assertThat(api.at("/engine/commit").asString()).isEqualTo(ENGINE_COMMIT.toLowerCase(Locale.ROOT));
		assertThat(api.get("context"))
			.isEqualTo(((ObjectNode) document.get("context")).deepCopy().put("pull_request", "1234"));
		assertThat(api.get("environment")).isEqualTo(document.get("environment"));
		assertThat(jdbc.sql("select engine_commit || ' ' || branch from run where id = ?")
			.param(id)
			.query(String.class)
			.single()).isEqualTo(ENGINE_COMMIT.toLowerCase(Locale.ROOT) + " feature/faster-decode");

		String page = mvc.perform(get("/runs/{id}", id))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(page).contains(ENGINE_COMMIT.toLowerCase(Locale.ROOT), "feature/faster-decode", "nightly=yes",
				"NVIDIA H100 80GB HBM3", "sha256:4f1d", "torch==2.5.1");
	}

	@Test
	void aPullRequestMayBeAUrl() throws Exception {
		ObjectNode document = withHistoryFields((ObjectNode) TestUploads.tree(TestUploads.fresh("run-e-control.json")));
		((ObjectNode) document.get("context")).put("pull_request", "https://github.com/org/repo/pull/7");
		String id = TestUploads.upload(mvc, document.toString().getBytes(StandardCharsets.UTF_8));
		mvc.perform(get("/api/runs/{id}", id))
			.andExpect(jsonPath("$.context.pull_request").value("https://github.com/org/repo/pull/7"));
	}

	@Test
	void badValuesAreRefusedNamingTheirPathAndNothingIsStored() throws Exception {
		ObjectNode document = withHistoryFields((ObjectNode) TestUploads.tree(TestUploads.fresh("run-e-control.json")));
		((ObjectNode) document.get("engine")).put("commit", "d81e07c");
		((ObjectNode) document.get("context").get("labels")).put("nightly", true);
		((ObjectNode) document.get("context")).put("pull_request", -3);
		((ObjectNode) document.get("environment")).put("gpu_count", "eight");
		((ObjectNode) document.get("environment").get("python_packages")).put("torch", 2.5);
		((ObjectNode) document.get("environment")).put("gpus", "H100");
		TestUploads.RowCounts before = TestUploads.rows(jdbc);

		mvc.perform(post("/api/runs").with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content(document.toString()))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.errors.length()").value(6))
			.andExpect(jsonPath("$.errors[?(@.path == '$.engine.commit')].message")
				.value("must be the 40 hexadecimal characters of the engine's commit, not \"d81e07c\""))
			.andExpect(jsonPath("$.errors[?(@.path == '$.context.labels.nightly')].message")
				.value("must be a string, not a boolean (true)"))
			.andExpect(jsonPath("$.errors[?(@.path == '$.context.pull_request')]").exists())
			.andExpect(jsonPath("$.errors[?(@.path == '$.environment.gpu_count')]").exists())
			.andExpect(jsonPath("$.errors[?(@.path == '$.environment.python_packages.torch')]").exists())
			.andExpect(jsonPath("$.errors[?(@.path == '$.environment.gpus')]").exists());

		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
	}

	@Test
	void theImportFormTakesTheEngineCommitAndTheBranch() throws Exception {
		byte[] sample = Files.readAllBytes(Fixtures.sample("vllm-bench-sweep-run.json"));
		MockHttpSession session = new MockHttpSession();
		String form = mvc
			.perform(MockMvcRequestBuilders.multipart("/upload")
				.file(new MockMultipartFile("file", "vllm-bench-sweep-run.json", "application/json", sample))
				.with(httpBasic(USER, PASSWORD))
				.with(SecurityMockMvcRequestPostProcessors.csrf()))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(form).contains("name=\"engineCommit\"", "name=\"branch\"");
		Matcher token = Pattern.compile("name=\"token\" value=\"([^\"]+)\"").matcher(form);
		assertThat(token.find()).isTrue();

		String location = mvc
			.perform(post("/upload/import").with(httpBasic(USER, PASSWORD))
				.with(SecurityMockMvcRequestPostProcessors.csrf())
				.param("token", token.group(1))
				.param("action", "store")
				.param("title", "History fields through the form")
				.param("systemName", "2x H100")
				.param("modelRepo", "org/model")
				.param("engineName", "vllm")
				.param("harnessName", "vllm bench serve")
				.param("engineCommit", ENGINE_COMMIT)
				.param("branch", "release-1.2"))
			.andExpect(status().is3xxRedirection())
			.andReturn()
			.getResponse()
			.getRedirectedUrl();
		String id = location.substring("/runs/".length()).replaceFirst("\\?.*", "");
		mvc.perform(get("/api/runs/{id}", id))
			.andExpect(jsonPath("$.engine.commit").value(ENGINE_COMMIT.toLowerCase(Locale.ROOT)))
			.andExpect(jsonPath("$.context.branch").value("release-1.2"));
	}

	static ObjectNode withHistoryFields(ObjectNode document) {
		((ObjectNode) document.get("engine")).put("commit", ENGINE_COMMIT);
		ObjectNode context = document.putObject("context");
		context.put("branch", "feature/faster-decode");
		context.put("pull_request", 1234);
		context.put("ci_url", "https://ci.example.org/jobs/99");
		context.putObject("labels").put("nightly", "yes").put("team", "serving");
		ObjectNode environment = document.putObject("environment");
		environment.put("gpu", "NVIDIA H100 80GB HBM3");
		environment.put("gpu_count", 8);
		environment.put("driver", "550.54.15");
		environment.put("cuda", "12.4");
		environment.put("container_image", "vllm/vllm-openai:v0.11.0");
		environment.put("container_digest", "sha256:4f1d2c");
		environment.put("os", "Ubuntu 22.04");
		environment.put("kernel", "5.15.0-105-generic");
		environment.putObject("python_packages").put("torch", "2.5.1").put("vllm", "0.11.0");
		environment.putObject("other").put("nccl", "2.21.5");
		return document;
	}

}
