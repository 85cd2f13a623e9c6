package dev.parity.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.parity.run.Cell;
import dev.parity.run.Run;
import org.jspecify.annotations.Nullable;

/**
 * What a control run shows of a plan: which planned changes it holds and which it missed
 * — judged from what Parity measures where it can (output tokens per request against the
 * check's target, requests completed), from the control's provenance otherwise — and what
 * the confounded comparison would have claimed over the cells the control makes
 * comparable, had nobody greyed them.
 *
 * @param holds the fields of the planned changes the control holds, in the plan's order
 * @param missed each planned change the control did not make
 * @param before per metric, the confounded comparison's raw median ratio over the cells
 * the control makes comparable
 */
public record ControlOutcome(List<String> holds, List<Missed> missed, List<Before> before) {

	public ControlOutcome {
		holds = List.copyOf(holds);
		missed = List.copyOf(missed);
		before = List.copyOf(before);
	}

	/**
	 * A planned change the control did not make.
	 *
	 * @param field the planned field
	 * @param expected what the plan asked for (the check's target, where there is one)
	 * @param measured what the control has: measured where Parity measures it, else as
	 * the control declares it
	 */
	public record Missed(String field, @Nullable Object expected, @Nullable Object measured) {
	}

	/**
	 * What the confounded comparison claimed of one metric over the cells the control
	 * makes comparable.
	 *
	 * @param metric the metric
	 * @param medianRatio the median of the confounded (greyed) ratios there
	 * @param cells how many cells: both comparisons have a ratio there, greyed in the
	 * confounded one and comparable in the control's
	 */
	public record Before(String metric, @JsonProperty("median_ratio") double medianRatio, int cells) {
	}

	/**
	 * @param plan the plan of the confounded comparison
	 * @param confounded the confounded comparison
	 * @param control the control run
	 * @param controlComparison the confounded comparison's baseline compared with the
	 * control, same settings
	 */
	public static ControlOutcome of(ControlPlan plan, Comparison confounded, Run control,
			Comparison controlComparison) {
		List<String> holds = new ArrayList<>();
		List<Missed> missed = new ArrayList<>();
		List<Cell> cells = control.cells()
			.stream()
			.filter(cell -> plan.cells().isEmpty() || plan.cells().contains(cell.anchor()))
			.toList();
		List<Cell> judged = cells.isEmpty() ? control.cells() : cells;
		for (ControlChange change : plan.changes()) {
			Optional<Missed> miss = miss(change, control, judged);
			if (miss.isPresent()) {
				missed.add(miss.get());
			}
			else {
				holds.add(change.field());
			}
		}
		List<Before> before = new ArrayList<>();
		for (String metric : confounded.metrics()) {
			List<Double> ratios = new ArrayList<>();
			for (ComparedCell cell : confounded.cells()) {
				Optional<ComparedMetric> claimed = cell.metric(metric);
				boolean comparableNow = controlComparison.cell(cell.anchor())
					.flatMap(c -> c.metric(metric))
					.map(ComparedMetric::comparable)
					.orElse(false);
				if (plan.cells().contains(cell.anchor()) && claimed.isPresent() && claimed.get().ratio() != null
						&& !claimed.get().comparable() && comparableNow) {
					ratios.add(claimed.get().ratio());
				}
			}
			if (!ratios.isEmpty()) {
				before.add(new Before(metric, SampleStatistics.median(ratios), ratios.size()));
			}
		}
		return new ControlOutcome(holds, missed, before);
	}

	/**
	 * Whether the control contradicts the claim: a metric's confounded median ratio
	 * outside the band of the control's.
	 */
	public boolean contradicts(Comparison controlComparison) {
		double band = controlComparison.settings().band();
		return before.stream()
			.anyMatch(claim -> controlComparison.headline(claim.metric())
				.map(Headline::medianRatio)
				.filter(Objects::nonNull)
				.filter(median -> Thresholds.exceeds(Math.abs(claim.medianRatio() / median - 1), band))
				.isPresent());
	}

	private static Optional<Missed> miss(ControlChange change, Run control, List<Cell> cells) {
		String field = change.field();
		ControlCheck check = change.check();
		if (check != null) {
			List<Double> medians = cells.stream()
				.flatMap(cell -> CellMeasures.medianOutputTokens(cell).stream())
				.toList();
			Double measured = medians.isEmpty() ? null : (double) Math.round(SampleStatistics.median(medians));
			return measured != null && check.met(measured) ? Optional.empty()
					: Optional.of(new Missed(field, check.target(), measured));
		}
		if (field.equals("cells[].requests.failed")) {
			int unsuccessful = cells.stream().mapToInt(cell -> cell.requests().unsuccessful()).sum();
			return unsuccessful == 0 ? Optional.empty() : Optional.of(new Missed(field, 0, unsuccessful));
		}
		if (field.equals("cells[].metrics")) {
			long empty = cells.stream().filter(cell -> cell.metrics().isEmpty()).count();
			return empty == 0 ? Optional.empty()
					: Optional.of(new Missed(field, change.to(), empty + " cells without a value"));
		}
		if (field.equals("cells[].output_tokens")) {
			long unmeasured = cells.stream().filter(cell -> CellMeasures.medianOutputTokens(cell).isEmpty()).count();
			return unmeasured == 0 ? Optional.empty() : Optional.of(new Missed(field, change.to(), null));
		}
		if (field.startsWith("cells[].metrics.")) {
			String[] parts = field.substring("cells[].metrics.".length()).split("\\.(?=[^.]+$)");
			boolean lacks = parts.length == 2 && cells.stream()
				.map(cell -> cell.metrics().get(parts[0]))
				.anyMatch(value -> value != null && value.statistic(parts[1]).isEmpty());
			return lacks ? Optional.of(new Missed(field, change.to(), null)) : Optional.empty();
		}
		Object has = ProvenanceFields.value(control.provenance(), field);
		if (field.equals("workload.warmup_requests") && change.to() instanceof Number wanted) {
			return has instanceof Number warmup && warmup.intValue() >= wanted.intValue() ? Optional.empty()
					: Optional.of(new Missed(field, change.to(), has));
		}
		return Objects.equals(has, change.to()) ? Optional.empty() : Optional.of(new Missed(field, change.to(), has));
	}

}
