package dev.parity.ingest.harness;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class MetricUnitTests {

	@Test
	void convertsIntoTheCatalogueUnits() {
		assertThat(MetricUnit.MILLISECONDS.convert(217.27, MetricUnit.SECONDS)).isCloseTo(0.21727, within(1e-15));
		assertThat(MetricUnit.SECONDS.convert(MetricUnit.MILLISECONDS.convert(217.27, MetricUnit.SECONDS),
				MetricUnit.MILLISECONDS))
			.isEqualTo(217.27);
		assertThat(MetricUnit.SECONDS.convert(0.0724, MetricUnit.MILLISECONDS)).isEqualTo(72.4);
		assertThat(MetricUnit.REQUESTS_PER_MINUTE.convert(180, MetricUnit.REQUESTS_PER_SECOND)).isEqualTo(3.0);
		assertThat(MetricUnit.MICROSECONDS.convert(1500, MetricUnit.MILLISECONDS)).isEqualTo(1.5);
	}

	@Test
	void knowsTheUnitEachCatalogueMetricIsIn() {
		assertThat(MetricUnit.ofCatalogueMetric("ttft_s")).contains(MetricUnit.SECONDS);
		assertThat(MetricUnit.ofCatalogueMetric("itl_ms")).contains(MetricUnit.MILLISECONDS);
		assertThat(MetricUnit.ofCatalogueMetric("decode_tps")).contains(MetricUnit.TOKENS_PER_SECOND);
		assertThat(MetricUnit.ofCatalogueMetric("request_throughput")).contains(MetricUnit.REQUESTS_PER_SECOND);
		assertThat(MetricUnit.ofCatalogueMetric("gpu_power_w")).isEmpty();
	}

	@Test
	void readsTheNamesHarnessesUseAndRefusesToMixDimensions() {
		assertThat(MetricUnit.parse("tokens/sec/user")).contains(MetricUnit.TOKENS_PER_SECOND);
		assertThat(MetricUnit.parse(" Sec ")).contains(MetricUnit.SECONDS);
		assertThat(MetricUnit.parse("furlongs")).isEmpty();
		assertThatThrownBy(() -> MetricUnit.MILLISECONDS.convert(1, MetricUnit.TOKENS_PER_SECOND))
			.isInstanceOf(IllegalArgumentException.class);
	}

}
