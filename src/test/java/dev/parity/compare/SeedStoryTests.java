package dev.parity.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import dev.parity.Fixtures;
import dev.parity.run.Run;
import dev.parity.run.RunDocumentReader;
import dev.parity.run.RunId;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The expected outcomes 1–6 of {@code fixtures/seed-story/README.md}, against the
 * reference unless said, with the default settings.
 */
class SeedStoryTests {

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private static final Path FIXTURES = Fixtures.given().resolve("seed-story");

	private static final List<String> OUTPUT_SENSITIVE = List.of("decode_tps", "throughput_tps", "e2e_latency_s");

	private final Run reference = load("reference.json");

	@Test
	void controlRunSettlesIt() {
		Comparison comparison = compareWith("run-e-control.json");

		assertThat(comparison.headline("decode_tps")).hasValueSatisfying(headline -> {
			assertThat(headline.comparable()).isEqualTo(18);
			assertThat(headline.withinBand()).isEqualTo(18);
			assertThat(headline.medianRatio()).isCloseTo(1.011, within(0.0005));
			assertThat(headline.excluded()).isEqualTo(2);
			assertThat(headline.excludedReasons()).containsOnlyKeys("failures").containsEntry("failures", 2);
			assertThat(headline.sentence(0.10)).isEqualTo(
					"decode_tps — 18 of 18 comparable cells within ±10 %, median ratio 1.011; 2 excluded (failures ×2)");
		});
		assertThat(allFlags(comparison)).extracting(Flag::rule)
			.doesNotContain("checkpoint-differs", "checkpoint-unknown", "output-length-differs",
					"output-length-unknown");
		assertThat(metric(comparison, "cell-concurrency-1--prompt_tokens-32768", "ttft_s")).satisfies(ttft -> {
			assertThat(ttft.contender()).isEqualTo(16.73);
			assertThat(ttft.baseline()).isEqualTo(22.96);
			assertThat(ttft.ratio()).isCloseTo(0.729, within(0.0005));
			assertThat(ttft.comparable()).isTrue();
			assertThat(ttft.ratioPhrase()).isEqualTo("27 % less time (1.37× faster)");
		});
		assertThat(metric(comparison, "cell-concurrency-4--prompt_tokens-280", "ttft_s")).satisfies(ttft -> {
			assertThat(ttft.contender()).isEqualTo(3.41);
			assertThat(ttft.comparable()).isFalse();
			assertThat(ttft.flags()).anySatisfy(flag -> {
				assertThat(flag.rule()).isEqualTo("latency-spike");
				assertThat(flag.side()).isEqualTo("contender");
				assertThat(flag.message()).contains("3.41 s at concurrency 4, yet 1.07 s at concurrency 8");
			});
		});

		JsonNode json = MAPPER.valueToTree(ComparisonSnapshot.of(comparison, CompareSettings.defaults(), MAPPER));
		assertThat(jsonHeadline(json, "decode_tps").toString())
			.startsWith("{\"metric\":\"decode_tps\",\"comparable\":18," + "\"within_band\":18,\"median_ratio\":"
					+ comparison.headline("decode_tps").orElseThrow().medianRatio()
					+ ",\"excluded\":2,\"excluded_reasons\":{\"failures\":2},\"verdicts\":{\"within-band\":18,\"better\":0,"
					+ "\"worse\":0,\"inconclusive\":0},\"median_ratio_interval\":null,\"sentence\":");
		assertThat(jsonMetric(json, "cell-concurrency-4--prompt_tokens-280", "ttft_s").get("flags"))
			.anySatisfy(flag -> assertThat(flag.get("rule").asString()).isEqualTo("latency-spike"));
	}

	@Test
	void firstReadIsConfoundedEverywhere() {
		Comparison comparison = compareWith("run-a-thinking-max.json");

		assertThat(comparison.cells()).hasSize(20).allSatisfy(cell -> assertThat(cell.metrics()).allSatisfy(metric -> {
			assertThat(metric.comparable()).isFalse();
			assertThat(metric.flags()).extracting(Flag::rule).contains("checkpoint-differs");
		}));
		assertThat(comparison.cells()).filteredOn(cell -> hasRule(cell.flags(), "output-length-differs"))
			.hasSize(18)
			.allSatisfy(cell -> assertThat(cell.flags()).filteredOn(flag -> flag.rule().equals("output-length-differs"))
				.singleElement()
				.satisfies(flag -> assertThat(flag.greys()).containsAll(OUTPUT_SENSITIVE)
					.doesNotContain("ttft_s", "prefill_tps")))
			.extracting(ComparedCell::anchor)
			.doesNotContain("cell-concurrency-4--prompt_tokens-131072", "cell-concurrency-8--prompt_tokens-131072");
		assertThat(anchorsWith(comparison.contenderChecks(), "latency-spike")).containsExactly(
				"cell-concurrency-1--prompt_tokens-280", "cell-concurrency-2--prompt_tokens-280",
				"cell-concurrency-4--prompt_tokens-280");
		assertThat(comparison.contenderChecks().forCell("cell-concurrency-2--prompt_tokens-65536"))
			.extracting(Flag::rule)
			.contains("runaway", "unstable");
		assertThat(comparison.contenderChecks().forCell("cell-concurrency-2--prompt_tokens-65536"))
			.filteredOn(flag -> flag.rule().equals("runaway"))
			.singleElement()
			.satisfies(flag -> assertThat(flag.message()).contains("1,015,784").contains("median of 4,011"));
		assertThat(metric(comparison, "cell-concurrency-4--prompt_tokens-131072", "throughput_tps"))
			.satisfies(throughput -> {
				assertThat(throughput.ratioPhrase()).isEqualTo("+4,323 %");
				assertThat(throughput.comparable()).isFalse();
				assertThat(throughput.flags()).anySatisfy(flag -> {
					assertThat(flag.rule()).isEqualTo("failures");
					assertThat(flag.side()).isEqualTo("baseline");
					assertThat(flag.message()).startsWith("4 of 4 requests cancelled");
				});
			});
		assertThat(metric(comparison, "cell-concurrency-8--prompt_tokens-131072", "throughput_tps"))
			.satisfies(throughput -> {
				assertThat(throughput.ratioPhrase()).isEqualTo("+6,050 %");
				assertThat(throughput.flags()).extracting(Flag::rule).contains("failures");
			});
		assertThat(comparison.headline("throughput_tps"))
			.hasValueSatisfying(headline -> assertThat(headline.excludedReasons()).containsEntry("failures", 2));
		assertThat(comparison.contenderChecks().run()).extracting(Flag::rule).contains("no-warmup");
		assertThat(anchorsWith(comparison.contenderChecks(), "warning-inapplicable")).containsExactly(
				"cell-concurrency-1--prompt_tokens-280", "cell-concurrency-2--prompt_tokens-280",
				"cell-concurrency-4--prompt_tokens-280", "cell-concurrency-8--prompt_tokens-280");
		assertThat(comparison.headlines()).allSatisfy(headline -> {
			assertThat(headline.comparable()).isZero();
			assertThat(headline.medianRatio()).isNull();
		});

		JsonNode json = MAPPER.valueToTree(ComparisonSnapshot.of(comparison, CompareSettings.defaults(), MAPPER));
		assertThat(jsonMetric(json, "cell-concurrency-2--prompt_tokens-65536", "decode_tps").get("flags"))
			.extracting(flag -> flag.get("rule").asString() + "/" + flag.path("side").asString(""))
			.contains("checkpoint-differs/", "output-length-differs/", "runaway/contender", "unstable/contender");
		assertThat(json.get("headlines"))
			.allSatisfy(headline -> assertThat(headline.get("comparable").asInt()).isZero());
	}

	@Test
	void everyRequestFailingGreysEverything() {
		Comparison comparison = compareWith("run-b-effort-low.json");

		assertThat(comparison.contenderChecks().run()).extracting(Flag::rule).contains("all-failed", "unpinned");
		assertThat(comparison.flags()).extracting(Flag::rule).contains("checkpoint-unknown");
		assertThat(comparison.cells()).hasSize(20)
			.allSatisfy(cell -> assertThat(cell.metrics()).isNotEmpty().allSatisfy(metric -> {
				assertThat(metric.comparable()).isFalse();
				assertThat(metric.flags()).extracting(Flag::rule).contains("all-failed", "failures");
			}));
		assertThat(comparison.headlines()).allSatisfy(headline -> assertThat(headline.comparable()).isZero());
	}

	@Test
	void aDisclosedConfoundIsStillAConfound() {
		Comparison comparison = compareWith("run-c-effort-high.json");

		assertThat(comparison.flags()).extracting(Flag::rule).contains("checkpoint-differs");
		assertThat(comparison.cells()).filteredOn(cell -> hasRule(cell.flags(), "output-length-differs")).hasSize(18);
		assertThat(comparison.cell("cell-concurrency-1--prompt_tokens-8192").orElseThrow().flags())
			.filteredOn(flag -> flag.rule().equals("output-length-differs"))
			.singleElement()
			.satisfies(flag -> assertThat(flag.message()).startsWith("median output tokens per request 512 vs 828"));
		List<ComparedMetric> decode = comparison.cells()
			.stream()
			.flatMap(cell -> cell.metric("decode_tps").stream())
			.filter(metric -> metric.ratio() != null)
			.toList();
		assertThat(decode).hasSize(18).allSatisfy(metric -> assertThat(metric.comparable()).isFalse());
		assertThat(decode.stream().mapToDouble(ComparedMetric::ratio).max().orElseThrow()).isCloseTo(2.01,
				within(0.005));
		assertThat(metric(comparison, "cell-concurrency-1--prompt_tokens-32768", "decode_tps").ratioPhrase())
			.isEqualTo("+8.0 %");
		assertThat(metric(comparison, "cell-concurrency-2--prompt_tokens-131072", "decode_tps").ratioPhrase())
			.isEqualTo("+101 %");
		assertThat(comparison.contender().provenance().caveats()).isNotEmpty();
		assertThat(comparison.headline("decode_tps"))
			.hasValueSatisfying(headline -> assertThat(headline.comparable()).isZero());
	}

	@Test
	void aSettingAcceptedButNotObeyed() {
		Comparison comparison = compareWith("run-d-effort-off.json");

		assertThat(comparison.flags()).extracting(Flag::rule)
			.doesNotContain("checkpoint-differs", "checkpoint-unknown");
		for (String metric : OUTPUT_SENSITIVE) {
			assertThat(comparison.headline(metric)).hasValueSatisfying(headline -> {
				assertThat(headline.comparable()).isZero();
				assertThat(headline.excludedReasons()).containsEntry("output-length-differs", 18);
			});
		}
		for (String metric : List.of("ttft_s", "prefill_tps")) {
			assertThat(comparison.headline(metric)).hasValueSatisfying(headline -> {
				assertThat(headline.comparable()).isEqualTo(18);
				assertThat(headline.excludedReasons()).containsOnlyKeys("failures");
			});
		}
		assertThat(comparison.cells())
			.allSatisfy(cell -> assertThat(comparison.contenderChecks().forCell(cell.anchor()))
				.filteredOn(flag -> flag.rule().equals("setting-not-obeyed"))
				.singleElement()
				.satisfies(flag -> assertThat(flag.message()).startsWith("declared 512, measured 4,")
					.contains(": accepted, not obeyed")));
		assertThat(comparison.contenderChecks().forCell("cell-concurrency-1--prompt_tokens-8192")).anySatisfy(
				flag -> assertThat(flag.message()).startsWith("declared 512, measured 4,450: accepted, not obeyed"));
		assertThat(comparison.flags()).filteredOn(flag -> flag.rule().equals("params-differ"))
			.singleElement()
			.satisfies(flag -> assertThat(flag.message())
				.contains("{\"chat_template_kwargs\":{\"thinking\":false}} vs {\"reasoning_effort\":\"off\"}"));
		assertThat(comparison.provenance()).filteredOn(row -> row.field().equals("workload.request_params"))
			.singleElement()
			.satisfies(row -> {
				assertThat(row.status()).isEqualTo("differs");
				assertThat(row.rule()).isEqualTo("params-differ");
			});
	}

	@Test
	void theProbeShowsWhichLeverWorks() {
		RunFlags flags = RunChecks.check(load("probe-reasoning-levers.json").document(), CompareSettings.defaults());

		assertThat(anchorsWith(flags, "unstable"))
			.containsExactly("cell-concurrency-1--prompt_tokens-8192--setting-reasoning_effort-low");
		assertThat(flags.forCell("cell-concurrency-1--prompt_tokens-8192--setting-reasoning_effort-low"))
			.filteredOn(flag -> flag.rule().equals("unstable"))
			.singleElement()
			.satisfies(flag -> assertThat(flag.message()).contains("140–4,120 over 5 requests"));
		assertThat(anchorsWith(flags, "setting-not-obeyed")).containsExactly(
				"cell-concurrency-1--prompt_tokens-8192--setting-default",
				"cell-concurrency-1--prompt_tokens-8192--setting-reasoning_effort-high",
				"cell-concurrency-1--prompt_tokens-8192--setting-reasoning_effort-low",
				"cell-concurrency-1--prompt_tokens-8192--setting-reasoning_effort-off");
	}

	private Comparison compareWith(String contender) {
		return new ComparisonBuilder().compare(reference, load(contender), CompareSettings.defaults());
	}

	private static Run load(String name) {
		try {
			JsonNode document = MAPPER.readTree(Files.readAllBytes(FIXTURES.resolve(name)));
			return new Run(RunId.random(), RunDocumentReader.read(document), "fp", Instant.now(), "test", List.of());
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot read fixture " + name + " from " + FIXTURES.toAbsolutePath(), ex);
		}
	}

	/** Every flag anywhere in the comparison. */
	private static List<Flag> allFlags(Comparison comparison) {
		return Stream
			.of(comparison.flags().stream(), comparison.baselineChecks().all(), comparison.contenderChecks().all(),
					comparison.cells().stream().flatMap(cell -> cell.flags().stream()),
					comparison.cells()
						.stream()
						.flatMap(cell -> cell.metrics().stream())
						.flatMap(metric -> metric.flags().stream()))
			.flatMap(flags -> flags)
			.toList();
	}

	private static boolean hasRule(List<Flag> flags, String rule) {
		return flags.stream().anyMatch(flag -> flag.rule().equals(rule));
	}

	private static List<String> anchorsWith(RunFlags flags, String rule) {
		return flags.cells()
			.entrySet()
			.stream()
			.filter(cell -> hasRule(cell.getValue(), rule))
			.map(cell -> cell.getKey())
			.toList();
	}

	private static ComparedMetric metric(Comparison comparison, String anchor, String metric) {
		return comparison.cell(anchor).flatMap(cell -> cell.metric(metric)).orElseThrow();
	}

	private static JsonNode jsonHeadline(JsonNode json, String metric) {
		return json.get("headlines")
			.valueStream()
			.filter(headline -> headline.get("metric").asString().equals(metric))
			.findFirst()
			.orElseThrow();
	}

	private static JsonNode jsonMetric(JsonNode json, String anchor, String metric) {
		JsonNode cell = json.get("cells")
			.valueStream()
			.filter(c -> c.get("anchor").asString().equals(anchor))
			.findFirst()
			.orElseThrow();
		return cell.get("metrics")
			.valueStream()
			.filter(m -> m.get("metric").asString().equals(metric))
			.findFirst()
			.orElseThrow();
	}

}
