package dev.parity.compare;

import java.util.List;
import java.util.Optional;

import dev.parity.run.Params;

/**
 * A cell present on both sides, with its flags and its metrics side by side.
 *
 * @param params the cell's grid coordinates
 * @param anchor its anchor, e.g. {@code cell-concurrency-4--prompt_tokens-32768}
 * @param flags what was found at this cell: both runs' cell checks (with their side) and
 * the comparison's cell checks
 * @param metrics the metrics either side reports here, in catalogue order
 */
public record ComparedCell(Params params, String anchor, List<Flag> flags, List<ComparedMetric> metrics) {

	public ComparedCell {
		flags = List.copyOf(flags);
		metrics = List.copyOf(metrics);
	}

	public Optional<ComparedMetric> metric(String name) {
		return metrics.stream().filter(metric -> metric.metric().equals(name)).findFirst();
	}

}
