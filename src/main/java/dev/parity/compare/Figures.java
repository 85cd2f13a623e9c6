package dev.parity.compare;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Numbers written for people: grouped thousands, no noise digits, time in a sensible
 * unit, ratios to three decimals.
 */
final class Figures {

	/** The minus sign people read, not the hyphen. */
	static final String MINUS = "\u2212";

	private Figures() {
	}

	/**
	 * {@code 1015784} → {@code 1,015,784}; {@code 1958.6} → {@code 1,958.6};
	 * {@code 0.0042} → {@code 0.0042}.
	 */
	static String number(double value) {
		if (value != 0 && Math.abs(value) < 1) {
			BigDecimal small = new BigDecimal(value).round(new MathContext(3, RoundingMode.HALF_UP));
			return small.stripTrailingZeros().toPlainString().replace("-", MINUS);
		}
		return format("#,##0.##", value);
	}

	/**
	 * A metric's value with its unit where the unit changes the reading: {@code 217 ms},
	 * {@code 16.73 s}.
	 */
	static String value(double value, String unit) {
		return switch (unit) {
			case "s" -> Math.abs(value) < 1 && value != 0 ? number(value * 1000) + " ms" : number(value) + " s";
			case "ms" -> number(value) + " ms";
			default -> number(value);
		};
	}

	/** {@code 1.0113} → {@code 1.011}. */
	static String ratio(double ratio) {
		return format("0.000", ratio);
	}

	/**
	 * A factor: {@code 1.3724} → {@code 1.37×}, {@code 2.0} → {@code 2×}, {@code 253.2} →
	 * {@code 253×}.
	 */
	static String factor(double factor) {
		return format(Math.abs(factor) < 10 ? "0.##" : Math.abs(factor) < 100 ? "0.#" : "#,##0", factor) + "×";
	}

	/**
	 * A fraction as a percentage without sign: {@code 0.1} → {@code 10 %}, {@code 0.064}
	 * → {@code 6.4 %}.
	 */
	static String percent(double fraction) {
		double percent = Math.abs(fraction) * 100;
		return format(percent < 10 ? "0.0" : "#,##0", percent) + " %";
	}

	/**
	 * A change as a signed percentage: {@code 0.064} → {@code +6.4 %}, {@code −0.05} →
	 * {@code −5.0 %}.
	 */
	static String change(double fraction) {
		return (fraction < 0 ? MINUS : "+") + percent(fraction);
	}

	/**
	 * A threshold fraction as people write it: {@code 0.1} → {@code 10 %}, {@code 0.025}
	 * → {@code 2.5 %}.
	 */
	static String tolerance(double fraction) {
		return format("#,##0.##", fraction * 100) + " %";
	}

	/**
	 * A format per pattern and thread (a format is not thread-safe; making one each time
	 * cost more than using it).
	 */
	private static final ThreadLocal<Map<String, DecimalFormat>> FORMATS = ThreadLocal.withInitial(HashMap::new);

	private static String format(String pattern, double value) {
		DecimalFormat format = FORMATS.get().computeIfAbsent(pattern, p -> {
			DecimalFormat made = new DecimalFormat(p, DecimalFormatSymbols.getInstance(Locale.US));
			made.setRoundingMode(RoundingMode.HALF_UP);
			return made;
		});
		return format.format(value).replace("-", MINUS);
	}

}
