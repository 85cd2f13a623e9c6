package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static org.assertj.core.api.Assertions.assertThat;

class OutlierTests {

	private final Outlier rule = new Outlier();

	@Test
	void annotatesTheSampleFarFromTheMedian() {
		var flags = TestRuns.check(rule, aRun().cell(c -> c.sampleValues("prefill_tps", 1545, 1020, 1010, 1030, 1025,
				1015, 1020, 1018, 1022, 1019, 1021, 1024, 1016, 1020, 1023)), CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("outlier");
			assertThat(flag.metric()).isEqualTo("prefill_tps");
			assertThat(flag.isAnnotation()).isTrue();
			assertThat(flag.message()).startsWith("prefill_tps: run 1 of 15: 1,545 vs median 1,020 (robust z")
				.contains("cold or cached?");
		});
	}

	@Test
	void needsFiveValues() {
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.sampleValues("ttft_s", 9.0, 1.0, 1.0, 1.0)),
				CompareSettings.defaults()))
			.isEmpty();
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.sampleValues("ttft_s", 9.0, 1.0, 1.0, 1.0, 1.0)),
				CompareSettings.defaults()))
			.hasSize(1);
	}

	@Test
	void floorsTheScaleAtOnePercentOfTheMedian() {
		// MAD 0; 1 % of 100 is 1, so 107 is z = 7 / 1.4826 ≈ 4.7: not an outlier
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.sampleValues("decode_tps", 100, 100, 100, 100, 107)),
				CompareSettings.defaults()))
			.isEmpty();
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.sampleValues("decode_tps", 100, 100, 100, 100, 108)),
				CompareSettings.defaults()))
			.hasSize(1);
	}

	@Test
	void doesNotFireExactlyAtTheThreshold() {
		double atFive = 100 + 5 * 1.4826;
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.sampleValues("decode_tps", 100, 100, 100, 100, atFive)),
				CompareSettings.defaults()))
			.isEmpty();
	}

	@Test
	void staysQuietWithoutSamples() {
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.decode(70)), CompareSettings.defaults())).isEmpty();
	}

}
