package dev.parity.compare;

import java.util.List;

/**
 * {@code no-warmup}: the declared warm-up is 0 requests or unknown. Annotates the run:
 * early cells may be cold.
 */
final class NoWarmup implements RunRule, Remedy {

	static final String ID = "no-warmup";

	@Override
	public String id() {
		return ID;
	}

	@Override
	public boolean greys() {
		return false;
	}

	/**
	 * A warm-up on the rerun side (an annotation of the other side's run names nothing a
	 * control can do).
	 */
	@Override
	public void settle(Settling plan) {
		if (plan.canRerun() && plan.on(ID, plan.side())) {
			plan.change(ID, "workload.warmup_requests", plan.provenance(plan.side()).workload().warmupRequests(),
					plan.warmupTarget(), "warm up before measuring: " + plan.warmupTarget()
							+ " requests over the grid's shapes, so that early cells are not cold");
		}
	}

	@Override
	public List<Flag> check(RunContext context) {
		Integer warmup = context.run().provenance().workload().warmupRequests();
		if (warmup != null && warmup > 0) {
			return List.of();
		}
		String declared = warmup == null ? "no warm-up declared" : "declared warm-up is 0 requests";
		return List.of(Flag.annotation(ID, warmup == null ? "no warm-up declared" : "warm-up 0",
				declared + ": early cells may be cold — warm up before measuring"));
	}

}
