package dev.parity.compare;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import dev.parity.Fixtures;
import dev.parity.run.Run;
import dev.parity.run.RunDocumentReader;
import dev.parity.run.RunId;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The figures a comparison shows — ratios, flags, every cell's interval and verdict, the
 * headlines and their intervals — are the ones it has always shown for the same runs:
 * work on how fast they are computed must not move a single digit. The expected JSON
 * ({@code comparison-figures.json}) was written by the code before that work (the API's
 * fields of the day; the snapshot's are compared where it has them); run with
 * {@code -Dparity.figures.write=<file>} to write it again, only when a new rules version
 * changes figures on purpose. Rules 2026-12-04.1 wrote it again: the within-run intervals
 * of single runs became the exact quantiles of the bootstrap law of the median (ends
 * moved by a median 0.1 %, at most 1 %, of the 1,000-resample ones; a few verdicts at a
 * band edge with them), the headlines' median-ratio intervals are resampled from those
 * laws; ratios, flags and every other figure are unchanged. Rules 2026-12-04.2 wrote it
 * again: those ends became the exact quantiles where a bisection had stopped within 10⁻¹²
 * above them (432 ends moved, by at most 6 × 10⁻¹³ of themselves; nothing else).
 */
class ComparisonFiguresTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final Instant UPLOADED = Instant.parse("2026-11-01T00:00:00Z");

	@Test
	void everyFigureIsTheOneComputedBefore() throws IOException {
		ObjectNode figures = JSON.createObjectNode();
		comparisons().forEach((name, comparison) -> figures.set(name,
				JSON.valueToTree(ComparisonSnapshot.of(comparison, CompareSettings.defaults(), JSON))));
		String written = System.getProperty("parity.figures.write");
		if (written != null) {
			Files.writeString(Path.of(written), figures.toString(), StandardCharsets.UTF_8);
		}
		JsonNode expected;
		try (var in = ComparisonFiguresTests.class.getResourceAsStream("/comparison-figures.json")) {
			expected = JSON.readTree(in);
		}
		// Both read from text, so that a number is the same node whichever way it was
		// made.
		JsonNode computed = JSON.readTree(figures.toString());
		assertThat(computed.propertyNames()).containsExactlyElementsOf(expected.propertyNames());
		for (String name : expected.propertyNames()) {
			assertThat(figuresOf(computed.get(name), expected.get(name))).as(name).isEqualTo(expected.get(name));
		}
		assertThat(figures.toString()).as("intervals are among the figures").contains("\"interval\":{");
	}

	/**
	 * The figures of a comparison's snapshot that the expected JSON holds: its fields
	 * without the words and views the snapshot adds for pages (phrases, sentences, the
	 * Pareto view), element by element.
	 */
	private static JsonNode figuresOf(JsonNode computed, JsonNode expected) {
		if (expected.isObject() && computed.isObject()) {
			ObjectNode kept = JSON.createObjectNode();
			for (String name : expected.propertyNames()) {
				if (computed.has(name)) {
					kept.set(name, figuresOf(computed.get(name), expected.get(name)));
				}
			}
			return kept;
		}
		if (expected.isArray() && computed.isArray() && expected.size() == computed.size()) {
			ArrayNode kept = JSON.createArrayNode();
			for (int i = 0; i < expected.size(); i++) {
				kept.add(figuresOf(computed.get(i), expected.get(i)));
			}
			return kept;
		}
		return computed;
	}

	/**
	 * Single runs of many cells with samples, groups of replicates, and the seed story
	 * against its reference.
	 */
	private static Map<String, Comparison> comparisons() {
		ComparisonBuilder builder = new ComparisonBuilder();
		Map<String, Comparison> comparisons = new LinkedHashMap<>();
		Run base = grid("goldenbase", 1, 1.0);
		Run contender = grid("goldencont", 2, 0.93);
		comparisons.put("grid", builder.compare(base, contender, CompareSettings.defaults()));
		comparisons.put("grid, reversed", builder.compare(contender, base, CompareSettings.defaults()));
		comparisons.put("grid, loosened", builder.compare(base, contender,
				CompareSettings.defaults().withOverrides(Map.of("output_tolerance", "10", "band", "0.01"))));
		List<Run> baselines = new ArrayList<>();
		List<Run> contenders = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			baselines.add(grid("goldenba" + i + "a", 10 + i, 1.0));
			contenders.add(grid("goldenco" + i + "b", 20 + i, 1.05));
		}
		comparisons.put("groups of 8",
				builder.compare(baselines, contenders, CompareSettings.defaults(), BootstrapMedians.FROM_SAMPLES));
		comparisons.put("groups of 3", builder.compare(baselines.subList(0, 3), contenders.subList(0, 3),
				CompareSettings.defaults(), BootstrapMedians.FROM_SAMPLES));
		Run reference = seedStory("reference.json", "reference0");
		int n = 0;
		for (String name : Fixtures.seedStoryNames()) {
			if (!name.equals("reference.json")) {
				comparisons.put("reference..." + name,
						builder.compare(reference, seedStory(name, "seedstory" + n++), CompareSettings.defaults()));
			}
		}
		return comparisons;
	}

	/**
	 * A run of 4 prompt lengths × 6 concurrencies, each cell with 60 samples of three
	 * metrics drawn from the seed, {@code speed} times as fast; its cells run in order,
	 * so a cold cell can be greyed.
	 */
	private static Run grid(String id, long seed, double speed) {
		SplittableRandom random = new SplittableRandom(seed);
		TestRuns.RunBuilder run = TestRuns.aRun();
		int order = 1;
		for (int prompt : new int[] { 256, 1024, 4096, 16384 }) {
			for (int concurrency : new int[] { 1, 2, 4, 8, 16, 32 }) {
				double ttft = 0.02 * prompt / 1024 * (1 + concurrency / 8.0) / speed;
				double decode = 90.0 * speed / (1 + concurrency / 16.0);
				double[] ttfts = new double[60];
				double[] decodes = new double[60];
				double[] tpots = new double[60];
				for (int s = 0; s < 60; s++) {
					ttfts[s] = ttft * (0.8 + 0.4 * random.nextDouble()) * (s == 7 && concurrency == 4 ? 9 : 1);
					decodes[s] = decode * (0.9 + 0.2 * random.nextDouble());
					tpots[s] = 1000 / decodes[s];
				}
				int cell = order++;
				run.cell(c -> c.params("prompt_tokens", prompt, "concurrency", concurrency)
					.order(cell)
					.requests(60, 0, 0)
					.ttft(median(ttfts))
					.decode(median(decodes))
					.metric("tpot_ms", median(tpots))
					.sampleValues("ttft_s", ttfts)
					.sampleValues("decode_tps", decodes)
					.sampleValues("tpot_ms", tpots));
			}
		}
		return new Run(new RunId(id), run.document(), "fp", UPLOADED, "test", List.of());
	}

	private static double median(double[] values) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		return (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
	}

	private static Run seedStory(String name, String id) {
		JsonNode document = JSON.readTree(Fixtures.read(Fixtures.given().resolve("seed-story").resolve(name)));
		return new Run(new RunId(id), RunDocumentReader.read(document), "fp", UPLOADED, "test", List.of());
	}

}
