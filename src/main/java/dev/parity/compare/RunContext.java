package dev.parity.compare;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import dev.parity.run.Cell;
import dev.parity.run.Params;
import dev.parity.run.RunDocument;
import dev.parity.run.SampleSummary;
import org.springframework.util.function.SingletonSupplier;

/**
 * What a run check looks at: the run, the thresholds in force and the metrics it may
 * grey.
 *
 * @param summaries each cell's sample statistics once read ({@link #summary})
 * @param groups the run's cells grouped by their other params, by the param left out
 * ({@link #sameOtherParams})
 * @param warnings the limits the run's engine warnings name, read once
 * ({@link #warningLimits})
 */
record RunContext(RunDocument run, CompareSettings settings, MetricScope metrics, Map<Cell, SampleSummary> summaries,
		Map<String, Map<Params, List<Cell>>> groups, SingletonSupplier<List<WarningLimits.Found>> warnings) {

	RunContext(RunDocument run, CompareSettings settings, MetricScope metrics) {
		this(run, settings, metrics, new IdentityHashMap<>(), new HashMap<>(),
				SingletonSupplier.of(() -> WarningLimits.of(run.provenance().engine())));
	}

	/**
	 * The limits the run's engine warnings name: read once for the run, not once for each
	 * of its cells.
	 */
	List<WarningLimits.Found> warningLimits() {
		return warnings.obtain();
	}

	/**
	 * The run's cells with the same params as this one but {@code param} (this one
	 * included), in the run's order: grouped once per run, not searched for every cell.
	 */
	List<Cell> sameOtherParams(Cell cell, String param) {
		Map<Params, List<Cell>> byOthers = groups.computeIfAbsent(param, name -> {
			Map<Params, List<Cell>> grouped = new HashMap<>();
			for (Cell each : run.cells()) {
				grouped.computeIfAbsent(each.params().without(name), others -> new ArrayList<>()).add(each);
			}
			return grouped;
		});
		return byOthers.getOrDefault(cell.params().without(param), List.of());
	}

	/**
	 * The cell's sample statistics under these thresholds, read once for every check of
	 * the cell.
	 */
	SampleSummary summary(Cell cell) {
		return summaries.computeIfAbsent(cell, c -> SampleSummaries.of(c, settings.outlierZ()));
	}

}
