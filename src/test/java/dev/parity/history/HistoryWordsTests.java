package dev.parity.history;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The words history is said in: cells, signed changes, p-values, series, folded versions,
 * an alert's headline.
 */
class HistoryWordsTests {

	@Test
	void aCellIsSaidFromItsParametersConcurrencyFirst() {
		Map<String, Object> params = new LinkedHashMap<>();
		params.put("prompt_tokens", 512);
		params.put("concurrency", 1);
		assertThat(HistoryWords.cell(params, "cell-x")).isEqualTo("c=1 × 512 tokens");
		Map<String, Object> others = new LinkedHashMap<>();
		others.put("target_prompt_tokens", "4096");
		others.put("output_len", 256);
		others.put("request_rate", 2.5);
		others.put("batch_size", 16);
		others.put("setting", "eager");
		assertThat(HistoryWords.cell(others, "cell-y"))
			.isEqualTo("4,096 tokens × 256 tokens out × 2.5 req/s × batch 16 × setting eager");
		assertThat(HistoryWords.cell(Map.of(), "cell-z")).isEqualTo("cell-z");
	}

	@Test
	void aChangeIsTheMetricsShortNameWithItsSignAndDirection() {
		assertThat(HistoryWords.change("decode_tps", 100, 91.3)).isEqualTo("decode −8.7 %");
		assertThat(HistoryWords.direction("decode_tps", 100, 91.3)).isEqualTo("worse");
		assertThat(HistoryWords.change("ttft_s", 0.5, 0.6)).isEqualTo("TTFT +20.0 %");
		assertThat(HistoryWords.direction("ttft_s", 0.5, 0.6)).isEqualTo("worse");
		assertThat(HistoryWords.direction("ttft_s", 0.6, 0.5)).isEqualTo("better");
		assertThat(HistoryWords.change("my_metric", 1, 1.0001)).isEqualTo("my_metric ±0.0 %");
	}

	@Test
	void pValuesAreRounded() {
		assertThat(HistoryWords.pvalue(1.234e-7)).isEqualTo("p < 0.0001");
		assertThat(HistoryWords.pvalue(0.000312345)).isEqualTo("p = 0.00031");
		assertThat(HistoryWords.pvalue(0.41234)).isEqualTo("p = 0.41");
	}

	@Test
	void aSeriesIsNamedBySystemModelAndEngineWithABranchOtherThanTheDefault() {
		SeriesKey main = new SeriesKey("h100-box", "org/model-7b", "vllm", "vllm bench serve", "main", "{}");
		assertThat(HistoryWords.series(main, "main")).isEqualTo("h100-box / org/model-7b / vllm");
		SeriesKey branch = new SeriesKey("h100-box", "org/model-7b", "vllm", "vllm bench serve", "fuse", "{}");
		assertThat(HistoryWords.series(branch, "main")).isEqualTo("h100-box / org/model-7b / vllm · branch fuse");
	}

	@Test
	void versionsFoldIntoTheirFirstTwoAndLast() {
		assertThat(HistoryInWords.chain(List.of("0.6.1", "0.6.2", "0.6.3"))).isEqualTo("0.6.1 → 0.6.2 → 0.6.3");
		assertThat(HistoryInWords.chain(List.of("0.6.1", "0.6.2", "0.6.3", "0.7.0", "0.7.3")))
			.isEqualTo("0.6.1 → 0.6.2 → … → 0.7.3");
	}

	@Test
	void anAlertsHeadlineSaysEachMetricOnceWithItsRangeOrItsCell() {
		Map<String, Object> one = Map.of("concurrency", 1);
		Map<String, Object> eight = Map.of("concurrency", 8);
		List<HistoryInWords.ChangeInWords> changes = List.of(
				HistoryInWords.change(one, "a", "decode_tps", 100, 80.3, 1e-6),
				HistoryInWords.change(eight, "b", "decode_tps", 100, 79.6, 1e-6),
				HistoryInWords.change(one, "a", "ttft_s", 1, 1.2, 1e-6));
		assertThat(HistoryInWords.headline(changes))
			.isEqualTo("decode −20.4 to −19.7 % in 2 cells · TTFT +20.0 % at c=1");
	}

	@Test
	void aVerdictsHeadlineIsTheHeadlineOfItsRegressionsInWords() {
		java.util.SplittableRandom random = new java.util.SplittableRandom(20261205);
		List<String> metrics = List.of("decode_tps", "ttft_s", "throughput_tps", "prefill_tps", "e2e_latency_s");
		for (int round = 0; round < 500; round++) {
			List<Verdicts.Regression> regressions = new java.util.ArrayList<>();
			int count = 1 + random.nextInt(12);
			for (int i = 0; i < count; i++) {
				Map<String, Object> params = Map.of("concurrency", 1 << random.nextInt(4), "prompt_tokens",
						random.nextInt(3) * 4096 + 512);
				// Ratios that round alike and apart, either way.
				double ratio = random.nextBoolean() ? 0.8 + random.nextInt(5) * 0.0001 : random.nextDouble(0.3, 3);
				regressions.add(new Verdicts.Regression(params, "c" + i, metrics.get(random.nextInt(metrics.size())),
						ratio, random.nextBoolean(), null, 0));
			}
			List<HistoryInWords.ChangeInWords> changes = regressions.stream()
				.map(r -> HistoryInWords.change(r.params(), r.anchor(), r.metric(), 1, r.ratio(), null))
				.toList();
			assertThat(HistoryInWords.regressionsHeadline(regressions)).isEqualTo(HistoryInWords.headline(changes));
		}
	}

}
