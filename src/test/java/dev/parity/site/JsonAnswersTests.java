package dev.parity.site;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import dev.parity.Fixtures;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * The JSON answers of the seed story, byte for byte: the run API, a comparison of two
 * runs and of several contenders, the Pareto views, goodput, the charts' data, and a
 * publication of one contender and of several (as answered and as stored), publications
 * superseded and retracted and the list of publications. Each answer equals its saved
 * file under {@code src/test/resources/json-answers/} once the runs' ids, the titles'
 * unique suffix and the moments are replaced by placeholders;
 * {@code -Dparity.answers.write=true} writes the files anew.
 */
@ParityTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JsonAnswersTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final Path FILES = Path.of("src/test/resources/json-answers");

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	private final Map<String, String> placeholders = new LinkedHashMap<>();

	/** The publications' ids and their placeholders. */
	private final Map<String, String> named = new LinkedHashMap<>();

	private int numbered;

	private String reference;

	private String a;

	private String c;

	private String e;

	private String described;

	private String suffix;

	@BeforeAll
	void uploadTheSeedStory() throws Exception {
		suffix = UUID.randomUUID().toString().substring(0, 8);
		reference = upload("reference.json", suffix);
		a = upload("run-a-thinking-max.json", suffix);
		c = upload("run-c-effort-high.json", suffix);
		e = upload("run-e-control.json", suffix);
		ObjectNode document = (ObjectNode) JSON.readTree(Fixtures.seedStoryBytes("reference.json"));
		document.put("title", "Described " + suffix);
		document.putObject("context")
			.put("branch", "main")
			.put("pull_request", "42")
			.put("ci_url", "https://ci.example.org/1")
			.putObject("labels")
			.put("nightly", "yes");
		ObjectNode environment = document.putObject("environment");
		environment.put("gpu", "GB10").put("gpu_count", 2).put("driver", "580").put("os", "Ubuntu 24.04");
		environment.putObject("python_packages").put("vllm", "0.11.2");
		environment.putObject("other");
		ObjectNode cell = (ObjectNode) document.get("cells").get(0);
		cell.putObject("metrics").put("decode_tps", 76.0).putObject("ttft_s").put("median", 0.92).put("p90", 1.1);
		described = TestUploads.upload(mvc, JSON.writeValueAsBytes(document));
		placeholders.put(" " + suffix, "");
		placeholders.put(described, "RUN-DESCRIBED");
		placeholders.put(reference, "RUN-REFERENCE");
		placeholders.put(a, "RUN-A");
		placeholders.put(c, "RUN-C");
		placeholders.put(e, "RUN-E");
	}

	@Test
	void theRunApi() throws Exception {
		same("run-a.json", answer("/api/runs/" + a));
		same("run-a-goodput.json", answer("/api/runs/" + a + "?slo_ttft_s=2&slo_share=0.75"));
		same("run-e.json", answer("/api/runs/" + e + "?slo_tpot_ms=50"));
		same("run-reference-described.json", answer("/api/runs/" + described));
		same("runs-list.json", answer("/api/runs?q=" + suffix + "&size=3"));
	}

	@Test
	void aComparisonOfTwoRuns() throws Exception {
		same("compare-reference-e.json", answer("/api/compare/" + reference + "..." + e));
		same("compare-reference-a-goodput.json",
				answer("/api/compare/" + reference + "..." + a + "?slo_ttft_s=2&slo_share=0.75&band=0.05"));
	}

	@Test
	void aComparisonOfSeveralContenders() throws Exception {
		same("compare-reference-e-c-a.json", answer("/api/compare/" + reference + "..." + e + "," + c + "," + a));
	}

	@Test
	void theParetoViews() throws Exception {
		same("pareto-run-a.json", answer("/runs/" + a + "/pareto.json"));
		same("pareto-reference-a.json", answer("/compare/" + reference + "..." + a + "/pareto.json"));
	}

	@Test
	void theChartsData() throws Exception {
		same("charts-run-a.json", answer("/runs/" + a + "/charts.json"));
		same("charts-reference-a.json", answer("/compare/" + reference + "..." + a + "/charts.json"));
	}

	@Test
	void publicationsOfOneContenderAndOfSeveral() throws Exception {
		String one = publish("""
				{"baseline": "%s", "contender": "%s", "title": "One", "settings": {"slo_ttft_s": 2},
				 "reason": "an objective", "confirm_no_comparable": true}""".formatted(reference, a));
		same("published-one.json", answer("/api/published/" + one));
		same("published-one-stored.json", stored(one));
		same("published-one-pareto.json", answer("/published/" + one + "/pareto.json"));
		same("published-one-charts.json", answer("/published/" + one + "/charts.json"));
		String several = publish("""
				{"baseline": "%s", "contenders": ["%s", "%s"], "title": "Several"}""".formatted(reference, e, c));
		same("published-several.json", answer("/api/published/" + several));
		same("published-several-stored.json", stored(several));
	}

	@Test
	void publicationsTakenBackAndTheirList() throws Exception {
		String old = publish("""
				{"baseline": "%s", "contender": "%s", "title": "Old", "caption": "first try",
				 "confirm_no_comparable": true}""".formatted(reference, a), "PUBLICATION-OLD");
		String replacement = publish("""
				{"baseline": "%s", "contender": "%s", "title": "Replacement"}""".formatted(reference, e),
				"PUBLICATION-REPLACEMENT");
		String retracted = publish("""
				{"baseline": "%s", "contenders": ["%s", "%s"], "title": "Retracted"}""".formatted(reference, e, c),
				"PUBLICATION-RETRACTED");
		takeBack(old, "longer outputs", replacement);
		takeBack(retracted, "other weights", null);
		same("published-superseded.json", answer("/api/published/" + old));
		same("published-retracted.json", answer("/api/published/" + retracted));
		same("published-list.json",
				answer("/api/published?size=3").replaceFirst("\\{\"total\":\\d+,", "{\"total\":N,"));
	}

	private void takeBack(String id, String reason, String replacement) throws Exception {
		MockHttpServletRequestBuilder request = post("/published/{id}/retract", id).param("reason", reason)
			.with(httpBasic(TestUploads.USER, TestUploads.PASSWORD))
			.with(csrf());
		if (replacement != null) {
			request.param("replacement", replacement);
		}
		assertThat(mvc.perform(request).andReturn().getResponse().getStatus()).isEqualTo(302);
	}

	private String upload(String fixture, String suffix) throws Exception {
		ObjectNode document = (ObjectNode) JSON.readTree(Fixtures.seedStoryBytes(fixture));
		document.put("title", document.get("title").asString() + " " + suffix);
		return TestUploads.upload(mvc, JSON.writeValueAsBytes(document));
	}

	private String publish(String body) throws Exception {
		return publish(body, "PUBLICATION-" + (placeholders.size() + numbered++));
	}

	/** Published; its id stands as {@code name} in the saved answers. */
	private String publish(String body, String name) throws Exception {
		MvcResult created = mvc
			.perform(post("/api/published").with(httpBasic(TestUploads.USER, TestUploads.PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content(body))
			.andReturn();
		assertThat(created.getResponse().getStatus()).as(created.getResponse().getContentAsString()).isEqualTo(201);
		String id = JSON.readTree(created.getResponse().getContentAsByteArray()).get("id").asString();
		named.put(id, name);
		return id;
	}

	private String answer(String url) throws Exception {
		MvcResult result = mvc.perform(get(url)).andReturn();
		assertThat(result.getResponse().getStatus()).as(url).isEqualTo(200);
		return new String(result.getResponse().getContentAsByteArray(), StandardCharsets.UTF_8);
	}

	/** The result as the database holds it. */
	private String stored(String id) {
		return jdbc.sql("select result::text from publication where id = ?").param(id).query(String.class).single();
	}

	private void same(String file, String answer) throws Exception {
		String normal = answer;
		for (Map.Entry<String, String> placeholder : placeholders.entrySet()) {
			normal = normal.replace(placeholder.getKey(), placeholder.getValue());
		}
		for (Map.Entry<String, String> placeholder : named.entrySet()) {
			normal = normal.replace(placeholder.getKey(), placeholder.getValue());
		}
		normal = normal.replaceAll("\"sha256\":\"[0-9a-f]{64}\"", "\"sha256\":\"SHA-256\"");
		normal = normal.replaceAll("(Superseded|Retracted) on \\d{4}-\\d\\d-\\d\\d", "$1 on DAY");
		normal = normal.replaceAll("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z", "MOMENT");
		Path path = FILES.resolve(file);
		if (Boolean.getBoolean("parity.answers.write")) {
			Files.createDirectories(FILES);
			Files.writeString(path, normal);
			return;
		}
		Path actual = Path.of("target/json-answers").resolve(file);
		Files.createDirectories(actual.getParent());
		Files.writeString(actual, normal);
		if (file.contains("charts")) {
			// The charts' data is written from maps whose keys come in no set order: the
			// same tree.
			assertThat(JSON.readTree(normal)).as(file).isEqualTo(JSON.readTree(Files.readString(path)));
		}
		else {
			assertThat(normal).as(file).isEqualTo(Files.readString(path));
		}
	}

}
