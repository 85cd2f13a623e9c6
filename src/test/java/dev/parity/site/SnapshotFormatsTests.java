package dev.parity.site;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.compare.CompareSettings;
import dev.parity.compare.ComparisonSnapshot;
import dev.parity.run.RunId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.web.util.HtmlUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * Every shape a publication ever stored its comparison in still reads into
 * {@link ComparisonSnapshot} and renders: its page, embed, exports and API. The fixtures
 * under {@code snapshot-formats/} are the seed story's reference against run B in each
 * format, reconstructed from the history of ComparisonJson and ComparisonSnapshot (see
 * its README).
 */
@ParityTest
class SnapshotFormatsTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@ParameterizedTest
	@ValueSource(strings = { "v1-2026-11-29-first.json", "v2-short-forms.json", "v2-short-forms-loosened.json",
			"v3-settings-disclosed.json", "v4-intervals-verdicts.json", "v5-replicates.json", "v7-pareto.json",
			"v7-pareto-goodput-loosened.json" })
	void everyFormatEverStoredReadsAndRendersItsPage(String format) throws Exception {
		String stored = stored(format);
		JsonNode result = JSON.readTree(stored);
		ComparisonSnapshot snapshot = ComparisonSnapshot.read(result, JSON);
		assertThat(snapshot.cells()).hasSize(result.get("cells").size());
		assertThat(snapshot.headlines()).extracting(ComparisonSnapshot.HeadlineView::sentence)
			.containsExactlyElementsOf(result.get("headlines").findValuesAsString("sentence"));

		String id = publish(result, List.of(result.get("contender").get("id").asString()));
		String page = body("/published/" + id);
		for (JsonNode headline : result.get("headlines")) {
			assertThat(page).contains(headline.get("sentence").asString());
		}
		for (JsonNode cell : result.get("cells")) {
			assertThat(page).contains("id=\"" + cell.get("anchor").asString() + "\"");
		}
		// Flags frozen before they had a short form show their rule beside the number.
		JsonNode greyingFlag = result.get("cells")
			.findValues("flags")
			.stream()
			.flatMap(f -> f.valueStream())
			.filter(f -> !f.get("greys").isEmpty())
			.findFirst()
			.orElseThrow();
		assertThat(page).contains(
				greyingFlag.has("short") ? greyingFlag.get("short").asString() : greyingFlag.get("rule").asString());
		assertThat(body("/embed/published/" + id)).contains(result.get("headlines").get(0).get("sentence").asString());
		assertThat(body("/published/" + id + "/export.csv"))
			.contains(result.get("cells").get(0).get("anchor").asString());
		assertThat(body("/published/" + id + "/export.md"))
			.contains(ComparisonExport.escape(result.get("headlines").get(0).get("sentence").asString()));
		// The API and the JSON export give the comparison as it was stored, whatever its
		// shape.
		assertThat(JSON.readTree(body("/api/published/" + id)).get("comparison")).isEqualTo(result);
		JsonNode exported = JSON.readTree(body("/published/" + id + "/export.json"));
		assertThat(exported.get("cells")).isEqualTo(result.get("cells"));
	}

	@Test
	void beforeSettingsWereDisclosedTheStoredSettingsAreComparedWithTheDefaults() throws Exception {
		JsonNode result = JSON.readTree(stored("v2-short-forms-loosened.json"));
		ComparisonSnapshot snapshot = ComparisonSnapshot.read(result, JSON);
		assertThat(snapshot.nonDefaultSettings()).isNull();
		assertThat(snapshot.settingsNotice(CompareSettings.defaults())).isEqualTo("Settings differ from the defaults: "
				+ "output_tolerance 10 (default 0.1) — no cell × metric value that the defaults grey is shown as comparable");

		String page = body("/published/" + publish(result, List.of(result.get("contender").get("id").asString())));
		assertThat(page).contains("output_tolerance 10 (default 0.1)");
	}

	@Test
	void settingsDisclosedWhenStoredAreShownAsStored() throws Exception {
		JsonNode result = JSON.readTree(stored("v3-settings-disclosed.json"));
		ComparisonSnapshot snapshot = ComparisonSnapshot.read(result, JSON);
		assertThat(snapshot.nonDefaultSettings()).extracting(ComparisonSnapshot.SettingDifference::name)
			.containsExactly("output_tolerance");
		assertThat(snapshot.settingsNotice(CompareSettings.defaults()))
			.contains("output_tolerance 10 (default 0.1) — ");
	}

	@Test
	void severalContendersFrozenTogetherReadAndRenderEach() throws Exception {
		String stored = stored("v6-several-contenders.json");
		JsonNode result = JSON.readTree(stored);
		List<String> contenders = result.get("contenders")
			.valueStream()
			.map(c -> c.get("contender").get("id").asString())
			.toList();
		for (JsonNode each : result.get("contenders")) {
			assertThat(ComparisonSnapshot.read(each, JSON).cells()).hasSize(each.get("cells").size());
		}
		String id = publish(result, contenders);
		String page = body("/published/" + id);
		assertThat(page).contains(contenders.get(0)).contains(contenders.get(1));
		assertThat(body("/published/" + id + "/export.csv")).contains(contenders.get(1));
		assertThat(body("/embed/published/" + id + "?vs=2"))
			.contains(result.get("contenders").get(1).get("headlines").get(0).get("sentence").asString());
	}

	/**
	 * A fixture with its run ids those of runs stored now: the reference and run B, and
	 * copies for other sides.
	 */
	private String stored(String format) throws Exception {
		String text;
		try (InputStream in = getClass().getResourceAsStream("/snapshot-formats/" + format)) {
			text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		return text.replace("baseline01", TestUploads.upload(mvc, "reference.json"))
			.replace("contender1", TestUploads.upload(mvc, "run-b-effort-low.json"))
			.replace("baseline02", TestUploads.upload(mvc, TestUploads.fresh("reference.json")))
			.replace("contender2", TestUploads.upload(mvc, TestUploads.fresh("run-b-effort-low.json")));
	}

	/**
	 * Stores a publication as it was stored in its day: the row as written then,
	 * bypassing today's service.
	 */
	private String publish(JsonNode result, List<String> contenders) {
		String id = RunId.random().value();
		boolean several = contenders.size() > 1;
		JsonNode first = several ? result.get("contenders").get(0) : result;
		jdbc.sql("""
				insert into publication (id, baseline_id, contender_id, settings, title, caption, result, rules_version,
					created_by, contenders)
				values (?, ?, ?, ?::jsonb, ?, '', ?::jsonb, ?, 'test', ?::jsonb)""")
			.params(id, first.get("baseline").get("id").asString(), contenders.get(0), first.get("settings").toString(),
					"Stored format " + id, result.toString(), first.get("rules_version").asString(),
					several ? JSON.writeValueAsString(contenders) : null)
			.update();
		return id;
	}

	private String body(String path) throws Exception {
		MockHttpServletResponse response = mvc.perform(get(path)).andReturn().getResponse();
		String text = response.getContentAsString(StandardCharsets.UTF_8);
		assertThat(response.getStatus()).as(path + ": " + text).isEqualTo(200);
		return HtmlUtils.htmlUnescape(text);
	}

}
