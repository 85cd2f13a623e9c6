package dev.parity.ingest.harness;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class DistributionTests {

	@Test
	void interpolatesMediansAndPercentilesBetweenRanks() {
		Distribution distribution = Distribution.of(List.of(4.0, 1.0, 3.0, 2.0));

		assertThat(distribution.median()).isEqualTo(2.5);
		assertThat(distribution.percentile(90)).isCloseTo(3.7, within(1e-12));
		assertThat(distribution.percentile(0)).isEqualTo(1.0);
		assertThat(distribution.percentile(100)).isEqualTo(4.0);
	}

	@Test
	void usesThePopulationStandardDeviationAndSkipsNonFiniteValues() {
		Statistics statistics = Distribution.of(List.of(2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0, Double.NaN))
			.statistics();

		assertThat(statistics.get("mean")).isEqualTo(5.0);
		assertThat(statistics.get("std")).isEqualTo(2.0);
		assertThat(statistics.get("median")).isEqualTo(4.5);
		assertThat(statistics.values()).containsOnlyKeys("median", "mean", "std", "min", "max", "p90", "p99");
	}

	@Test
	void givesNothingForNoValues() {
		assertThat(Distribution.of(List.of()).statistics().isEmpty()).isTrue();
		assertThat(Distribution.of(List.of()).tokens()).isNull();
	}

}
