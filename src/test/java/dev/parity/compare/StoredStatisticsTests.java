package dev.parity.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.parity.Fixtures;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.run.Cell;
import dev.parity.run.CellBootstraps;
import dev.parity.run.CellStatistics;
import dev.parity.run.Params;
import dev.parity.run.Run;
import dev.parity.run.RunId;
import dev.parity.run.RunRepository;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.multipart;

/**
 * The sample statistics stored at ingest stand for the samples exactly: a comparison of
 * runs read without their samples gives the JSON a comparison of the same runs read with
 * them gives, for the seed story and every harness sample — under the defaults, and under
 * any thresholds with the default outlier z; under another outlier z the runs are read
 * whole.
 */
@ParityTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StoredStatisticsTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/**
	 * The harness samples with per-request or per-repetition samples, and a few without.
	 */
	private static final List<String> HARNESS_SAMPLES = List.of("vllm-bench-serve-detailed.json",
			"sglang-bench-serving-details.jsonl", "aiperf-profile-export.jsonl", "llmperf-individual-responses.json",
			"llama-benchy-report.json", "guidellm-report.json", "vllm-bench-serve-all-failed.json",
			"vllm-bench-sweep-run.json", "aiperf-profile-export.json");

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	RunRepository runs;

	@Autowired
	CellBootstraps bootstraps;

	private final List<String> seedStory = new ArrayList<>();

	private final List<String> harness = new ArrayList<>();

	private final String defaults = CellStatistics.computedUnder(CompareSettings.defaults().outlierZ());

	@BeforeAll
	void storeRuns() throws Exception {
		for (String name : Fixtures.seedStoryNames()) {
			seedStory.add(TestUploads.upload(mvc, TestUploads.fresh(name)));
		}
		for (String sample : HARNESS_SAMPLES) {
			harness.add(importSample(sample));
		}
	}

	@Test
	void everyRunStoredHasItsStatisticsAndIsReadWithoutItsSamples() {
		for (String id : all()) {
			assertThat(jdbc.sql("select count(*) from run_statistics where run_id = ? and computed_under = ?")
				.params(id, defaults)
				.query(Integer.class)
				.single()).as(id).isEqualTo(1);
			Run whole = runs.find(new RunId(id)).orElseThrow();
			Run light = runs.find(new RunId(id), defaults).orElseThrow();
			assertThat(light.cells()).hasSameSizeAs(whole.cells());
			for (int i = 0; i < whole.cells().size(); i++) {
				Cell cell = whole.cells().get(i);
				assertThat(light.cells().get(i).samples()).isEmpty();
				assertThat(light.cells().get(i).statistics()).as("%s %s", id, cell.anchor())
					.isEqualTo(SampleSummaries.compute(cell, CompareSettings.defaults().outlierZ()));
			}
		}
		assertThat(all().stream()
			.map(id -> runs.find(new RunId(id)).orElseThrow())
			.mapToInt(run -> run.cells().stream().mapToInt(cell -> cell.samples().size()).sum())
			.sum()).as("the runs have samples to stand for").isGreaterThan(400);
	}

	@Test
	void aComparisonUnderTheDefaultsFromStoredStatisticsIsTheComparisonFromSamples() {
		for (List<String> pair : pairs()) {
			assertSameComparison(List.of(pair.get(0)), List.of(pair.get(1)), CompareSettings.defaults());
		}
	}

	@Test
	void soItIsUnderOtherThresholdsWithTheDefaultOutlierZ() {
		CompareSettings strict = CompareSettings.defaults()
			.withOverrides(Map.of("runaway", "1.01", "unstable_cv", "0.0001", "output_tolerance", "0", "skew", "1",
					"spike", "1", "warning_factor", "1", "stat", "mean", "band", "0.01", "vary", "engine"));
		for (List<String> pair : pairs()) {
			assertSameComparison(List.of(pair.get(0)), List.of(pair.get(1)), strict);
		}
	}

	@Test
	void soItIsForGroupsAndFixedParameters() {
		assertSameComparison(seedStory.subList(0, 3), seedStory.subList(3, 6), CompareSettings.defaults());
		assertSameComparison(harness.subList(0, 2), harness.subList(2, 4), CompareSettings.defaults());
		String probe = seedStory.get(Fixtures.seedStoryNames().indexOf("run-e-control.json"));
		Run run = runs.find(new RunId(probe)).orElseThrow();
		String concurrency = run.cells().get(0).params().get("concurrency").map(Params::format).orElseThrow();
		assertThat(compare(List.of(probe), List.of(probe), CompareSettings.defaults(), null,
				FixedParams.parse(List.of("concurrency=" + concurrency)), FixedParams.NONE))
			.isEqualTo(compare(List.of(probe), List.of(probe), CompareSettings.defaults(), defaults,
					FixedParams.parse(List.of("concurrency=" + concurrency)), FixedParams.NONE));
	}

	@Test
	void underAnotherOutlierZTheRunsAreReadWithTheirSamples() {
		CompareSettings other = CompareSettings.defaults().withOverrides(Map.of("outlier_z", "1.5"));
		assertThat(SampleSummaries.readableUnder(other, CompareSettings.defaults())).isNull();
		String key = CellStatistics.computedUnder(other.outlierZ());
		String llamaBenchy = harness.get(HARNESS_SAMPLES.indexOf("llama-benchy-report.json"));
		Run read = runs.find(new RunId(llamaBenchy), key).orElseThrow();
		assertThat(read.cells()).allSatisfy(cell -> assertThat(cell.statistics()).isNull());
		assertThat(read.cells().stream().mapToInt(cell -> cell.samples().size()).sum()).isPositive();
		// The checks under it count outliers beyond 1.5, not 5: what the stored
		// statistics do not know.
		RunFlags checks = RunChecks.check(read.document(), other);
		RunFlags underDefaults = RunChecks.check(runs.find(new RunId(llamaBenchy), defaults).orElseThrow().document(),
				CompareSettings.defaults());
		assertThat(checks.all().filter(flag -> flag.rule().equals("outlier")).map(Flag::message).toList()).isNotEmpty()
			.allSatisfy(message -> assertThat(message).contains("over 1.5"));
		assertThat(underDefaults.all().filter(flag -> flag.rule().equals("outlier")).map(Flag::message).toList())
			.allSatisfy(message -> assertThat(message).contains("over 5"));
		assertThat(underDefaults).isEqualTo(RunChecks.check(runs.find(new RunId(llamaBenchy)).orElseThrow().document(),
				CompareSettings.defaults()));
		// Service-level objectives count requests: the samples again.
		assertThat(SampleSummaries.readableUnder(CompareSettings.defaults().withOverrides(Map.of("slo_ttft_s", "1")),
				CompareSettings.defaults()))
			.isNull();
	}

	@Test
	void aCellReadWithStatisticsUnderOtherThresholdsIsNeverCheckedUnderTheseOnes() {
		Run light = runs.find(new RunId(harness.get(0)), defaults).orElseThrow();
		CompareSettings other = CompareSettings.defaults().withOverrides(Map.of("outlier_z", "2"));
		Assertions.assertThatThrownBy(() -> RunChecks.check(light.document(), other))
			.isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("outlier_z=5");
	}

	/**
	 * Every seed-story run against the reference and against the next; every harness run
	 * against itself and the next.
	 */
	private List<List<String>> pairs() {
		List<List<String>> pairs = new ArrayList<>();
		String reference = seedStory.get(Fixtures.seedStoryNames().indexOf("reference.json"));
		for (int i = 0; i < seedStory.size(); i++) {
			pairs.add(List.of(reference, seedStory.get(i)));
			pairs.add(List.of(seedStory.get(i), seedStory.get((i + 1) % seedStory.size())));
		}
		for (int i = 0; i < harness.size(); i++) {
			pairs.add(List.of(harness.get(i), harness.get(i)));
			pairs.add(List.of(harness.get(i), harness.get((i + 1) % harness.size())));
			pairs.add(List.of(reference, harness.get(i)));
		}
		return pairs;
	}

	private List<String> all() {
		List<String> all = new ArrayList<>(seedStory);
		all.addAll(harness);
		return all;
	}

	private void assertSameComparison(List<String> baselines, List<String> contenders, CompareSettings settings) {
		String key = SampleSummaries.readableUnder(settings, CompareSettings.defaults());
		assertThat(key).isEqualTo(defaults);
		JsonNode fromSamples = compare(baselines, contenders, settings, null, FixedParams.NONE, FixedParams.NONE);
		JsonNode fromStatistics = compare(baselines, contenders, settings, key, FixedParams.NONE, FixedParams.NONE);
		assertThat(fromStatistics).as("%s...%s under %s", baselines, contenders, settings.asMap())
			.isEqualTo(fromSamples);
	}

	/**
	 * The comparison as the API writes it (and the Pareto view beside it), of the runs
	 * read with their samples ({@code statisticsUnder} null) or without them.
	 */
	private JsonNode compare(List<String> baselineIds, List<String> contenderIds, CompareSettings settings,
			String statisticsUnder, FixedParams baselineFixed, FixedParams contenderFixed) {
		List<RunId> ids = new ArrayList<>();
		baselineIds.forEach(id -> ids.add(new RunId(id)));
		contenderIds.forEach(id -> ids.add(new RunId(id)));
		Map<RunId, Run> loaded = runs.findAll(ids, statisticsUnder);
		boolean light = loaded.values()
			.stream()
			.flatMap(run -> run.cells().stream())
			.allMatch(cell -> cell.statistics() != null && cell.samples().isEmpty());
		assertThat(light).as("read without samples").isEqualTo(statisticsUnder != null);
		List<Run> baselines = baselineIds.stream().map(id -> loaded.get(new RunId(id))).toList();
		List<Run> contenders = contenderIds.stream().map(id -> loaded.get(new RunId(id))).toList();
		Comparison comparison = new ComparisonBuilder().compare(baselines, contenders, settings,
				BootstrapMedians.stored(bootstraps.find(ids.stream().distinct().toList())), baselineFixed,
				contenderFixed);
		ObjectNode json = JSON.valueToTree(ComparisonSnapshot.of(comparison, CompareSettings.defaults(), JSON));
		// When it was computed, and the rules' version, are not figures.
		json.remove("computed_at");
		json.remove("rules_version");
		return json;
	}

	private String importSample(String sample) throws Exception {
		byte[] bytes = Fixtures.read(Fixtures.sample(sample));
		String provenance = """
				{"title": "Statistics %s %s", "role": "measured", "system": {"name": "1x H100"},
				 "model": {"repo": "example-org/model", "revision": "main"}, "engine": {"name": "vllm"},
				 "harness": {"name": "harness"}, "workload": {}}""".formatted(sample, UUID.randomUUID());
		MvcResult result = mvc
			.perform(multipart("/api/runs/import")
				.file(new MockMultipartFile("files", sample, "application/octet-stream", bytes))
				.param("provenance", provenance)
				.with(httpBasic(USER, PASSWORD)))
			.andReturn();
		assertThat(result.getResponse().getStatus()).as(result.getResponse().getContentAsString()).isEqualTo(201);
		return TestUploads.tree(result.getResponse().getContentAsByteArray()).get("id").asString();
	}

}
