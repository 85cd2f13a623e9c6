package dev.parity.compare;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import dev.parity.run.Cell;
import dev.parity.run.MetricValue;
import dev.parity.run.Params;
import org.jspecify.annotations.Nullable;

/**
 * {@code latency-spike}: a cell's median TTFT exceeds the spike factor times the TTFT of
 * any cell run later ({@code order}) with the same other params and a higher concurrency:
 * a busier cell cannot honestly be faster, so this one was cold or spiking. Greys the
 * cell's {@code ttft_s} and {@code prefill_tps}; skipped without an order.
 */
final class LatencySpike implements CellRule, Remedy {

	static final String ID = "latency-spike";

	static final String TTFT = "ttft_s";

	private static final String CONCURRENCY = "concurrency";

	private static final List<String> GREYS = List.of(TTFT, "prefill_tps");

	@Override
	public String id() {
		return ID;
	}

	/**
	 * A warm-up on the rerun side when it declares none; a side already warmed up that
	 * still spikes, or a side no control reruns, stays (a longer warm-up is not known to
	 * remove it: that is a hypothesis to test).
	 */
	@Override
	public void settle(Settling plan) {
		if (plan.canRerun() && plan.on(ID, plan.side())) {
			List<String> anchors = plan.cells(ID, plan.side());
			Integer warmup = plan.provenance(plan.side()).workload().warmupRequests();
			if (warmup == null || warmup == 0) {
				plan.change(ID, "workload.warmup_requests", warmup, plan.warmupTarget(),
						"warm up before measuring (" + plan.warmupTarget()
								+ " requests over the grid's shapes) and re-run " + String.join(", ", anchors));
			}
			else {
				plan.cannot(ID,
						"the " + plan.side() + " warmed up (" + warmup + " requests) and still spiked at "
								+ String.join(", ", anchors)
								+ ": a rerun is not known to remove it — test a hypothesis about its cause");
			}
		}
		plan.cannotOnOtherSide(ID, "time to first token spiked");
	}

	@Override
	public List<Flag> check(Cell cell, RunContext context) {
		Optional<Double> ttft = ttft(cell);
		Optional<BigDecimal> concurrency = cell.params().number(CONCURRENCY);
		if (cell.order() == null || ttft.isEmpty() || concurrency.isEmpty()) {
			return List.of();
		}
		// The fastest cell run later at a higher concurrency (the first of equals), each
		// cell's TTFT read once.
		@Nullable Cell fastest = null;
		double later = 0;
		for (Cell other : context.sameOtherParams(cell, CONCURRENCY)) {
			if (other.order() == null || other.order() <= cell.order()
					|| other.params().number(CONCURRENCY).filter(c -> c.compareTo(concurrency.get()) > 0).isEmpty()) {
				continue;
			}
			Optional<Double> its = ttft(other);
			if (its.isPresent() && (fastest == null || Double.compare(its.get(), later) < 0)) {
				fastest = other;
				later = its.get();
			}
		}
		double spike = context.settings().spike();
		if (fastest == null || !Thresholds.exceeds(ttft.get(), spike * later)) {
			return List.of();
		}
		return List.of(Flag.greying(ID,
				Figures.value(ttft.get(), "s") + " vs " + Figures.value(later, "s") + " at concurrency "
						+ Params.format(fastest.params().number(CONCURRENCY).orElseThrow()) + " later",
				"ttft " + Figures.value(ttft.get(), "s") + " at concurrency " + Params.format(concurrency.get())
						+ ", yet " + Figures.value(later, "s") + " at concurrency "
						+ Params.format(fastest.params().number(CONCURRENCY).orElseThrow()) + " run later ("
						+ Figures.factor(ttft.get() / later) + ", over " + Figures.factor(spike)
						+ "): cold or spiking — warm up before measuring and re-run the cell",
				GREYS));
	}

	private static Optional<Double> ttft(Cell cell) {
		OptionalDouble median = cell.metric(TTFT).map(MetricValue::median).orElse(OptionalDouble.empty());
		return median.isPresent() ? Optional.of(median.getAsDouble()) : Optional.empty();
	}

}
