package dev.parity.compare;

import java.util.List;

/**
 * {@code no-warmup}: the declared warm-up is 0 requests or unknown. Annotates the run: early cells may be cold.
 */
final class NoWarmup implements RunRule {

	static final String ID = "no-warmup";

	@Override
	public List<Flag> check(RunContext context) {
		Integer warmup = context.run().provenance().workload().warmupRequests();
		if (warmup != null && warmup > 0) {
			return List.of();
		}
		String declared = warmup == null ? "no warm-up declared" : "declared warm-up is 0 requests";
		return List.of(Flag.annotation(ID, warmup == null ? "no warm-up declared" : "warm-up 0", declared + ": early cells may be cold — warm up before measuring"));
	}

}
