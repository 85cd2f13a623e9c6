package dev.parity.site;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * How numbers are written on pages: as stored (up to four decimals), thousands grouped with commas.
 */
public final class Numbers {

	private Numbers() {
	}

	public static String format(@Nullable Double value) {
		if (value == null) {
			return "";
		}
		if (value.isNaN() || value.isInfinite()) {
			return String.valueOf(value);
		}
		BigDecimal decimal = BigDecimal.valueOf(value).setScale(4, RoundingMode.HALF_EVEN).stripTrailingZeros();
		DecimalFormat format = new DecimalFormat("#,##0.####", DecimalFormatSymbols.getInstance(Locale.ROOT));
		return format.format(decimal);
	}

	public static String format(@Nullable Integer value) {
		return value == null ? "" : format(value.doubleValue());
	}

}
