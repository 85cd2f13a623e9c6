package dev.parity.compare;

import java.util.List;

import dev.parity.run.MetricCatalogue;
import dev.parity.run.MetricDefinition;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ComparedMetricTests {

	@Test
	void saysLowerIsBetterTimesAsTimeSavedOrLost() {
		assertThat(metric("ttft_s", 22.96, 16.73).ratioPhrase()).isEqualTo("27 % less time (1.37× faster)");
		assertThat(metric("ttft_s", 0.92, 8.37).ratioPhrase()).isEqualTo("+810 % more time (9.1× slower)");
		assertThat(metric("tpot_ms", 20, 19.2).ratioPhrase()).isEqualTo("4.0 % less time (1.04× faster)");
	}

	@Test
	void saysHigherIsBetterAsASignedChange() {
		assertThat(metric("decode_tps", 65.2, 69.4).ratioPhrase()).isEqualTo("+6.4 %");
		assertThat(metric("decode_tps", 100, 95).ratioPhrase()).isEqualTo("−5.0 %");
		assertThat(metric("decode_tps", 65.2, 131.1).ratioPhrase()).isEqualTo("+101 %");
		assertThat(metric("throughput_tps", 3.2, 141.54).ratioPhrase()).isEqualTo("+4,323 %");
	}

	@Test
	void saysOtherLowerIsBetterMetricsAsBetterOrWorse() {
		MetricDefinition power = new MetricDefinition("gpu_power_w", "W", false, false);

		assertThat(new ComparedMetric("gpu_power_w", power, 300.0, 240.0, 0.8, true, List.of()).ratioPhrase())
			.isEqualTo("−20 % (1.25× better)");
		assertThat(new ComparedMetric("gpu_power_w", power, 240.0, 300.0, 1.25, true, List.of()).ratioPhrase())
			.isEqualTo("+25 % (1.25× worse)");
	}

	@Test
	void saysWhenThereIsNoRatioOrNoChange() {
		assertThat(metric("decode_tps", null, 70.0).ratioPhrase()).isEqualTo("no ratio");
		assertThat(metric("ttft_s", 1.0, 1.0).ratioPhrase()).isEqualTo("no change");
	}

	private static ComparedMetric metric(String name, @Nullable Double baseline, @Nullable Double contender) {
		Double ratio = baseline == null || contender == null ? null : contender / baseline;
		return new ComparedMetric(name, MetricCatalogue.defaults().get(name), baseline, contender, ratio, ratio != null,
				List.of());
	}

	private static ComparedMetric metric(String name, double baseline, double contender) {
		return metric(name, (Double) baseline, (Double) contender);
	}

}
