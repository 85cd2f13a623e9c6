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

/**
 * Builds a {@link Comparison} from two runs: matches their cells on params, carries both runs' checks (computed with
 * the comparison's settings), applies the comparison's rules and counts the headlines. Stateless.
 */
public final class ComparisonBuilder {

	private final List<ProvenanceRule> provenanceRules = List.of(new CheckpointDiffers(), new CheckpointUnknown(),
			new DatasetDiffers(), new HarnessDiffers(), new EngineDiffers(), new SystemDiffers(),
			new CriticalFlagsDiffer(), new VersionsDiffer(), new FlagsDiffer(), new ParamsDiffer());

	private final List<CellPairRule> cellRules = List.of(new OutputLengthDiffers(), new OutputLengthUnknown());

	private final List<MetricRule> metricRules = List.of(new StatisticMissing(), new ImplausibleRatio());

	public Comparison compare(Run baseline, Run contender, CompareSettings settings) {
		RunDocument base = baseline.document();
		RunDocument other = contender.document();
		MetricScope scope = MetricScope.of(base, other);
		ComparisonContext context = new ComparisonContext(settings, scope);
		RunFlags baselineChecks = RunChecks.check(base, settings, scope).onSide(Flag.BASELINE);
		RunFlags contenderChecks = RunChecks.check(other, settings, scope).onSide(Flag.CONTENDER);
		List<ProvenanceDifference> provenance = ProvenanceDiff.between(base.provenance(), other.provenance(), settings);
		List<Flag> flags = provenanceRules.stream().flatMap(rule -> rule.check(provenance, context).stream()).toList();
		List<String> metrics = scope.reportedBy(base, other);
		// Flags about a whole run or the whole comparison, which concern every cell.
		List<Flag> everywhere = Stream.of(flags, baselineChecks.run(), contenderChecks.run()).flatMap(List::stream)
			.toList();

		Map<Params, Cell> unmatchedContender = new LinkedHashMap<>();
		other.cells().forEach(cell -> unmatchedContender.put(cell.params(), cell));
		List<ComparedCell> cells = new ArrayList<>();
		List<UnmatchedCell> unmatched = new ArrayList<>();
		for (Cell cell : base.cells()) {
			Cell match = unmatchedContender.remove(cell.params());
			if (match == null) {
				unmatched.add(new UnmatchedCell(Flag.BASELINE, cell.params(), cell.anchor()));
				continue;
			}
			List<Flag> cellFlags = new ArrayList<>(baselineChecks.forCell(cell.anchor()));
			cellFlags.addAll(contenderChecks.forCell(cell.anchor()));
			cellRules.forEach(rule -> cellFlags.addAll(rule.check(cell, match, context)));
			List<Flag> concerning = Stream.concat(everywhere.stream(), cellFlags.stream()).toList();
			List<ComparedMetric> compared = metrics.stream()
				.filter(metric -> cell.metric(metric).isPresent() || match.metric(metric).isPresent())
				.map(metric -> compare(new MetricPair(metric, cell.metrics().get(metric), match.metrics().get(metric)),
						concerning, context))
				.toList();
			cells.add(new ComparedCell(cell.params(), cell.anchor(), cellFlags, compared));
		}
		unmatchedContender.values()
			.forEach(cell -> unmatched.add(new UnmatchedCell(Flag.CONTENDER, cell.params(), cell.anchor())));

		List<Headline> headlines = metrics.stream().map(metric -> Headline.over(metric, cells, settings.band())).toList();
		return new Comparison(baseline, contender, settings, flags, baselineChecks, contenderChecks, metrics, headlines,
				cells, unmatched, provenance);
	}

	private ComparedMetric compare(MetricPair pair, List<Flag> concerning, ComparisonContext context) {
		String metric = pair.metric();
		String stat = context.settings().stat();
		List<Flag> flags = new ArrayList<>(concerning.stream().filter(flag -> flag.concerns(metric)).toList());
		metricRules.forEach(rule -> flags.addAll(rule.check(pair, context)));
		Double baseline = pair.baselineValue(stat);
		Double contender = pair.contenderValue(stat);
		Double ratio = pair.ratio(stat);
		boolean comparable = ratio != null && flags.stream().noneMatch(flag -> flag.greys(metric));
		return new ComparedMetric(metric, context.metrics().definition(metric), baseline, contender, ratio, comparable,
				flags);
	}

}
