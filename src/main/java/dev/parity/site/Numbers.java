package dev.parity.site;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * How numbers are written on pages: as stored (up to four decimals), thousands grouped
 * with commas.
 */
public final class Numbers {

	/**
	 * One format per thread (not thread-safe; made once rather than for every number of a
	 * page).
	 */
	private static final ThreadLocal<DecimalFormat> FORMAT = ThreadLocal
		.withInitial(() -> new DecimalFormat("#,##0.####", DecimalFormatSymbols.getInstance(Locale.ROOT)));

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
		return FORMAT.get().format(decimal);
	}

	public static String format(@Nullable Integer value) {
		return value == null ? "" : format(value.doubleValue());
	}

}
