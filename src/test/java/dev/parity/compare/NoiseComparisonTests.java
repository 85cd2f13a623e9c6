package dev.parity.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import dev.parity.run.Run;
import dev.parity.stats.RatioInterval;
import dev.parity.stats.Verdict;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static dev.parity.compare.TestRuns.aRun;
import static dev.parity.compare.TestRuns.settings;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Intervals, verdicts and significance of comparisons of single runs and of replicate
 * groups.
 */
class NoiseComparisonTests {

	private static final String CELL = "cell-concurrency-1--prompt_tokens-1024";

	private final ComparisonBuilder builder = new ComparisonBuilder();

	/**
	 * Five replicates of decode_tps around {@code centre}, each off by a normal relative
	 * error of {@code spread}.
	 */
	private static List<Run> group(String prefix, double centre, double spread, long seed) {
		SplittableRandom random = new SplittableRandom(seed);
		List<Run> runs = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			double value = centre * Math.exp(spread * gaussian(random));
			runs.add(aRun().cell(c -> c.decode(value).ttft(1.0)).build(prefix + i));
		}
		return runs;
	}

	/**
	 * A standard normal draw (Box–Muller), so the groups are the same on every run of the
	 * test.
	 */
	private static double gaussian(SplittableRandom random) {
		return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
	}

	private ComparedMetric decode(List<Run> baseline, List<Run> contender) {
		return builder.compare(baseline, contender, CompareSettings.defaults(), BootstrapMedians.FROM_SAMPLES)
			.cell(CELL)
			.orElseThrow()
			.metric("decode_tps")
			.orElseThrow();
	}

	private final List<Run> baseline = group("baseline0", 100, 0.01, 1);

	@Test
	void aClearlySlowerGroupIsWorse() {
		ComparedMetric decode = decode(baseline, group("slower000", 80, 0.01, 2));

		assertThat(decode.interval()).isNotNull();
		assertThat(decode.interval().method()).isEqualTo(RatioInterval.WELCH);
		assertThat(decode.interval().high()).isLessThan(0.9);
		assertThat(decode.verdict()).isEqualTo(Verdict.WORSE);
		assertThat(decode.significant()).isTrue();
	}

	@Test
	void aSlightlySlowerQuietGroupIsWithinTheBandYetSignificant() {
		ComparedMetric decode = decode(baseline, group("quiet0000", 97, 0.005, 3));

		assertThat(decode.interval().low()).isGreaterThan(0.9);
		assertThat(decode.interval().high()).isLessThan(1.0);
		assertThat(decode.verdict()).isEqualTo(Verdict.WITHIN_BAND);
		assertThat(decode.significant()).isTrue();
	}

	@Test
	void aNoisyGroupIsInconclusive() {
		ComparedMetric decode = decode(baseline, group("noisy0000", 90, 0.15, 4));

		assertThat(decode.interval().low()).isLessThan(0.9);
		assertThat(decode.interval().high()).isGreaterThan(0.9);
		assertThat(decode.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
	}

	@Test
	void theGroupValueIsTheMedianOfItsRuns() {
		List<Run> contender = List.of(aRun().cell(c -> c.decode(90)).build("median0001"),
				aRun().cell(c -> c.decode(110)).build("median0002"),
				aRun().cell(c -> c.decode(95)).build("median0003"));

		ComparedMetric decode = decode(baseline, contender);

		assertThat(decode.contender()).isEqualTo(95.0);
	}

	@Test
	void aReplicateGreyedInACellLeavesTheGroupThereAndTheCellSaysSo() {
		List<Run> contender = List.of(aRun().cell(c -> c.decode(96)).build("greyed0001"),
				aRun().cell(c -> c.decode(97)).build("greyed0002"),
				aRun().cell(c -> c.decode(40).requests(10, 3, 0)).build("greyed0003"));

		Comparison comparison = builder.compare(baseline, contender, CompareSettings.defaults(),
				BootstrapMedians.FROM_SAMPLES);
		ComparedMetric decode = comparison.cell(CELL).orElseThrow().metric("decode_tps").orElseThrow();

		assertThat(decode.contender()).isEqualTo(96.5);
		assertThat(decode.comparable()).isTrue();
		assertThat(decode.interval()).as("two runs left: no interval").isNull();
		assertThat(decode.verdict()).isEqualTo(Verdict.WITHIN_BAND);
		assertThat(comparison.cell(CELL).orElseThrow().flags()).anySatisfy(flag -> {
			assertThat(flag.rule()).isEqualTo("failures");
			assertThat(flag.message()).startsWith("run greyed0003 left the group for");
			assertThat(flag.greys()).isEmpty();
		});
	}

	@Test
	void aCellGreyedInEveryReplicateStaysGreyedWithoutAVerdict() {
		List<Run> contender = List.of(aRun().cell(c -> c.decode(96).requests(10, 1, 0)).build("allgrey001"),
				aRun().cell(c -> c.decode(97).requests(10, 2, 0)).build("allgrey002"),
				aRun().cell(c -> c.decode(40).requests(10, 3, 0)).build("allgrey003"));

		ComparedMetric decode = decode(baseline, contender);

		assertThat(decode.comparable()).isFalse();
		assertThat(decode.verdict()).isNull();
		assertThat(decode.interval()).isNull();
		assertThat(decode.significant()).isNull();
	}

	@Test
	void singleRunsWithSamplesGetAWithinRunIntervalThatSaysSo() {
		Comparison comparison = singleRunsWithSamples(CompareSettings.defaults());
		ComparedMetric ttft = comparison.cell(CELL).orElseThrow().metric("ttft_s").orElseThrow();

		assertThat(ttft.interval()).isNotNull();
		assertThat(ttft.interval().method()).isEqualTo(RatioInterval.BOOTSTRAP_SAMPLES);
		assertThat(ttft.intervalPhrase()).endsWith("(within-run noise only: run-to-run drift not measured)");
		assertThat(ttft.verdict()).isNotNull();
		assertThat(comparison.headline("ttft_s").orElseThrow().medianRatioInterval()).isNotNull();
		JsonMapper mapper = JsonMapper.builder().build();
		assertThat(mapper.writeValueAsString(ComparisonSnapshot.of(comparison, CompareSettings.defaults(), mapper)))
			.contains(
					"\"method\":\"bootstrap-samples\",\"caution\":\"within-run noise only: run-to-run drift not measured\"");
	}

	@Test
	void theIntervalIsTheSameOnEveryLoadAndUnderOtherSettings() {
		RatioInterval first = interval(singleRunsWithSamples(CompareSettings.defaults()));
		RatioInterval again = interval(singleRunsWithSamples(CompareSettings.defaults()));
		RatioInterval otherBand = interval(singleRunsWithSamples(settings("band", "0.05", "implausible", "4")));

		assertThat(again).isEqualTo(first);
		assertThat(otherBand).isEqualTo(first);
	}

	@Test
	void noIntervalFromFewerThanTenSamples() {
		Run base = aRun().cell(c -> c.ttft(1.0).sampleValues("ttft_s", 1, 1.1, 0.9, 1, 1.05, 0.95, 1, 1.02, 0.98))
			.build("fewsamples");
		Run other = aRun().cell(c -> c.ttft(1.0).sampleValues("ttft_s", 1, 1.1, 0.9, 1, 1.05, 0.95, 1, 1.02, 0.98))
			.build("fewsample2");

		ComparedMetric ttft = builder.compare(base, other, CompareSettings.defaults())
			.cell(CELL)
			.orElseThrow()
			.metric("ttft_s")
			.orElseThrow();

		assertThat(ttft.interval()).isNull();
		assertThat(ttft.verdict()).isEqualTo(Verdict.WITHIN_BAND);
		assertThat(ttft.significant()).isNull();
	}

	private static RatioInterval interval(Comparison comparison) {
		return comparison.cell(CELL).orElseThrow().metric("ttft_s").orElseThrow().interval();
	}

	private Comparison singleRunsWithSamples(CompareSettings settings) {
		SplittableRandom random = new SplittableRandom(9);
		double[] base = random.doubles(40, 0.9, 1.1).toArray();
		double[] other = random.doubles(40, 0.95, 1.15).toArray();
		Run baselineRun = aRun().cell(c -> c.ttft(1.0).sampleValues("ttft_s", base)).build("samplebase");
		Run contenderRun = aRun().cell(c -> c.ttft(1.05).sampleValues("ttft_s", other)).build("sampleothr");
		return builder.compare(baselineRun, contenderRun, settings);
	}

}
