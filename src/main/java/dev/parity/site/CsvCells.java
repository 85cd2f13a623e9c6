package dev.parity.site;

import java.math.BigDecimal;
import java.util.List;
import java.util.regex.Pattern;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.QuoteMode;

/**
 * CSV cells that a spreadsheet cannot run, after OWASP's advice on CSV injection: text
 * that starts with {@code =}, {@code +}, {@code -}, {@code @}, a tab or a carriage return
 * gets a leading {@code '}, and every text cell is quoted.
 *
 * <p>
 * A plain number stays a number, unquoted, so that the columns of values and ratios still
 * add up: a cell that is exactly an optional minus, digits and an optional fraction
 * ({@code -0.27}) cannot be a formula — a formula needs an operator, a function or a
 * reference after its first character, and this pattern admits none — so only such a cell
 * is written as a number. Anything else that starts with {@code -} ({@code -1+2},
 * {@code -cmd|…}) is text and neutralised.
 */
final class CsvCells {

	/**
	 * Quotes every cell that is not a number, and starts comment lines with {@code #}.
	 */
	static final CSVFormat FORMAT = CSVFormat.DEFAULT.builder()
		.setQuoteMode(QuoteMode.NON_NUMERIC)
		.setCommentMarker('#')
		.get();

	private static final Pattern PLAIN_NUMBER = Pattern.compile("-?\\d{1,300}(\\.\\d{1,300})?");

	private CsvCells() {
	}

	/**
	 * A cell as it may be written: a plain number as a number, any other text
	 * neutralised.
	 */
	static Object cell(Object value) {
		if (value instanceof Number || value instanceof Boolean) {
			return value;
		}
		String text = value.toString();
		if (PLAIN_NUMBER.matcher(text).matches()) {
			return new BigDecimal(text);
		}
		return text(text);
	}

	/**
	 * Text with a leading {@code '} when a spreadsheet would read its first character as
	 * the start of a formula.
	 */
	static String text(String text) {
		if (!text.isEmpty() && "=+-@\t\r".indexOf(text.charAt(0)) >= 0) {
			return "'" + text;
		}
		return text;
	}

	/** A row of cells, each made safe. */
	static List<Object> row(List<?> values) {
		return values.stream().map(CsvCells::cell).toList();
	}

}
