package dev.parity.compare;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.parity.run.Cell;
import dev.parity.run.Params;

/**
 * {@code warning-inapplicable}: an engine warning names a flag with a numeric limit L,
 * and the cell's prompt is at most L / warning factor tokens, so the warning cannot
 * explain the cell. Annotates the warning at that cell. The warnings are read once per
 * run ({@link RunContext#warningLimits()}), each in time linear in its length, not once
 * per cell; a cell names at most {@value #MOST_PER_CELL} of them and counts the rest, and
 * a warning is quoted in its first {@value #QUOTED} characters.
 */
final class WarningInapplicable implements CellRule {

	static final String ID = "warning-inapplicable";

	/**
	 * The warnings one cell names one by one; beyond them, one more annotation counts the
	 * rest.
	 */
	static final int MOST_PER_CELL = 5;

	/** How much of a warning, or of a flag-like name found in it, a message quotes. */
	static final int QUOTED = 300;

	@Override
	public List<Flag> check(Cell cell, RunContext context) {
		Optional<BigDecimal> prompt = cell.params().number("prompt_tokens");
		if (prompt.isEmpty()) {
			return List.of();
		}
		double factor = context.settings().warningFactor();
		List<Flag> flags = new ArrayList<>();
		int more = 0;
		for (WarningLimits.Found found : context.warningLimits()) {
			WarningLimits.Limit limit = found.limit();
			if (Thresholds.exceeds(prompt.get().doubleValue(), limit.value() / factor)) {
				continue;
			}
			if (flags.size() == MOST_PER_CELL) {
				more++;
				continue;
			}
			String flag = quoted(limit.flag());
			flags.add(Flag.annotation(ID,
					Params.format(prompt.get()) + " prompt tokens vs limit " + Figures.number(limit.value()),
					"engine warning \"" + quoted(found.warning()) + "\" cannot explain this cell: "
							+ Params.format(prompt.get()) + " prompt tokens vs " + flag + " limit "
							+ Figures.number(limit.value()) + " (at most 1/" + Figures.number(factor)
							+ " of it) — look for another cause, e.g. warm up before measuring"));
		}
		if (more > 0) {
			flags.add(Flag.annotation(ID, "+" + more + (more == 1 ? " more warning" : " more warnings"),
					more + (more == 1 ? " more engine warning" : " more engine warnings")
							+ " of this run cannot explain" + " this cell either: their limits are at least "
							+ Figures.number(factor) + " times its " + Params.format(prompt.get())
							+ " prompt tokens (see the run's warnings)"));
		}
		return flags;
	}

	/**
	 * The text as a message quotes it: whole up to {@value #QUOTED} characters, else its
	 * start and "…".
	 */
	static String quoted(String text) {
		if (text.length() <= QUOTED) {
			return text;
		}
		int end = Character.isHighSurrogate(text.charAt(QUOTED - 1)) ? QUOTED - 1 : QUOTED;
		return text.substring(0, end) + "…";
	}

}
