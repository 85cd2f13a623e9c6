package dev.parity.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import dev.parity.run.Run;
import dev.parity.run.RunDocumentReader;
import dev.parity.run.RunId;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The typed snapshot writes exactly the JSON the tree-built snapshot wrote (same keys,
 * same order, same numbers), for every contender of the seed story, under the defaults
 * and with loosened settings, objectives and fixed params; and reads its own JSON back to
 * an equal claim.
 */
class ComparisonSnapshotShapeTests {

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private static final Path FIXTURES = dev.parity.Fixtures.given().resolve("seed-story");

	@ParameterizedTest
	@ValueSource(strings = { "run-a-thinking-max.json", "run-b-effort-low.json", "run-c-effort-high.json",
			"run-d-effort-off.json", "run-e-control.json", "probe-reasoning-levers.json" })
	void writesTheTreeBuiltShapeByteForByte(String contender) {
		Run baseline = load("reference.json");
		Run other = load(contender);
		for (CompareSettings settings : List.of(CompareSettings.defaults(), CompareSettings.defaults()
			.withOverrides(Map.of("band", "0.05", "output_tolerance", "10", "slo_ttft_s", "2")))) {
			Comparison comparison = new ComparisonBuilder().compare(baseline, other, settings);
			ComparisonSnapshot typed = ComparisonSnapshot.of(comparison, CompareSettings.defaults(), MAPPER);
			ObjectNode legacy = legacySnapshot(comparison, CompareSettings.defaults(), typed.computedAt());

			assertThat(MAPPER.writeValueAsString(typed)).isEqualTo(MAPPER.writeValueAsString(legacy));
			ComparisonSnapshot read = ComparisonSnapshot.read(MAPPER.readTree(MAPPER.writeValueAsString(typed)),
					MAPPER);
			assertThat(read.claim()).isEqualTo(typed.claim());
			assertThat(read.settingsNotice(CompareSettings.defaults()))
				.isEqualTo(typed.settingsNotice(CompareSettings.defaults()));
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "run-b-effort-low.json" })
	void fixedParamsAndReplicatesAsTheTreeWroteThem(String contender) {
		Run baseline = load("reference.json");
		Run other = load(contender);
		FixedParams fixed = FixedParams.parse(List.of("concurrency=1"));
		Comparison comparison = new ComparisonBuilder().compare(List.of(baseline), List.of(other),
				CompareSettings.defaults(), BootstrapMedians.NONE, fixed, FixedParams.NONE);
		ComparisonSnapshot typed = ComparisonSnapshot.of(comparison, CompareSettings.defaults(), fixed,
				FixedParams.NONE, MAPPER);
		ObjectNode legacy = legacySnapshot(comparison, CompareSettings.defaults(), typed.computedAt());
		ObjectNode values = ((ObjectNode) legacy.get("baseline")).putObject("fixed");
		fixed.values().forEach(values::put);

		assertThat(MAPPER.writeValueAsString(typed)).isEqualTo(MAPPER.writeValueAsString(legacy));
	}

	/**
	 * The snapshot as ComparisonJson and site's ComparisonSnapshot.of built it as a tree,
	 * up to this change.
	 */
	private static ObjectNode legacySnapshot(Comparison comparison, CompareSettings defaults, String computedAt) {
		ObjectNode snapshot = ComparisonJson.toJson(comparison, SettingsDisclosure.of(comparison, defaults), MAPPER);
		snapshot.put("rules_version", ComparisonSnapshot.RULES_VERSION);
		ArrayNode baselineCaveats = ((ObjectNode) snapshot.get("baseline")).putArray("disclosed_caveats");
		comparison.baseline().provenance().caveats().forEach(baselineCaveats::add);
		ArrayNode contenderCaveats = ((ObjectNode) snapshot.get("contender")).putArray("disclosed_caveats");
		comparison.contender().provenance().caveats().forEach(contenderCaveats::add);
		snapshot.put("computed_at", computedAt);
		ArrayNode metrics = MAPPER.createArrayNode();
		for (String name : comparison.metrics()) {
			dev.parity.run.MetricDefinition definition = comparison.cells()
				.stream()
				.flatMap(cell -> cell.metrics().stream())
				.filter(m -> m.metric().equals(name))
				.findFirst()
				.map(ComparedMetric::definition)
				.orElseGet(() -> comparison.contender()
					.provenance()
					.catalogue()
					.find(name)
					.orElseGet(() -> comparison.baseline().provenance().catalogue().get(name)));
			ObjectNode metric = metrics.addObject();
			metric.put("metric", name);
			metric.put("unit", definition.unit());
			metric.put("better", definition.better());
			metric.put("output_sensitive", definition.outputSensitive());
		}
		snapshot.set("metrics", metrics);
		Iterator<JsonNode> headlines = snapshot.get("headlines").iterator();
		for (Headline headline : comparison.headlines()) {
			((ObjectNode) headlines.next()).put("sentence", headline.sentence(comparison.settings().band()));
		}
		Iterator<JsonNode> cells = snapshot.get("cells").iterator();
		for (ComparedCell cell : comparison.cells()) {
			ObjectNode cellJson = (ObjectNode) cells.next();
			cellJson.put("label", cell.params().label());
			Iterator<JsonNode> metricJson = cellJson.get("metrics").iterator();
			for (ComparedMetric metric : cell.metrics()) {
				ObjectNode entry = (ObjectNode) metricJson.next();
				entry.put("phrase", metric.ratioPhrase());
				entry.put("greyed", metric.greyed());
				entry.put("interval_phrase", metric.intervalPhrase());
				entry.put("verdict_phrase", metric.verdictWords());
			}
		}
		ArrayNode provenance = snapshot.putArray("provenance");
		for (ProvenanceDifference difference : comparison.provenance()) {
			ObjectNode row = provenance.addObject();
			row.put("field", difference.field());
			row.put("baseline", difference.baseline());
			row.put("contender", difference.contender());
			row.put("status", difference.status());
			row.put("rule", difference.rule());
		}
		snapshot.set("pareto", MAPPER.valueToTree(SweepViews.paretoOfComparison(comparison)));
		if (comparison.settings().slo().any()) {
			snapshot.set("goodput",
					MAPPER.valueToTree(SweepViews.goodputOfComparison(comparison, comparison.settings().slo())));
		}
		return snapshot;
	}

	private static Run load(String name) {
		try {
			JsonNode document = MAPPER.readTree(Files.readAllBytes(FIXTURES.resolve(name)));
			return new Run(RunId.random(), RunDocumentReader.read(document), "fp", Instant.now(), "test", List.of());
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot read fixture " + name, ex);
		}
	}

}
