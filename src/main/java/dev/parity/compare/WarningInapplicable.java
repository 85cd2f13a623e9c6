package dev.parity.compare;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.parity.run.Cell;
import dev.parity.run.Params;
import dev.parity.run.Provenance;

/**
 * {@code warning-inapplicable}: an engine warning names a flag with a numeric limit L, and the cell's prompt is at
 * most L / warning factor tokens, so the warning cannot explain the cell. Annotates the warning at that cell.
 */
final class WarningInapplicable implements CellRule {

	static final String ID = "warning-inapplicable";

	private static final Pattern NUMBER = Pattern.compile("(?<![\\d,])\\d[\\d,]*+(?:\\.\\d++)?+");

	/** A flag-like name in a warning: words joined by {@code _} or {@code -}, e.g. {@code max_num_seqs}. */
	private static final Pattern FLAG_NAME = Pattern.compile("(?<![a-z0-9])[a-z][a-z0-9]*+(?:[-_][a-z0-9]++)++");

	@Override
	public List<Flag> check(Cell cell, RunContext context) {
		Optional<BigDecimal> prompt = cell.params().number("prompt_tokens");
		if (prompt.isEmpty()) {
			return List.of();
		}
		double factor = context.settings().warningFactor();
		List<Flag> flags = new ArrayList<>();
		Provenance.Engine engine = context.run().provenance().engine();
		for (String warning : engine.warnings()) {
			limit(warning, engine).filter(limit -> !Thresholds.exceeds(prompt.get().doubleValue(), limit.value() / factor))
				.ifPresent(limit -> flags.add(Flag.annotation(ID, Params.format(prompt.get()) + " prompt tokens vs limit "
						+ Figures.number(limit.value()),
						"engine warning \"" + warning + "\" cannot explain this cell: " + Params.format(prompt.get())
								+ " prompt tokens vs " + limit.flag() + " limit " + Figures.number(limit.value())
								+ " (at most 1/" + Figures.number(factor)
								+ " of it) — look for another cause, e.g. warm up before measuring")));
		}
		return flags;
	}

	/**
	 * The flag a warning names and its limit: an engine flag of the run mentioned in the warning (names compared as
	 * flags are), else any flag-like name; the limit is the first number after the name, else the flag's value.
	 */
	static Optional<Limit> limit(String warning, Provenance.Engine engine) {
		String text = warning.toLowerCase(Locale.ROOT).replace('_', '-');
		for (String flag : engine.flags().keySet()) {
			int at = indexOfName(text, Provenance.Engine.normaliseFlag(flag));
			if (at >= 0) {
				Optional<Double> value = firstNumber(text.substring(at)).or(() -> firstNumber(engine.flags().get(flag)));
				if (value.isPresent()) {
					return Optional.of(new Limit(flag, value.get()));
				}
			}
		}
		Matcher name = FLAG_NAME.matcher(warning.toLowerCase(Locale.ROOT));
		while (name.find()) {
			Optional<Double> value = firstNumber(warning.substring(name.end()));
			if (value.isPresent()) {
				return Optional.of(new Limit(name.group(), value.get()));
			}
		}
		return Optional.empty();
	}

	private static int indexOfName(String text, String name) {
		for (int at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
			int end = at + name.length();
			if ((at == 0 || !isNamePart(text.charAt(at - 1))) && (end == text.length() || !isNamePart(text.charAt(end)))) {
				return at;
			}
		}
		return -1;
	}

	private static boolean isNamePart(char c) {
		return Character.isLetterOrDigit(c) || c == '-';
	}

	private static Optional<Double> firstNumber(String text) {
		Matcher number = NUMBER.matcher(text);
		return number.find() ? Optional.of(Double.parseDouble(number.group().replace(",", ""))) : Optional.empty();
	}

	/** A numeric limit an engine warning names. */
	record Limit(String flag, double value) {
	}

}
