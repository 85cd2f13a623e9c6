package dev.parity.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.parity.run.Cell;
import dev.parity.run.RunDocument;

/**
 * The run checks of src/docs/design/PRODUCT.md, computed when shown with the thresholds
 * in force: the run page uses the defaults, a comparison its own settings.
 */
public final class RunChecks {

	static final List<RunRule> RUN_RULES = List.of(new AllFailed(), new Unpinned(), new NoWarmup());

	static final List<CellRule> CELL_RULES = List.of(new EmptyCell(), new Failures(), new OutcomesUnknown(),
			new SettingNotObeyed(), new Runaway(), new Unstable(), new LatencySpike(), new Skewed(), new Outlier(),
			new WarningInapplicable());

	private RunChecks() {
	}

	public static RunFlags check(RunDocument run, CompareSettings settings) {
		return check(run, settings, MetricScope.of(run));
	}

	/**
	 * The checks with "everything" meaning every metric of a wider scope, such as a
	 * comparison's.
	 */
	static RunFlags check(RunDocument run, CompareSettings settings, MetricScope metrics) {
		RunContext context = new RunContext(run, settings, metrics);
		List<Flag> runFlags = new ArrayList<>();
		RUN_RULES.forEach(rule -> runFlags.addAll(rule.check(context)));
		Map<String, List<Flag>> cellFlags = new LinkedHashMap<>();
		for (Cell cell : run.cells()) {
			List<Flag> flags = new ArrayList<>();
			CELL_RULES.forEach(rule -> flags.addAll(rule.check(cell, context)));
			if (!flags.isEmpty()) {
				cellFlags.put(cell.anchor(), flags);
			}
		}
		return new RunFlags(runFlags, cellFlags);
	}

}
