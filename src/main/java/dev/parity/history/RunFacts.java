package dev.parity.history;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What a series needs of one run, and all it needs: per cell its params, median output
 * tokens and, per metric, the value of the statistic in force with the run checks that
 * grey it. Computed once when the run joins a series (runs never change), kept in
 * PostgreSQL and in memory, so that a series' analysis never reloads its runs' documents
 * and samples.
 *
 * @param pinned whether the run names its checkpoint's commit (an unpinned run is a
 * greyed point)
 */
public record RunFacts(String id, @Nullable Instant recordedAt, Instant uploadedAt, @Nullable String engineVersion,
		@Nullable String engineCommit, boolean pinned, List<CellFacts> cells) {

	/** One cell of the run. */
	public record CellFacts(String anchor, Map<String, Object> params, @Nullable Double outputTokens,
			List<MetricFacts> metrics) {

		public CellFacts {
			anchor = anchor.intern(); // every run of a series has it: the analysis finds
										// a cell's track by it
		}

	}

	/**
	 * One metric of a cell.
	 *
	 * @param value the statistic in force; null when the cell does not report it (the
	 * metric still greys its cell)
	 * @param greyedBy the run checks that grey it
	 * @param outputSensitive whether longer outputs change it (so that
	 * {@code output-length-differs} greys it)
	 * @param lowerIsBetter the metric's sense
	 */
	public record MetricFacts(String metric, @Nullable Double value, List<String> greyedBy, boolean outputSensitive,
			boolean lowerIsBetter) {

		public MetricFacts {
			metric = metric.intern(); // likewise: one copy of each name, compared by
										// reference first
		}

	}

}
