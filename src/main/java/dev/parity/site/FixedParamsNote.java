package dev.parity.site;

import dev.parity.snapshots.ComparisonService;

/**
 * What a comparison with fixed grid parameters says above its table: what each side
 * keeps, and the comparison of the whole runs, where its caveats and publications live.
 *
 * @param baseline the baseline's fixed parameters ({@code setting=thinking=false}), empty
 * when none
 * @param contender the contender's, empty when none
 * @param wholeRuns the path of the comparison of the whole runs
 */
public record FixedParamsNote(String baseline, String contender, String wholeRuns) {

	static FixedParamsNote of(ComparisonService.Pair pair) {
		return new FixedParamsNote(pair.baselineFixed().label(), pair.contenderFixed().label(),
				String.join("+", pair.baselineIds()) + "..." + String.join("+", pair.contenderIds()));
	}

}
