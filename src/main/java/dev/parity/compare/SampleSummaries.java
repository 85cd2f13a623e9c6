package dev.parity.compare;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.parity.run.Cell;
import dev.parity.run.CellStatistics;
import dev.parity.run.Sample;
import dev.parity.run.SampleSummary;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * A cell's sample statistics ({@link SampleSummary}): the one place the run checks read
 * per-request samples. Ingest stores them under the server's default thresholds
 * ({@code parity.thresholds.*}); a check of a cell read without its samples reads them
 * back, and of a cell read with them computes them here — the same numbers either way.
 */
@Component
public class SampleSummaries implements CellStatistics.Summaries {

	private final double outlierZ;

	SampleSummaries(Environment environment) {
		Map<String, String> configured = Binder.get(environment)
			.bind("parity.thresholds", Bindable.mapOf(String.class, String.class))
			.orElse(Map.of());
		this.outlierZ = CompareSettings.defaults().withOverrides(configured).outlierZ();
	}

	@Override
	public SampleSummary of(Cell cell) {
		return compute(cell, outlierZ);
	}

	@Override
	public String computedUnder() {
		return CellStatistics.computedUnder(outlierZ);
	}

	/**
	 * The key of the stored statistics a comparison under these settings may read instead
	 * of the runs' samples ({@code RunRepository.findAll(ids, key)}); {@code null} when
	 * it needs the samples themselves: goodput against service-level objectives counts
	 * requests, and a comparison whose outlier z is not the server's default discloses
	 * what the defaults would grey, which needs statistics under both.
	 * @param defaults the server's defaults, which ingest computes the statistics under
	 */
	public static @Nullable String readableUnder(CompareSettings settings, CompareSettings defaults) {
		if (settings.slo().any() || Double.compare(settings.outlierZ(), defaults.outlierZ()) != 0) {
			return null;
		}
		return CellStatistics.computedUnder(settings.outlierZ());
	}

	/**
	 * The statistics the checks read of a cell: those it was read with, else computed
	 * from its samples.
	 */
	static SampleSummary of(Cell cell, double outlierZ) {
		SampleSummary stored = cell.statistics();
		if (stored == null) {
			return compute(cell, outlierZ);
		}
		if (!stored.computedUnder().equals(CellStatistics.computedUnder(outlierZ))) {
			throw new IllegalStateException("cell " + cell.anchor() + " was read with statistics computed under "
					+ stored.computedUnder() + ", not outlier_z=" + outlierZ + ": read it with its samples");
		}
		return stored;
	}

	/** The statistics of a cell's samples, counting outliers beyond {@code outlierZ}. */
	static SampleSummary compute(Cell cell, double outlierZ) {
		List<Sample> samples = cell.samples();
		Set<String> names = new LinkedHashSet<>();
		Map<String, List<Double>> completed = new LinkedHashMap<>();
		List<Double> tokens = new ArrayList<>();
		int longest = 0;
		double longestTokens = 0;
		// Each sample's metrics in the order the database gives them back, so that a cell
		// read from its upload and the
		// same cell read back from storage agree on which metric comes first.
		Set<String> lastKeys = Set.of();
		List<String> keys = List.of();
		for (int i = 0; i < samples.size(); i++) {
			Sample sample = samples.get(i);
			if (!sample.metrics().keySet().equals(lastKeys)) {
				lastKeys = sample.metrics().keySet();
				keys = Sample.storedOrder(lastKeys);
			}
			names.addAll(keys);
			if (!sample.ok()) {
				continue;
			}
			for (String metric : keys) {
				completed.computeIfAbsent(metric, m -> new ArrayList<>()).add(sample.metrics().get(metric));
			}
			Double output = sample.outputTokens();
			if (output != null) {
				tokens.add(output);
				// The first longest request with any output: what runaway names.
				if (output > longestTokens) {
					longestTokens = output;
					longest = i + 1;
				}
			}
		}
		List<String> okOrder = new ArrayList<>(completed.keySet());
		List<SampleSummary.Values> metrics = new ArrayList<>();
		for (String name : names) {
			metrics.add(values(name, okOrder.indexOf(name), completed.getOrDefault(name, List.of()), outlierZ));
		}
		SampleSummary.Values outputTokens = tokens.isEmpty() ? null
				: new SampleSummary.Values("output_tokens", -1, tokens.size(), SampleStatistics.median(tokens),
						SampleStatistics.mean(tokens), SampleStatistics.populationSd(tokens), Double.NaN,
						Collections.min(tokens), Collections.max(tokens), longest,
						longest == 0 ? Double.NaN : longestTokens, Double.NaN, 0);
		return new SampleSummary(samples.size(), metrics, outputTokens, CellStatistics.computedUnder(outlierZ));
	}

	/**
	 * One metric's completed values: their statistics, and the value furthest beyond the
	 * outlier z (as outlier reads it).
	 */
	private static SampleSummary.Values values(String name, int okPosition, List<Double> values, double outlierZ) {
		if (values.isEmpty()) {
			return new SampleSummary.Values(name, okPosition, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
					Double.NaN, Double.NaN, 0, Double.NaN, Double.NaN, 0);
		}
		double[] array = new double[values.size()];
		for (int i = 0; i < array.length; i++) {
			array[i] = values.get(i);
		}
		SampleStatistics.Summary summary = SampleStatistics.Summary.of(array);
		double median = summary.median();
		double mad = summary.mad();
		int worst = -1;
		double worstZ = 0;
		int beyond = 0;
		for (int i = 0; i < array.length; i++) {
			double z = SampleStatistics.robustZ(array[i], median, mad);
			if (Thresholds.exceeds(z, outlierZ)) {
				beyond++;
				if (z > worstZ) {
					worstZ = z;
					worst = i;
				}
			}
		}
		return new SampleSummary.Values(name, okPosition, array.length, median, summary.mean(), summary.populationSd(),
				mad, summary.min(), summary.max(), worst + 1, worst < 0 ? Double.NaN : array[worst],
				worst < 0 ? Double.NaN : worstZ, beyond);
	}

}
