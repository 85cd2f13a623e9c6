package dev.parity.snapshots;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Component;

/**
 * What {@code /actuator/prometheus} shows of comparisons:
 * {@code parity_comparison_cache_total{cache, result}} — a kept snapshot
 * ({@code cache="snapshot"}, every view and export) or a kept rendered page
 * ({@code cache="page"}, anonymous visitors) found ({@code hit}) or not ({@code miss}) —
 * and, from the {@link ComparisonBudget}, the uncached comparisons being computed
 * ({@code parity_comparisons_computing}) and the requests waiting for a turn to compute
 * one ({@code parity_comparisons_waiting}).
 */
@Component
public class ComparisonMetrics {

	private final Counter snapshotHits;

	private final Counter snapshotMisses;

	private final Counter pageHits;

	private final Counter pageMisses;

	ComparisonMetrics(MeterRegistry registry, ComparisonBudget budget) {
		this.snapshotHits = cache(registry, "snapshot", "hit");
		this.snapshotMisses = cache(registry, "snapshot", "miss");
		this.pageHits = cache(registry, "page", "hit");
		this.pageMisses = cache(registry, "page", "miss");
		Gauge.builder("parity.comparisons.waiting", budget, ComparisonBudget::waiting)
			.description(
					"Requests waiting for a turn to compute an uncached comparison (parity.compare.max-concurrent)")
			.register(registry);
		Gauge.builder("parity.comparisons.computing", budget, ComparisonBudget::computing)
			.description("Uncached comparisons being computed now")
			.register(registry);
	}

	private static Counter cache(MeterRegistry registry, String cache, String result) {
		return Counter.builder("parity.comparison.cache")
			.description("Look-ups of kept comparisons")
			.tag("cache", cache)
			.tag("result", result)
			.register(registry);
	}

	/** A kept snapshot was looked for. */
	void snapshot(boolean hit) {
		(hit ? snapshotHits : snapshotMisses).increment();
	}

	/** A kept rendered page was looked for. */
	void page(boolean hit) {
		(hit ? pageHits : pageMisses).increment();
	}

}
