package dev.parity.compare;

import java.util.Map;

import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static dev.parity.compare.TestRuns.compare;
import static dev.parity.compare.TestRuns.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ComparisonBuilderTests {

	@Test
	void matchesCellsOnParamsWithNumbersComparedNumerically() {
		Comparison comparison = compare(aRun().cell(c -> c.params("prompt_tokens", 8192, "concurrency", 1).decode(70)),
				aRun().cell(c -> c.params("prompt_tokens", 8192.0, "concurrency", 1.0).decode(77)),
				CompareSettings.defaults());

		assertThat(comparison.cells()).singleElement().satisfies(cell -> {
			assertThat(cell.anchor()).isEqualTo("cell-concurrency-1--prompt_tokens-8192");
			assertThat(cell.metric("decode_tps")).hasValueSatisfying(metric -> {
				assertThat(metric.baseline()).isEqualTo(70);
				assertThat(metric.contender()).isEqualTo(77);
				assertThat(metric.ratio()).isCloseTo(1.1, within(1e-9));
				assertThat(metric.comparable()).isTrue();
				assertThat(metric.flags()).isEmpty();
			});
		});
		assertThat(comparison.unmatched()).isEmpty();
	}

	@Test
	void showsCellsOnOneSideApartAndOutsideTheHeadline() {
		Comparison comparison = compare(
				aRun().cell(c -> c.params("prompt_tokens", 280).decode(70))
					.cell(c -> c.params("prompt_tokens", 512).decode(70)),
				aRun().cell(c -> c.params("prompt_tokens", 280).decode(70))
					.cell(c -> c.params("prompt_tokens", 1024).decode(9)),
				CompareSettings.defaults());

		assertThat(comparison.unmatched()).extracting(UnmatchedCell::side, UnmatchedCell::anchor)
			.containsExactly(Tuple.tuple("baseline", "cell-prompt_tokens-512"),
					Tuple.tuple("contender", "cell-prompt_tokens-1024"));
		assertThat(comparison.headline("decode_tps")).hasValueSatisfying(headline -> {
			assertThat(headline.comparable()).isEqualTo(1);
			assertThat(headline.excluded()).isZero();
		});
	}

	@Test
	void carriesBothRunsChecksWithTheirSide() {
		Comparison comparison = compare(aRun().cell(c -> c.requests(3, 1, 0).decode(70)),
				aRun().warmup(0).cell(c -> c.decode(71)), CompareSettings.defaults());

		assertThat(comparison.contenderChecks().run()).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("no-warmup");
			assertThat(flag.side()).isEqualTo("contender");
		});
		ComparedCell cell = comparison.cells().get(0);
		assertThat(cell.flags()).extracting(Flag::rule, Flag::side)
			.containsExactly(Tuple.tuple("failures", "baseline"));
		assertThat(cell.metric("decode_tps")).hasValueSatisfying(metric -> {
			assertThat(metric.comparable()).isFalse();
			assertThat(metric.flags()).extracting(Flag::rule).containsExactly("failures");
		});
	}

	@Test
	void neverCountsARatioAgainstACancelledSide() {
		Comparison comparison = compare(
				aRun().cell(c -> c.requests(0, 0, 4).noOutputTokens().throughput(3.2))
					.cell(c -> c.params("prompt_tokens", 280).throughput(70)),
				aRun().cell(c -> c.throughput(141.54).decode(36)), CompareSettings.defaults());

		ComparedCell cell = comparison.cells().get(0);
		assertThat(cell.metric("throughput_tps")).hasValueSatisfying(metric -> {
			assertThat(metric.ratio()).isCloseTo(44.23, within(0.01));
			assertThat(metric.comparable()).isFalse();
			assertThat(metric.greyed()).isTrue();
			assertThat(metric.flags()).extracting(Flag::rule).containsExactly("failures", "implausible-ratio");
		});
		assertThat(cell.metric("decode_tps")).hasValueSatisfying(metric -> {
			assertThat(metric.baseline()).isNull();
			assertThat(metric.flags()).extracting(Flag::rule).containsExactly("failures");
		});
	}

	@Test
	void listsOnAMetricEveryFlagThatGreysOrIsAboutIt() {
		Comparison comparison = compare(aRun().cell(c -> c.ttft(1.0).decode(70)),
				aRun().commit(TestRuns.OTHER_COMMIT)
					.warmup(0)
					.cell(c -> c.outputTokens(900).metric("ttft_s", Map.of("median", 1.0, "mean", 3.0)).decode(80)),
				CompareSettings.defaults());

		ComparedCell cell = comparison.cells().get(0);
		assertThat(cell.metric("ttft_s"))
			.hasValueSatisfying(metric -> assertThat(metric.flags()).extracting(Flag::rule, Flag::side)
				.containsExactly(Tuple.tuple("checkpoint-differs", null), Tuple.tuple("skewed", "contender")));
		assertThat(cell.metric("decode_tps"))
			.hasValueSatisfying(metric -> assertThat(metric.flags()).extracting(Flag::rule)
				.containsExactly("checkpoint-differs", "output-length-differs"));
		assertThat(comparison.flags()).extracting(Flag::rule).containsExactly("checkpoint-differs");
	}

	@Test
	void comparesTheRequestedStatistic() {
		Comparison comparison = compare(aRun().cell(c -> c.metric("ttft_s", Map.of("median", 1.0, "p99", 2.0))),
				aRun().cell(c -> c.metric("ttft_s", Map.of("median", 1.0, "p99", 3.0))), settings("stat", "p99"));

		assertThat(comparison.cells().get(0).metric("ttft_s")).hasValueSatisfying(metric -> {
			assertThat(metric.baseline()).isEqualTo(2.0);
			assertThat(metric.contender()).isEqualTo(3.0);
			assertThat(metric.ratio()).isEqualTo(1.5);
			assertThat(metric.comparable()).isTrue();
		});
	}

	@Test
	void keepsTtftComparableWhenOneSideLacksOutputTokens() {
		Comparison comparison = compare(aRun().cell(c -> c.ttft(1.0).decode(70)),
				aRun().cell(c -> c.noOutputTokens().ttft(1.02).decode(71)), CompareSettings.defaults());

		ComparedCell cell = comparison.cells().get(0);
		assertThat(cell.metric("ttft_s")).hasValueSatisfying(metric -> assertThat(metric.comparable()).isTrue());
		assertThat(cell.metric("decode_tps")).hasValueSatisfying(metric -> {
			assertThat(metric.comparable()).isFalse();
			assertThat(metric.flags()).extracting(Flag::rule).containsExactly("output-length-unknown");
		});
	}

	@Test
	void annotatesUnknownRequestOutcomesWithoutGreying() {
		Comparison comparison = compare(aRun().cell(c -> c.decode(70)),
				aRun().cell(c -> c.requests(4, null, null).decode(71)), CompareSettings.defaults());

		ComparedCell cell = comparison.cells().get(0);
		assertThat(cell.flags()).extracting(Flag::rule).containsExactly("outcomes-unknown");
		assertThat(cell.metric("decode_tps")).hasValueSatisfying(metric -> assertThat(metric.comparable()).isTrue());
	}

	@Test
	void copesWithSamplesOnOneSideOnly() {
		Comparison comparison = compare(aRun().cell(c -> c.decode(70).sampleValues("decode_tps", 69, 70, 71, 70, 70)),
				aRun().cell(c -> c.decode(71)), CompareSettings.defaults());

		assertThat(comparison.cells().get(0).metric("decode_tps"))
			.hasValueSatisfying(metric -> assertThat(metric.comparable()).isTrue());
	}

	@Test
	void computesTheCarriedRunChecksWithTheComparisonsSettings() {
		Comparison comparison = compare(aRun().cell(c -> c.requests(3, 1, 0).decode(70)),
				aRun().cell(c -> c.decode(71)), settings("failure_tolerance", "0.25"));

		assertThat(comparison.baselineChecks().all()).isEmpty();
		assertThat(comparison.cells().get(0).metric("decode_tps"))
			.hasValueSatisfying(metric -> assertThat(metric.comparable()).isTrue());
	}

	@Test
	void ordersMetricsAsTheCatalogueThenTheRunsOwnLeavingOutThoseOnlySampled() {
		Comparison comparison = compare(aRun().cell(c -> c.decode(70).ttft(1).sampleValues("itl_ms", 20, 21, 19)),
				aRun().metricDefinition("gpu_power_w", "W", false, false)
					.cell(c -> c.metric("gpu_power_w", 300).decode(71)),
				CompareSettings.defaults());

		assertThat(comparison.metrics()).containsExactly("ttft_s", "decode_tps", "gpu_power_w");
		assertThat(comparison.headlines()).extracting(Headline::metric)
			.containsExactly("ttft_s", "decode_tps", "gpu_power_w");
		assertThat(comparison.headline("gpu_power_w")).hasValueSatisfying(headline -> {
			assertThat(headline.excluded()).isEqualTo(1);
			assertThat(headline.excludedReasons()).containsExactly(Map.entry("missing-value", 1));
		});
	}

}
