package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FiguresTests {

	@Test
	void groupsThousandsAndDropsNoiseDigits() {
		assertThat(Figures.number(1015784)).isEqualTo("1,015,784");
		assertThat(Figures.number(1958.64)).isEqualTo("1,958.64");
		assertThat(Figures.number(512.0)).isEqualTo("512");
		assertThat(Figures.number(3.2)).isEqualTo("3.2");
		assertThat(Figures.number(0.00421)).isEqualTo("0.00421");
		assertThat(Figures.number(-5)).isEqualTo("−5");
	}

	@Test
	void writesTimesInASensibleUnit() {
		assertThat(Figures.value(0.217, "s")).isEqualTo("217 ms");
		assertThat(Figures.value(16.73, "s")).isEqualTo("16.73 s");
		assertThat(Figures.value(45, "ms")).isEqualTo("45 ms");
		assertThat(Figures.value(1958.6, "tokens/s")).isEqualTo("1,958.6");
	}

	@Test
	void writesRatiosFactorsAndChanges() {
		assertThat(Figures.ratio(1.01149)).isEqualTo("1.011");
		assertThat(Figures.factor(1.3724)).isEqualTo("1.37×");
		assertThat(Figures.factor(2)).isEqualTo("2×");
		assertThat(Figures.factor(253.25)).isEqualTo("253×");
		assertThat(Figures.change(0.064)).isEqualTo("+6.4 %");
		assertThat(Figures.change(-0.05)).isEqualTo("−5.0 %");
		assertThat(Figures.change(43.23)).isEqualTo("+4,323 %");
		assertThat(Figures.tolerance(0.1)).isEqualTo("10 %");
		assertThat(Figures.tolerance(0.025)).isEqualTo("2.5 %");
	}

}
