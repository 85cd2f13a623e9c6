package dev.parity.compare;

import java.util.List;
import java.util.Optional;

import dev.parity.run.Cell;

/**
 * {@code output-length-differs}: the matched cells' median output tokens per request differ by more than the output
 * tolerance, so the two sides did different work. Greys the output-length-sensitive metrics; TTFT and prefill stay
 * comparable.
 */
final class OutputLengthDiffers implements CellPairRule {

	static final String ID = "output-length-differs";

	@Override
	public List<Flag> check(Cell baseline, Cell contender, ComparisonContext context) {
		Optional<Double> base = CellMeasures.medianOutputTokens(baseline);
		Optional<Double> other = CellMeasures.medianOutputTokens(contender);
		if (base.isEmpty() || other.isEmpty() || base.get() <= 0) {
			return List.of();
		}
		double change = other.get() / base.get() - 1;
		double tolerance = context.settings().outputTolerance();
		if (!Thresholds.differsByMoreThan(other.get(), base.get(), tolerance)) {
			return List.of();
		}
		return List.of(Flag.greying(ID, Figures.number(base.get()) + " vs " + Figures.number(other.get()) + " tokens/request",
				"median output tokens per request " + Figures.number(base.get()) + " vs "
				+ Figures.number(other.get()) + " (" + Figures.change(change) + ", beyond ±" + Figures.tolerance(tolerance)
				+ "): different work per request distorts the output-length-sensitive metrics — match output length, e.g. disable thinking",
				context.metrics().outputSensitive()));
	}

}
