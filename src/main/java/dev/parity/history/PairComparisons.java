package dev.parity.history;

import java.time.Duration;
import java.util.Map;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.parity.compare.Comparison;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * The comparisons of a run with its baseline in a series, as a series update has just
 * computed them for its pairs, kept a moment by the two runs and the settings: a CI
 * verdict asked right after the upload reads the same comparison (the run and the one
 * before it, the series' settings, no interval) once the update it waits for is done.
 * Bounded by their cells; computed again when gone.
 */
@Component
class PairComparisons {

	private static final long CELLS = 8_000;

	private record Key(String baseline, String run, Map<String, Object> settings) {
	}

	private final Cache<Key, Comparison> kept = Caffeine.newBuilder()
		.maximumWeight(CELLS)
		.<Key, Comparison>weigher((key, comparison) -> 1 + comparison.cells().size())
		.expireAfterWrite(Duration.ofMinutes(2))
		.executor(Runnable::run)
		.build();

	void keep(Comparison comparison) {
		kept.put(new Key(comparison.baseline().id().value(), comparison.contender().id().value(),
				comparison.settings().asMap()), comparison);
	}

	@Nullable Comparison of(String baselineId, String runId, Map<String, Object> settings) {
		return kept.getIfPresent(new Key(baselineId, runId, settings));
	}

}
