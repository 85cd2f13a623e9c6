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

	@Test
	void theSummaryOfAnArrayIsEachStatisticOfTheValuesToTheLastBit() {
		java.util.SplittableRandom random = new java.util.SplittableRandom(20261205);
		for (int round = 0; round < 2_000; round++) {
			int n = 1 + random.nextInt(300);
			double[] values = new double[n];
			List<Double> boxed = new java.util.ArrayList<>();
			for (int i = 0; i < n; i++) {
				// Repeated values, signed zeros and wide ranges as latencies and rates
				// have.
				double value = switch (random.nextInt(4)) {
					case 0 -> random.nextInt(5) * 0.25;
					case 1 -> random.nextBoolean() ? 0.0 : -0.0;
					case 2 -> Math.exp(random.nextDouble(-10, 10));
					default -> random.nextGaussian() * 1e3;
				};
				values[i] = value;
				boxed.add(value);
			}
			SampleStatistics.Summary summary = SampleStatistics.Summary.of(values);
			assertThat(summary)
				.isEqualTo(new SampleStatistics.Summary(SampleStatistics.median(boxed), SampleStatistics.mean(boxed),
						SampleStatistics.populationSd(boxed), SampleStatistics.medianAbsoluteDeviation(boxed),
						java.util.Collections.min(boxed), java.util.Collections.max(boxed)));
		}
	}

}
