package dev.parity.compare;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

import dev.parity.run.Cell;

/**
 * {@code setting-not-obeyed}: a cell's median output tokens differ from the declared
 * output tokens (the cell's {@code output_tokens} param where the grid varies it, else
 * the workload's) by more than the output tolerance. Annotates the cell: the setting was
 * accepted, not obeyed.
 */
final class SettingNotObeyed implements CellRule {

	static final String ID = "setting-not-obeyed";

	@Override
	public List<Flag> check(Cell cell, RunContext context) {
		Optional<Double> declared = cell.params()
			.number("output_tokens")
			.map(BigDecimal::doubleValue)
			.or(() -> Optional.ofNullable(context.run().provenance().workload().outputTokens())
				.map(Integer::doubleValue));
		Optional<Double> measured = CellMeasures.medianOutputTokens(cell, context.summary(cell));
		if (declared.isEmpty() || measured.isEmpty() || declared.get() <= 0) {
			return List.of();
		}
		double change = measured.get() / declared.get() - 1;
		double tolerance = context.settings().outputTolerance();
		if (!Thresholds.differsByMoreThan(measured.get(), declared.get(), tolerance)) {
			return List.of();
		}
		return List.of(Flag.annotation(ID, "declared " + Figures.number(declared.get()) + ", measured " + Figures
			.number(measured.get()), "declared " + Figures.number(declared.get()) + ", measured "
					+ Figures.number(measured.get()) + ": accepted, not obeyed (" + Figures.change(change)
					+ ", beyond ±" + Figures.tolerance(tolerance)
					+ " of the declared output tokens per request) — check the setting on one request, e.g. cap max_tokens or disable thinking"));
	}

}
