package dev.parity.site;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class NumbersTests {

	@Test
	void numbersAreWrittenAsStoredToFourDecimalsWithThousandsGrouped() {
		assertThat(Numbers.format(1234567.125)).isEqualTo("1,234,567.125");
		assertThat(Numbers.format(-1234.56789)).isEqualTo("-1,234.5679");
		assertThat(Numbers.format(1000.0)).isEqualTo("1,000");
		assertThat(Numbers.format(999.99996)).isEqualTo("1,000");
		assertThat(Numbers.format(0.00004)).isEqualTo("0");
		assertThat(Numbers.format(-0.00004)).isEqualTo("0");
		assertThat(Numbers.format(-0.0)).isEqualTo("0");
		assertThat(Numbers.format(0.5)).isEqualTo("0.5");
		assertThat(Numbers.format(123.0)).isEqualTo("123");
		assertThat(Numbers.format(-123456.0)).isEqualTo("-123,456");
		assertThat(Numbers.format(1e21)).isEqualTo("1,000,000,000,000,000,000,000");
		assertThat(Numbers.format((Double) null)).isEmpty();
		assertThat(Numbers.format(Double.NaN)).isEqualTo("NaN");
	}

	@Test
	void theGroupingWritesWhatDecimalFormatWrote() {
		SplittableRandom random = new SplittableRandom(20261205);
		for (int i = 0; i < 200_000; i++) {
			// Latencies, rates, token counts, grid coordinates and ratios: every
			// magnitude, whole and not, either sign, ties at the fifth decimal.
			double value = switch (random.nextInt(5)) {
				case 0 -> random.nextLong(-10_000_000, 10_000_000);
				case 1 -> Math.exp(random.nextDouble(-12, 40)) * (random.nextBoolean() ? 1 : -1);
				case 2 -> random.nextInt(-2_000_000, 2_000_000) / 100_000.0 + 0.000_05;
				case 3 -> random.nextDouble(-1, 1);
				default -> random.nextInt(0, 100_000_000) / 10_000.0;
			};
			assertThat(Numbers.format(value)).as("%s", value).isEqualTo(byDecimalFormat(value));
		}
	}

	/**
	 * As numbers were written before the grouping by hand: the same rounding, then
	 * DecimalFormat.
	 */
	private static String byDecimalFormat(double value) {
		BigDecimal decimal = BigDecimal.valueOf(value).setScale(4, RoundingMode.HALF_EVEN).stripTrailingZeros();
		return new DecimalFormat("#,##0.####", DecimalFormatSymbols.getInstance(Locale.ROOT)).format(decimal);
	}

}
