package dev.parity.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class BenjaminiHochbergTests {

	@Test
	void adjustsAsRDoes() {
		// R: p.adjust(c(0.01, 0.04, 0.03, 0.005, 0.2), "BH") → 0.025 0.05 0.05 0.025 0.2
		double[] adjusted = BenjaminiHochberg.adjust(new double[] { 0.01, 0.04, 0.03, 0.005, 0.2 });

		assertThat(adjusted[0]).isCloseTo(0.025, within(1e-12));
		assertThat(adjusted[1]).isCloseTo(0.05, within(1e-12));
		assertThat(adjusted[2]).isCloseTo(0.05, within(1e-12));
		assertThat(adjusted[3]).isCloseTo(0.025, within(1e-12));
		assertThat(adjusted[4]).isCloseTo(0.2, within(1e-12));
	}

	@Test
	void nothingToAdjust() {
		assertThat(BenjaminiHochberg.adjust(new double[0])).isEmpty();
	}

}
