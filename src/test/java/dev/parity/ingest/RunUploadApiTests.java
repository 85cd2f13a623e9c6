package dev.parity.ingest;

import dev.parity.ParityTest;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.parity.Fixtures;
import dev.parity.TestUploads;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
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
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@ParityTest
class RunUploadApiTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@LocalServerPort
	int port;

	static List<String> seedStory() {
		return Fixtures.seedStoryNames();
	}

	@Test
	void storesANewDocumentAndAnswers201WithItsLocation() throws Exception {
		byte[] document = TestUploads.fresh("run-e-control.json");
		MvcResult created = mvc
			.perform(post("/api/runs").with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content(document))
			.andExpect(status().isCreated())
			.andExpect(jsonPath("$.id").isString())
			.andReturn();
		String id = TestUploads.tree(created.getResponse().getContentAsByteArray()).get("id").asString();
		assertThat(id).matches("[a-z0-9]{10}");
		assertThat(created.getResponse().getHeader("Location")).isEqualTo("/runs/" + id);
		assertThat(TestUploads.tree(created.getResponse().getContentAsByteArray()).get("url").asString())
			.isEqualTo("/runs/" + id);

		mvc.perform(post("/api/runs").with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content(document)).andExpect(status().isOk()).andExpect(jsonPath("$.id").value(id));
		assertThat(jdbc.sql("select count(*) from run where title = ?")
			.param(TestUploads.tree(document).get("title").asString())
			.query(Long.class)
			.single()).isEqualTo(1);
	}

	@ParameterizedTest
	@MethodSource("seedStory")
	void roundTripsEverySeedStoryDocument(String fixture) throws Exception {
		byte[] bytes = Fixtures.seedStoryBytes(fixture);
		String id = TestUploads.upload(mvc, bytes);

		byte[] back = mvc.perform(get("/api/runs/{id}/document", id))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray();
		assertThat(back).isEqualTo(bytes);

		JsonNode file = TestUploads.tree(bytes);
		JsonNode api = TestUploads.tree(mvc.perform(get("/api/runs/{id}", id))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
		assertThat(api.get("title").asString()).isEqualTo(file.get("title").asString());
		assertThat(api.get("role").asString()).isEqualTo(file.get("role").asString());
		assertThat(api.get("system").get("name").asString()).isEqualTo(file.get("system").get("name").asString());
		assertThat(api.get("model").get("commit").asString(null))
			.isEqualTo(file.get("model").path("commit").asString(null));
		assertThat(api.get("cells").size()).isEqualTo(file.get("cells").size());
		for (int i = 0; i < file.get("cells").size(); i++) {
			JsonNode expected = file.get("cells").get(i);
			JsonNode actual = api.get("cells").get(i);
			assertThat(actual.get("params")).isEqualTo(expected.get("params"));
			assertThat(actual.get("requests").get("completed").asInt())
				.isEqualTo(expected.get("requests").get("completed").asInt());
			expected.get("metrics").forEachEntry((metric, value) -> {
				if (value.isNumber()) {
					assertThat(actual.get("metrics").get(metric).doubleValue()).as("%s %s", fixture, metric)
						.isEqualTo(value.doubleValue());
				}
			});
			assertThat(actual.get("samples").size()).isEqualTo(expected.path("samples").size());
		}
	}

	@Test
	void rejectsAnInvalidDocumentWithEveryPathAndStoresNothing() throws Exception {
		ObjectNode document = (ObjectNode) TestUploads.tree(TestUploads.fresh("run-c-effort-high.json"));
		((ObjectNode) document.get("cells").get(3).get("requests")).put("failed", -2);
		((ObjectNode) document.get("model")).put("commit", "d81e07c");
		TestUploads.RowCounts before = TestUploads.rows(jdbc);

		mvc.perform(post("/api/runs").with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content(document.toString()))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.errors.length()").value(2))
			.andExpect(jsonPath("$.errors[?(@.path == '$.cells[3].requests.failed')].message")
				.value("must be at least 0, not -2"))
			.andExpect(jsonPath("$.errors[?(@.path == '$.model.commit')]").exists());

		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
	}

	@Test
	void rejectsTruncatedJsonAndStoresNothing() throws Exception {
		byte[] whole = TestUploads.fresh("run-d-effort-off.json");
		byte[] truncated = Arrays.copyOf(whole, whole.length / 2);
		TestUploads.RowCounts before = TestUploads.rows(jdbc);
		mvc.perform(post("/api/runs").with(httpBasic(USER, PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content(truncated))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.errors[0].path").value("$"))
			.andExpect(jsonPath("$.errors[0].message").value(Matchers.startsWith("not valid JSON")));
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
	}

	@Test
	void refusesAnAnonymousUploadAndStoresNothing() throws Exception {
		TestUploads.RowCounts before = TestUploads.rows(jdbc);
		mvc.perform(post("/api/runs").contentType(MediaType.APPLICATION_JSON)
			.content(TestUploads.fresh("run-e-control.json"))).andExpect(status().isUnauthorized());
		mvc.perform(post("/api/runs").with(httpBasic(USER, "wrong"))
			.contentType(MediaType.APPLICATION_JSON)
			.content(TestUploads.fresh("run-e-control.json"))).andExpect(status().isUnauthorized());
		mvc.perform(multipart("/upload").file("file", TestUploads.fresh("run-e-control.json"))
			.with(csrf())
			.accept(MediaType.TEXT_HTML))
			.andExpect(status().is3xxRedirection())
			.andExpect(header().string("Location", Matchers.endsWith("/login")));
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
	}

	@Test
	void refusesAFormPostWithoutCsrfToken() throws Exception {
		TestUploads.RowCounts before = TestUploads.rows(jdbc);
		mvc.perform(multipart("/upload").file("file", TestUploads.fresh("run-e-control.json"))
			.with(httpBasic(USER, PASSWORD))).andExpect(status().isForbidden());
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
	}

	@Test
	void formUploadRedirectsToTheRunPage() throws Exception {
		byte[] document = TestUploads.fresh("run-b-effort-low.json");
		MvcResult result = mvc
			.perform(multipart("/upload").file("file", document).with(httpBasic(USER, PASSWORD)).with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andReturn();
		assertThat(result.getResponse().getRedirectedUrl()).matches("/runs/[a-z0-9]{10}");
	}

	@Test
	void formUploadErrorKeepsTheInputAndListsEveryProblem() throws Exception {
		ObjectNode document = (ObjectNode) TestUploads.tree(TestUploads.fresh("run-b-effort-low.json"));
		document.put("role", "ours");
		document.remove("harness");
		TestUploads.RowCounts before = TestUploads.rows(jdbc);
		String page = mvc
			.perform(multipart("/upload").param("document", document.toPrettyString())
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(page).contains("2 problems")
			.contains("$.role")
			.contains("$.harness")
			.contains("nothing was stored")
			.contains("Effort &#39;low&#39;");
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
	}

	@Test
	void listsRunsNewestFirstWithFilters() throws Exception {
		String reference = TestUploads.upload(mvc, TestUploads.fresh("reference.json"));
		TestUploads.upload(mvc, "run-a-thinking-max.json");
		JsonNode references = TestUploads.tree(mvc.perform(get("/api/runs").param("role", "reference"))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
		assertThat(references.get("total").asLong()).isGreaterThanOrEqualTo(1);
		references.get("runs").forEach(run -> assertThat(run.get("role").asString()).isEqualTo("reference"));
		assertThat(references.get("runs").findValuesAsString("id")).contains(reference);

		JsonNode byCommit = TestUploads.tree(mvc.perform(get("/api/runs").param("commit", "d81e07c"))
			.andReturn()
			.getResponse()
			.getContentAsByteArray());
		assertThat(byCommit.get("runs").size()).isGreaterThanOrEqualTo(1);
		byCommit.get("runs")
			.forEach(run -> assertThat(run.get("model").get("commit").asString()).startsWith("d81e07c"));

		JsonNode all = TestUploads
			.tree(mvc.perform(get("/api/runs").param("size", "200")).andReturn().getResponse().getContentAsByteArray());
		// Instants, not strings: "…50.520Z" is earlier than "…50.520083Z" but sorts after
		// it as text.
		List<Instant> times = all.get("runs").findValuesAsString("uploaded_at").stream().map(Instant::parse).toList();
		assertThat(times).hasSizeGreaterThanOrEqualTo(2).isSortedAccordingTo(Comparator.reverseOrder());
	}

	@Test
	void racingUploadsOfTheSameBytesStoreOneRun() throws Exception {
		byte[] document = TestUploads.fresh("run-a-thinking-max.json");
		HttpClient client = HttpClient.newHttpClient();
		String auth = "Basic "
				+ Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
		ExecutorService pool = Executors.newFixedThreadPool(8);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<HttpResponse<String>>> responses = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			responses.add(pool.submit(() -> {
				start.await();
				return client.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/runs"))
					.header("Authorization", auth)
					.header("Content-Type", "application/json")
					.POST(HttpRequest.BodyPublishers.ofByteArray(document))
					.build(), HttpResponse.BodyHandlers.ofString());
			}));
		}
		start.countDown();
		Set<String> ids = new HashSet<>();
		List<Integer> statuses = new ArrayList<>();
		for (var response : responses) {
			statuses.add(response.get().statusCode());
			ids.add(TestUploads.tree(response.get().body().getBytes(StandardCharsets.UTF_8)).get("id").asString());
		}
		pool.shutdown();
		assertThat(ids).hasSize(1);
		assertThat(statuses).containsOnly(200, 201).containsOnlyOnce(201);
		assertThat(jdbc.sql("select count(*) from run where title = ?")
			.param(TestUploads.tree(document).get("title").asString())
			.query(Long.class)
			.single()).isEqualTo(1);
	}

	@Test
	void answers404ForAnUnknownRun() throws Exception {
		mvc.perform(get("/api/runs/zzzzzzzzzz")).andExpect(status().isNotFound());
		mvc.perform(get("/runs/not-an-id")).andExpect(status().isNotFound());
	}

}
