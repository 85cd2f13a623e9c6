package dev.parity.compare;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.parity.run.MetricCatalogue;
import dev.parity.run.Params;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class HeadlineTests {

	private static final String DECODE = "decode_tps";

	@Test
	void countsComparableCellsWithinTheInclusiveBandAndTheirInterpolatedMedianRatio() {
		Headline headline = Headline.over(DECODE, List.of(cell(1.0), cell(1.1), cell(0.9), cell(1.2)), 0.10);

		assertThat(headline.comparable()).isEqualTo(4);
		assertThat(headline.withinBand()).isEqualTo(3);
		assertThat(headline.medianRatio()).isCloseTo(1.05, within(1e-9));
		assertThat(headline.excluded()).isZero();
	}

	@Test
	void countsEachExcludedCellUnderEveryRuleThatGreysIt() {
		Flag failures = Flag.greying("failures", "4 of 4 cancelled", "…", Set.of(DECODE));
		Flag checkpoint = Flag.greying("checkpoint-differs", "other weights", "…", Set.of(DECODE));
		Flag note = Flag.annotation("setting-not-obeyed", "declared 512, measured 4,450", "…");
		Headline headline = Headline.over(DECODE,
				List.of(cell(1.0), cell(44.2, checkpoint, failures.onSide("baseline"), failures.onSide("contender")),
						cell(1.1, checkpoint, note), missing()),
				0.10);

		assertThat(headline.comparable()).isEqualTo(1);
		assertThat(headline.excluded()).isEqualTo(3);
		assertThat(headline.excludedReasons()).containsExactly(Map.entry("checkpoint-differs", 2),
				Map.entry("failures", 1), Map.entry("missing-value", 1));
	}

	@Test
	void skipsCellsWhereNeitherSideHasTheMetric() {
		ComparedCell elsewhere = new ComparedCell(Params.of(Map.of("prompt_tokens", 1)), "cell-prompt_tokens-1",
				List.of(), List.of());

		assertThat(Headline.over(DECODE, List.of(cell(1.0), elsewhere), 0.1).comparable()).isEqualTo(1);
		assertThat(Headline.over(DECODE, List.of(elsewhere), 0.1).medianRatio()).isNull();
	}

	@Test
	void saysItInOneSentence() {
		Headline story = new Headline(DECODE, 18, 18, 1.0113, 2, Map.of("failures", 2));
		Headline none = new Headline(DECODE, 0, 0, null, 20, Map.of("checkpoint-differs", 20));
		Headline one = new Headline(DECODE, 1, 0, 1.2, 0, Map.of());

		assertThat(story.sentence(0.10)).isEqualTo(
				"decode_tps — 18 of 18 comparable cells within ±10 %, median ratio 1.011; 2 excluded (failures ×2)");
		assertThat(none.sentence(0.10))
			.isEqualTo("decode_tps — no comparable cells; 20 excluded (checkpoint-differs ×20)");
		assertThat(one.sentence(0.05)).isEqualTo("decode_tps — 0 of 1 comparable cell within ±5 %, median ratio 1.200");
	}

	private static ComparedCell cell(double ratio, Flag... flags) {
		boolean greyed = Arrays.stream(flags).anyMatch(flag -> flag.greys(DECODE));
		return cell(new ComparedMetric(DECODE, MetricCatalogue.defaults().get(DECODE), 70.0, 70 * ratio, ratio, !greyed,
				List.of(flags)));
	}

	private static ComparedCell missing() {
		return cell(
				new ComparedMetric(DECODE, MetricCatalogue.defaults().get(DECODE), null, 70.0, null, false, List.of()));
	}

	private static ComparedCell cell(@Nullable ComparedMetric metric) {
		return new ComparedCell(Params.of(Map.of("prompt_tokens", 1)), "cell-prompt_tokens-1", List.of(),
				List.of(metric));
	}

}
