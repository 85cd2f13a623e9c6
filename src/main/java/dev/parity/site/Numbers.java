package dev.parity.site;

import java.math.BigDecimal;
import java.math.RoundingMode;

import org.jspecify.annotations.Nullable;

/**
 * How numbers are written on pages: as stored (up to four decimals), thousands grouped
 * with commas.
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
		return grouped(decimal.toPlainString());
	}

	/**
	 * A plain decimal ({@code -1234567.125}) with its whole part grouped by thousands
	 * ({@code -1,234,567.125}): what {@code DecimalFormat("#,##0.####")} writes for a
	 * decimal of at most four places, without its general machinery (a page of a 400-cell
	 * comparison writes thousands of numbers).
	 */
	static String grouped(String plain) {
		int sign = plain.startsWith("-") ? 1 : 0;
		int dot = plain.indexOf('.');
		int end = dot < 0 ? plain.length() : dot;
		int digits = end - sign;
		if (digits <= 3) {
			return plain;
		}
		StringBuilder out = new StringBuilder(plain.length() + digits / 3);
		out.append(plain, 0, sign);
		int first = digits % 3 == 0 ? 3 : digits % 3;
		out.append(plain, sign, sign + first);
		for (int at = sign + first; at < end; at += 3) {
			out.append(',').append(plain, at, at + 3);
		}
		return out.append(plain, end, plain.length()).toString();
	}

	public static String format(@Nullable Integer value) {
		return value == null ? "" : format(value.doubleValue());
	}

}
