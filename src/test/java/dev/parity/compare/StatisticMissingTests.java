package dev.parity.compare;

import java.util.List;
import java.util.Map;

import dev.parity.run.MetricValue;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.settings;
import static org.assertj.core.api.Assertions.assertThat;

class StatisticMissingTests {

	private final StatisticMissing rule = new StatisticMissing();

	@Test
	void greysAMetricOneSideReportsWithoutTheComparedStatistic() {
		var flags = check(MetricValue.of(0.9), new MetricValue(Map.of("median", 0.9, "p99", 1.4), false),
				settings("stat", "p99"));

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("statistic-missing");
			assertThat(flag.message()).startsWith("ttft_s has no p99 on the baseline (it reports median)");
			assertThat(flag.greys()).containsExactly("ttft_s");
		});
	}

	@Test
	void neverComparesAMeanWithAMedian() {
		assertThat(check(MetricValue.of(0.9), new MetricValue(Map.of("mean", 0.95), false), CompareSettings.defaults()))
			.singleElement()
			.satisfies(flag -> assertThat(flag.message())
				.startsWith("ttft_s has no median on the contender (it reports mean)"));
		assertThat(check(MetricValue.of(0.9), MetricValue.of(0.95), settings("stat", "mean"))).singleElement()
			.satisfies(flag -> assertThat(flag.message())
				.contains("on the baseline (it reports median) nor on the contender"));
	}

	@Test
	void takesP50ForTheMedian() {
		assertThat(check(MetricValue.of(0.9), new MetricValue(Map.of("p50", 0.95), false), CompareSettings.defaults()))
			.isEmpty();
	}

	@Test
	void leavesAnAbsentMetricToTheHeadlinesMissingValue() {
		assertThat(check(null, MetricValue.of(0.95), CompareSettings.defaults())).isEmpty();
	}

	private List<Flag> check(@Nullable MetricValue baseline, @Nullable MetricValue contender,
			CompareSettings settings) {
		return rule.check(new MetricPair("ttft_s", baseline, contender),
				new ComparisonContext(settings, MetricScope.of()));
	}

}
