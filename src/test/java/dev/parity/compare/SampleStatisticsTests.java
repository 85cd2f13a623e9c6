package dev.parity.compare;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class SampleStatisticsTests {

	@Test
	void interpolatesTheMedianOfAnEvenCount() {
		assertThat(SampleStatistics.median(List.of(4.0, 1.0, 3.0))).isEqualTo(3.0);
		assertThat(SampleStatistics.median(List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo(2.5);
	}

	@Test
	void usesThePopulationStandardDeviation() {
		assertThat(SampleStatistics.populationSd(List.of(1.0, 1.0, 3.0, 3.0))).isEqualTo(1.0);
	}

	@Test
	void scalesTheRobustZByTheMadOrOnePercentOfTheMedian() {
		List<Double> values = List.of(10.0, 12.0, 14.0, 16.0, 100.0);
		double mad = SampleStatistics.medianAbsoluteDeviation(values);

		assertThat(mad).isEqualTo(2.0);
		assertThat(SampleStatistics.robustZ(100, 14, mad)).isCloseTo(86 / (1.4826 * 2), within(1e-9));
		assertThat(SampleStatistics.robustZ(101, 100, 0)).isCloseTo(1 / 1.4826, within(1e-9));
		assertThat(SampleStatistics.robustZ(1, 0, 0)).isNaN();
	}

}
