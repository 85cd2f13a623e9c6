package dev.parity.compare;

import java.util.List;

import dev.parity.run.MetricValue;
import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.settings;
import static org.assertj.core.api.Assertions.assertThat;

class ImplausibleRatioTests {

	private final ImplausibleRatio rule = new ImplausibleRatio();

	@Test
	void greysARatioBeyondTheFactor() {
		assertThat(check(3.2, 141.54, CompareSettings.defaults())).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("implausible-ratio");
			assertThat(flag.message()).isEqualTo(
					"ratio 44.231 (+4,323 %) is beyond 5× either way — check the other side before believing this");
			assertThat(flag.greys()).containsExactly("throughput_tps");
		});
		assertThat(check(304.35, 33.45, CompareSettings.defaults())).hasSize(1);
	}

	@Test
	void doesNotFireExactlyAtTheFactorEitherWay() {
		assertThat(check(2, 10, CompareSettings.defaults())).isEmpty();
		assertThat(check(10, 2, CompareSettings.defaults())).isEmpty();
		assertThat(check(2, 10.001, CompareSettings.defaults())).hasSize(1);
		assertThat(check(10, 1.999, CompareSettings.defaults())).hasSize(1);
	}

	@Test
	void followsTheConfiguredFactor() {
		assertThat(check(3.2, 141.54, settings("implausible", "50"))).isEmpty();
	}

	@Test
	void greysAgainstAZeroBaseline() {
		assertThat(check(0, 12, CompareSettings.defaults())).singleElement()
			.satisfies(flag -> assertThat(flag.message())
				.startsWith("the baseline's throughput_tps is 0, so no ratio exists"));
	}

	@Test
	void needsBothValues() {
		List<Flag> flags = rule.check(new MetricPair("throughput_tps", null, MetricValue.of(140)),
				new ComparisonContext(CompareSettings.defaults(), MetricScope.of()));

		assertThat(flags).isEmpty();
	}

	private List<Flag> check(double baseline, double contender, CompareSettings settings) {
		return rule.check(new MetricPair("throughput_tps", MetricValue.of(baseline), MetricValue.of(contender)),
				new ComparisonContext(settings, MetricScope.of()));
	}

}
