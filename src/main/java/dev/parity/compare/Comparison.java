package dev.parity.compare;

import java.util.List;
import java.util.Optional;

import dev.parity.run.Run;

/**
 * A baseline run and a contender run side by side: cells matched on params, a ratio per
 * metric, the flags that grey confounded numbers, and a headline per metric. A read model
 * computed from two immutable runs.
 *
 * @param baseline the run compared against (often a published reference)
 * @param contender the run being judged
 * @param settings the thresholds, statistic and varied variable in force
 * @param flags the comparison's own flags, about the two runs' provenance
 * @param baselineChecks the baseline's run checks under these settings, each flag on side
 * {@code baseline}
 * @param contenderChecks the contender's run checks under these settings, each flag on
 * side {@code contender}
 * @param metrics the metrics either run reports, catalogue order first
 * @param headlines one per metric, in the order of {@code metrics}
 * @param cells the matched cells, in the baseline's order
 * @param unmatched the cells on one side only, the baseline's first
 * @param provenance what differs between the two runs' provenance, field by field
 * @param baselineRuns the baseline's replicates, {@code baseline} first; just
 * {@code baseline} for a single run
 * @param contenderRuns the contender's replicates, {@code contender} first; just
 * {@code contender} for a single run
 */
public record Comparison(Run baseline, Run contender, CompareSettings settings, List<Flag> flags,
		RunFlags baselineChecks, RunFlags contenderChecks, List<String> metrics, List<Headline> headlines,
		List<ComparedCell> cells, List<UnmatchedCell> unmatched, List<ProvenanceDifference> provenance,
		List<Run> baselineRuns, List<Run> contenderRuns) {

	/** Two single runs compared. */
	public Comparison(Run baseline, Run contender, CompareSettings settings, List<Flag> flags, RunFlags baselineChecks,
			RunFlags contenderChecks, List<String> metrics, List<Headline> headlines, List<ComparedCell> cells,
			List<UnmatchedCell> unmatched, List<ProvenanceDifference> provenance) {
		this(baseline, contender, settings, flags, baselineChecks, contenderChecks, metrics, headlines, cells,
				unmatched, provenance, List.of(baseline), List.of(contender));
	}

	public Comparison {
		flags = List.copyOf(flags);
		metrics = List.copyOf(metrics);
		headlines = List.copyOf(headlines);
		cells = List.copyOf(cells);
		unmatched = List.copyOf(unmatched);
		provenance = List.copyOf(provenance);
		baselineRuns = List.copyOf(baselineRuns);
		contenderRuns = List.copyOf(contenderRuns);
	}

	public Optional<ComparedCell> cell(String anchor) {
		return cells.stream().filter(cell -> cell.anchor().equals(anchor)).findFirst();
	}

	public Optional<Headline> headline(String metric) {
		return headlines.stream().filter(headline -> headline.metric().equals(metric)).findFirst();
	}

}
