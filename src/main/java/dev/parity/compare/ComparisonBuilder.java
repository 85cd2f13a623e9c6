package dev.parity.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.parity.run.Cell;
import dev.parity.run.Params;
import dev.parity.run.Run;
import dev.parity.run.RunDocument;
import dev.parity.stats.BenjaminiHochberg;
import dev.parity.stats.MedianLaw;
import dev.parity.stats.Noise;
import dev.parity.stats.RatioInterval;
import dev.parity.stats.Seed;
import dev.parity.stats.Verdict;
import org.jspecify.annotations.Nullable;

/**
 * Builds a {@link Comparison} from two runs, or two groups of replicates: matches their
 * cells on params, carries every run's checks (computed with the comparison's settings),
 * applies the comparison's rules, gives each comparable ratio an interval and a verdict,
 * and counts the headlines. Stateless.
 */
public final class ComparisonBuilder {

	static final List<ProvenanceRule> PROVENANCE_RULES = List.of(new CheckpointDiffers(), new CheckpointUnknown(),
			new DatasetDiffers(), new HarnessDiffers(), new EngineDiffers(), new SystemDiffers(),
			new CriticalFlagsDiffer(), new EnvironmentDiffers(), new VersionsDiffer(), new FlagsDiffer(),
			new ParamsDiffer());

	static final List<CellPairRule> CELL_PAIR_RULES = List.of(new OutputLengthDiffers(), new OutputLengthUnknown());

	static final List<MetricRule> METRIC_RULES = List.of(new StatisticMissing(), new ImplausibleRatio());

	public Comparison compare(Run baseline, Run contender, CompareSettings settings) {
		return compare(List.of(baseline), List.of(contender), settings, BootstrapMedians.FROM_SAMPLES);
	}

	/**
	 * Compares two groups of replicates (a group of one is a single run): per cell, each
	 * side's value is the median of its runs' values, a run whose own checks grey a
	 * metric there leaving its group for that metric.
	 * @param baselines the baseline's runs, replicates of each other, must not be empty
	 * @param contenders the contender's runs, replicates of each other, must not be empty
	 * @param medians where single runs' bootstrap medians come from
	 */
	public Comparison compare(List<Run> baselines, List<Run> contenders, CompareSettings settings,
			BootstrapMedians medians) {
		return compare(baselines, contenders, settings, medians, FixedParams.NONE, FixedParams.NONE);
	}

	/**
	 * As {@link #compare(List, List, CompareSettings, BootstrapMedians)}, each side
	 * keeping only its cells with the fixed parameters' values, matched on the other
	 * coordinates; the runs' checks are those of the whole runs.
	 */
	public Comparison compare(List<Run> baselines, List<Run> contenders, CompareSettings settings,
			BootstrapMedians medians, FixedParams baselineFixed, FixedParams contenderFixed) {
		Run baseline = baselines.get(0);
		Run contender = contenders.get(0);
		RunDocument base = baseline.document();
		RunDocument other = contender.document();
		MetricScope scope = MetricScope.of(base, other);
		ComparisonContext context = new ComparisonContext(settings, scope);
		ReplicateGroup baseGroup = ReplicateGroup.of(baselines, Flag.BASELINE, settings, scope).fixed(baselineFixed);
		ReplicateGroup otherGroup = ReplicateGroup.of(contenders, Flag.CONTENDER, settings, scope)
			.fixed(contenderFixed);
		List<ProvenanceDifference> provenance = ProvenanceDiff.between(base.provenance(), other.provenance(), settings);
		List<Flag> flags = provenanceFlags(provenance, context);
		List<String> metrics = scope.reportedBy(
				Stream.concat(baselines.stream(), contenders.stream()).map(Run::document).toArray(RunDocument[]::new));
		// Flags about a whole run or the whole comparison, which concern every cell.
		List<Flag> everywhere = Stream.of(flags, baseGroup.checks().run(), otherGroup.checks().run())
			.flatMap(List::stream)
			.toList();
		String seedRuns = baseGroup.ids() + baselineFixed.path() + "..." + otherGroup.ids() + contenderFixed.path();
		boolean singleRuns = baselines.size() == 1 && contenders.size() == 1;

		Map<Params, ReplicateGroup.GroupCell> unmatchedContender = new LinkedHashMap<>();
		otherGroup.cells().forEach(cell -> unmatchedContender.put(cell.params(), cell));
		List<ComparedCell> cells;
		List<UnmatchedCell> unmatched = new ArrayList<>();
		// What the headlines' intervals resample for groups, by metric: each comparable
		// cell's value per run.
		Map<String, List<double[][]>> runValues = new LinkedHashMap<>();
		// Single runs: each comparable cell × metric's medians paired, drawn after the
		// loop, several at once.
		List<PairedDraw> draws = new ArrayList<>();
		List<Drawing> drawing = new ArrayList<>();
		for (ReplicateGroup.GroupCell cell : baseGroup.cells()) {
			ReplicateGroup.GroupCell match = unmatchedContender.remove(cell.params());
			if (match == null) {
				unmatched.add(new UnmatchedCell(Flag.BASELINE, cell.params(), cell.anchor()));
				continue;
			}
			List<Flag> cellFlags = new ArrayList<>(cell.flags());
			cellFlags.addAll(match.flags());
			CELL_PAIR_RULES.forEach(rule -> cellFlags.addAll(rule.check(cell.combined(), match.combined(), context)));
			List<Flag> concerning = Stream.concat(everywhere.stream(), cellFlags.stream()).toList();
			List<ComparedMetric> compared = new ArrayList<>();
			for (String metric : metrics) {
				if (cell.combined().metric(metric).isEmpty() && match.combined().metric(metric).isEmpty()) {
					continue;
				}
				ComparedMetric point = compare(new MetricPair(metric, cell.combined().metrics().get(metric),
						match.combined().metrics().get(metric)), concerning, context);
				RatioInterval interval = null;
				if (point.comparable()) {
					long seed = Seed.of(seedRuns, cell.anchor(), metric, settings.stat());
					if (singleRuns) {
						draws.add(new PairedDraw(compared, compared.size(), point,
								sampleMedians(cell, match, metric, settings.stat(), medians), seed));
					}
					else {
						interval = Noise
							.overRuns(cell.values(metric, settings.stat()), match.values(metric, settings.stat()), seed)
							.orElse(null);
						runValues.computeIfAbsent(metric, m -> new ArrayList<>())
							.add(new double[][] { cell.valuesByRun(metric, settings.stat(), baselines),
									match.valuesByRun(metric, settings.stat(), contenders) });
					}
				}
				compared.add(judged(point, interval, settings.band()));
			}
			drawing.add(new Drawing(cell.params(), cell.anchor(), cellFlags, compared));
		}
		unmatchedContender.values()
			.forEach(cell -> unmatched.add(new UnmatchedCell(Flag.CONTENDER, cell.params(), cell.anchor())));
		// The draws are independent and seeded: drawing them in parallel gives the same
		// numbers as one after the other.
		// What the headlines' intervals resample for single runs, by metric: each
		// comparable cell's resampled ratios.
		draws.parallelStream().forEach(PairedDraw::draw);
		Map<String, List<double[]>> resampledRatios = new LinkedHashMap<>();
		for (PairedDraw draw : draws) {
			resampledRatios.computeIfAbsent(draw.point.metric(), m -> new ArrayList<>()).add(draw.ratios);
			// The exact interval; the drawn ratios only feed the headline's.
			draw.in.set(draw.position, judged(draw.point, draw.interval, settings.band()));
		}
		cells = significance(drawing.stream()
			.map(cell -> new ComparedCell(cell.params(), cell.anchor(), cell.flags(), cell.metrics()))
			.toList());

		List<ComparedCell> matched = cells;
		List<Headline> headlines = metrics.parallelStream()
			.map(metric -> Headline.over(metric, matched, settings.band())
				.withMedianRatioInterval(medianRatioInterval(resampledRatios.get(metric), runValues.get(metric),
						Seed.of(seedRuns, "headline", metric, settings.stat()))))
			.toList();
		return new Comparison(baseline, contender, settings, flags, baseGroup.checks(), otherGroup.checks(), metrics,
				headlines, cells, unmatched, provenance, baselines, contenders);
	}

	/**
	 * The flags the provenance rules raise on two runs under these settings: those
	 * {@link #compare} raises about the whole comparison, the only ones {@code vary}
	 * changes (no run, cell or metric rule reads it).
	 */
	static List<Flag> provenanceFlags(Run baseline, Run contender, CompareSettings settings) {
		RunDocument base = baseline.document();
		RunDocument other = contender.document();
		ComparisonContext context = new ComparisonContext(settings, MetricScope.of(base, other));
		return provenanceFlags(ProvenanceDiff.between(base.provenance(), other.provenance(), settings), context);
	}

	private static List<Flag> provenanceFlags(List<ProvenanceDifference> provenance, ComparisonContext context) {
		return PROVENANCE_RULES.stream().flatMap(rule -> rule.check(provenance, context).stream()).toList();
	}

	private ComparedMetric compare(MetricPair pair, List<Flag> concerning, ComparisonContext context) {
		String metric = pair.metric();
		String stat = context.settings().stat();
		List<Flag> flags = new ArrayList<>(concerning.stream().filter(flag -> flag.concerns(metric)).toList());
		METRIC_RULES.forEach(rule -> flags.addAll(rule.check(pair, context)));
		Double baseline = pair.baselineValue(stat);
		Double contender = pair.contenderValue(stat);
		Double ratio = pair.ratio(stat);
		boolean comparable = ratio != null && flags.stream().noneMatch(flag -> flag.greys(metric));
		return new ComparedMetric(metric, context.metrics().definition(metric), baseline, contender, ratio, comparable,
				flags);
	}

	/** A comparable ratio with its interval and verdict; a greyed one gets neither. */
	private static ComparedMetric judged(ComparedMetric point, @Nullable RatioInterval interval, double band) {
		if (!point.comparable() || point.ratio() == null) {
			return point;
		}
		Verdict verdict = Verdict.of(point.ratio(), interval, band, point.definition().higherIsBetter());
		return new ComparedMetric(point.metric(), point.definition(), point.baseline(), point.contender(),
				point.ratio(), true, point.flags(), interval, verdict, null);
	}

	/**
	 * One run per side: the exact bootstrap laws of their samples' medians, for the
	 * median only (the median is what is resampled), found when drawn; {@code null} when
	 * the statistic is another.
	 */
	private static java.util.function.@Nullable Supplier<@Nullable MedianLaw[]> sampleMedians(
			ReplicateGroup.GroupCell cell, ReplicateGroup.GroupCell match, String metric, String stat,
			BootstrapMedians medians) {
		if (!stat.equals("median") && !stat.equals("p50")) {
			return null;
		}
		ReplicateGroup.Member base = cell.members().get(0);
		ReplicateGroup.Member other = match.members().get(0);
		return () -> {
			MedianLaw baseLaw = medians.of(base.run(), base.cell(), metric);
			MedianLaw otherLaw = medians.of(other.run(), other.cell(), metric);
			return baseLaw == null || otherLaw == null ? null : new MedianLaw[] { baseLaw, otherLaw };
		};
	}

	/**
	 * A matched cell whose metrics' intervals are being drawn: {@code metrics} is filled
	 * in by the draws.
	 */
	private record Drawing(Params params, String anchor, List<Flag> flags, List<ComparedMetric> metrics) {
	}

	/**
	 * A comparable cell × metric of single runs: the exact interval from the two medians'
	 * bootstrap laws and ratios drawn from them for the headline (none when there is no
	 * interval), by {@link #draw}, then put in place of {@code point} in {@code in}.
	 */
	private static final class PairedDraw {

		final List<ComparedMetric> in;

		final int position;

		final ComparedMetric point;

		final java.util.function.@Nullable Supplier<@Nullable MedianLaw[]> medians;

		final long seed;

		double[] ratios = new double[0];

		@Nullable RatioInterval interval;

		PairedDraw(List<ComparedMetric> in, int position, ComparedMetric point,
				java.util.function.@Nullable Supplier<@Nullable MedianLaw[]> medians, long seed) {
			this.in = in;
			this.position = position;
			this.point = point;
			this.medians = medians;
			this.seed = seed;
		}

		void draw() {
			MedianLaw[] laws = medians == null ? null : medians.get();
			if (laws == null) {
				return;
			}
			interval = Noise.overSampleLaws(laws[0], laws[1]).orElse(null);
			if (interval != null) {
				ratios = Noise.drawnRatios(laws[0], laws[1], seed);
			}
		}

	}

	/**
	 * The interval of a headline's median ratio, resampled as its cells' intervals are:
	 * only when every comparable cell has resampled ratios (single runs), or over runs
	 * from 8 runs per side (groups).
	 */
	private static @Nullable RatioInterval medianRatioInterval(@Nullable List<double[]> resampledRatios,
			@Nullable List<double[][]> runValues, long seed) {
		if (resampledRatios != null && !resampledRatios.isEmpty()
				&& resampledRatios.stream().allMatch(ratios -> ratios.length == Noise.RESAMPLES)) {
			return Noise.medianOverCells(resampledRatios.toArray(double[][]::new), RatioInterval.BOOTSTRAP_SAMPLES);
		}
		if (runValues != null && !runValues.isEmpty()) {
			double[][] base = runValues.stream().map(pair -> pair[0]).toArray(double[][]::new);
			double[][] other = runValues.stream().map(pair -> pair[1]).toArray(double[][]::new);
			return Noise.medianOverCellsByRuns(base, other, seed).orElse(null);
		}
		return null;
	}

	/**
	 * Each p-value adjusted (Benjamini–Hochberg) over every comparable cell × metric that
	 * has one.
	 */
	private static List<ComparedCell> significance(List<ComparedCell> cells) {
		List<Double> pValues = new ArrayList<>();
		for (ComparedCell cell : cells) {
			for (ComparedMetric metric : cell.metrics()) {
				if (metric.interval() != null && metric.interval().pValue() != null) {
					pValues.add(metric.interval().pValue());
				}
			}
		}
		double[] adjusted = BenjaminiHochberg.adjust(pValues.stream().mapToDouble(Double::doubleValue).toArray());
		int next = 0;
		List<ComparedCell> result = new ArrayList<>();
		for (ComparedCell cell : cells) {
			List<ComparedMetric> metrics = new ArrayList<>();
			for (ComparedMetric metric : cell.metrics()) {
				if (metric.interval() != null && metric.interval().pValue() != null) {
					metrics.add(metric.withSignificance(adjusted[next++] <= BenjaminiHochberg.FALSE_DISCOVERY_RATE));
				}
				else {
					metrics.add(metric);
				}
			}
			result.add(new ComparedCell(cell.params(), cell.anchor(), cell.flags(), metrics));
		}
		return result;
	}

}
