package dev.parity.compare;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import dev.parity.run.Cell;
import dev.parity.run.Params;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Goodput counted from samples by hand: TTFT ≤ 2 s and TPOT ≤ 50 ms, for 75 % of
 * requests.
 */
class GoodputTests {

	private static final ServiceLevels SLO = ServiceLevels.NONE
		.withOverrides(Map.of("slo_ttft_s", "2", "slo_tpot_ms", "50", "slo_share", "0.75"));

	@Test
	void aCellsShareCountsCompletedRequestsMeetingEveryObjective() {
		// 1: 1.0 s, 40 ms — meets; 2: 2.0 s, 50 ms — meets (a bound is inclusive); 3: 2.5
		// s — TTFT too long;
		// 4: no tpot_ms, (6.5 − 1.5) s × 1000 / (101 − 1) tokens = 50 ms — meets; 5:
		// failed — meets nothing
		Cell cell = new TestRuns.CellBuilder().params("concurrency", 4)
			.requests(4, 1, 0)
			.sampleValues("ttft_s", 1.0, 2.0, 2.5, 1.5, 0.1)
			.sampleValues("tpot_ms", 40, 50, 30)
			.sampleValues("e2e_latency_s", 9, 9, 9, 6.5, 9)
			.sampleOutputTokens(200, 200, 200, 101, 200)
			.sampleStatus(4, "failed")
			.build();

		Goodput.CellGoodput goodput = Goodput.of(cell, SLO, List.of());

		assertThat(goodput.requests()).isEqualTo(5);
		assertThat(goodput.meeting()).isEqualTo(3);
		assertThat(goodput.share()).isEqualTo(0.6);
		assertThat(goodput.meets(0.75)).isFalse();
	}

	@Test
	void requestsTheSamplesLeaveOutCountAsNotMeeting() {
		// four completed samples, all meeting; the cell also records one failed request
		// without a sample: 4 of 5
		Cell cell = new TestRuns.CellBuilder().requests(4, 1, 0)
			.sampleValues("ttft_s", 1, 1, 1, 1)
			.sampleValues("tpot_ms", 10, 10, 10, 10)
			.build();

		assertThat(Goodput.of(cell, SLO, List.of()).share()).isEqualTo(0.8);
	}

	@Test
	void noShareWithoutSamplesOrWhenASampleLacksAMeasure() {
		Cell noSamples = new TestRuns.CellBuilder().ttft(1).build();
		Cell noTpot = new TestRuns.CellBuilder().sampleValues("ttft_s", 1, 1).build();

		assertThat(Goodput.of(noSamples, SLO, List.of()).share()).isNull();
		assertThat(Goodput.of(noSamples, SLO, List.of()).missing()).isEqualTo("no per-request samples");
		assertThat(Goodput.of(noTpot, SLO, List.of()).share()).isNull();
		assertThat(Goodput.of(noTpot, SLO, List.of()).missing()).contains("tpot_ms");
	}

	@Test
	void theHighestConcurrencyMeetingTheObjectivesSkipsGreyedCells() {
		List<Goodput.CellGoodput> cells = List.of(cell(1, 4, 4, List.of()), // 1.0
				cell(2, 4, 5, List.of()), // 0.8 ≥ 0.75
				cell(4, 3, 5, List.of()), // 0.6
				cell(8, 5, 5, List.of("runaway"))); // 1.0, greyed

		assertThat(Goodput.highest(cells, 0.75)).singleElement()
			.satisfies(best -> assertThat(best.concurrency()).isEqualByComparingTo(BigDecimal.valueOf(2)));
		assertThat(Goodput.highest(cells, 0.95)).singleElement()
			.satisfies(best -> assertThat(best.concurrency()).isEqualByComparingTo(BigDecimal.ONE));
		assertThat(Goodput.highest(cells.subList(2, 4), 0.5)).singleElement()
			.satisfies(best -> assertThat(best.concurrency()).isEqualByComparingTo(BigDecimal.valueOf(4)));
		assertThat(Goodput.highest(cells.subList(3, 4), 0.5)).singleElement()
			.satisfies(best -> assertThat(best.concurrency()).isNull());
	}

	@Test
	void withoutSamplesWhetherACellMeetsTheObjectivesIsUnknownNotNo() {
		Cell noSamples = new TestRuns.CellBuilder().ttft(1).build();

		assertThat(Goodput.of(noSamples, SLO, List.of()).meets(0.9)).isNull();
		assertThat(Goodput.of(noSamples, SLO, List.of("runaway")).meets(0.9)).isNull();
	}

	@Test
	void theHighestConcurrencyIsUnknownWhenACellAboveTheHighestKnownHasNoShare() {
		Goodput.CellGoodput unknownAt4 = new Goodput.CellGoodput(
				Params.of(Map.of("prompt_tokens", 1024, "concurrency", 4)), 5, 0, null, "no per-request samples",
				List.of());
		Goodput.CellGoodput unknownAt1 = new Goodput.CellGoodput(
				Params.of(Map.of("prompt_tokens", 1024, "concurrency", 1)), 5, 0, null, "no per-request samples",
				List.of());

		assertThat(Goodput.highest(List.of(cell(1, 4, 4, List.of()), cell(2, 4, 5, List.of()), unknownAt4), 0.75))
			.singleElement()
			.satisfies(best -> {
				assertThat(best.concurrency()).isNull();
				assertThat(best.missing()).isEqualTo("no per-request samples");
			});
		// Below the highest known to meet them, a cell without samples changes nothing.
		assertThat(Goodput.highest(List.of(unknownAt1, cell(2, 4, 5, List.of())), 0.75)).singleElement()
			.satisfies(best -> {
				assertThat(best.concurrency()).isEqualByComparingTo(BigDecimal.valueOf(2));
				assertThat(best.missing()).isNull();
			});
		assertThat(Goodput.highest(List.of(unknownAt1, unknownAt4), 0.75)).singleElement()
			.satisfies(best -> assertThat(best.concurrency()).isNull());
	}

	@Test
	void badObjectivesAreRefusedByName() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ServiceLevels.NONE.withOverrides(Map.of("slo_ttft_s", "fast")))
			.withMessageContaining("slo_ttft_s");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ServiceLevels.NONE.withOverrides(Map.of("slo_tpot_ms", "-1")))
			.withMessageContaining("slo_tpot_ms");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ServiceLevels.NONE.withOverrides(Map.of("slo_share", "1.5")))
			.withMessageContaining("slo_share");
	}

	@Test
	void objectivesTravelWithTheSettingsButGreyNothingAndNeedNoReason() {
		CompareSettings settings = TestRuns.settings("slo_ttft_s", "2", "band", "0.1");

		assertThat(settings.slo().ttftS()).isEqualTo(2.0);
		assertThat(settings.asMap()).containsEntry("slo_ttft_s", 2.0)
			.containsEntry("slo_share", 0.9)
			.doesNotContainKey("slo_tpot_ms");
		assertThat(CompareSettings.defaults().asMap()).doesNotContainKeys("slo_ttft_s", "slo_share");
		assertThat(SettingsDisclosure.differences(settings, CompareSettings.defaults())).isEmpty();
	}

	private static Goodput.CellGoodput cell(int concurrency, int meeting, int requests, List<String> greyedBy) {
		return new Goodput.CellGoodput(Params.of(Map.of("prompt_tokens", 1024, "concurrency", concurrency)), requests,
				meeting, (double) meeting / requests, null, greyedBy);
	}

}
