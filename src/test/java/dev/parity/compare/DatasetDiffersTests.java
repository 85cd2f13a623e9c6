package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static dev.parity.compare.TestRuns.settings;
import static org.assertj.core.api.Assertions.assertThat;

class DatasetDiffersTests {

	private final DatasetDiffers rule = new DatasetDiffers();

	@Test
	void greysEverythingWhenBothSidesDeclareDifferentValues() {
		var flags = TestRuns.check(rule, aRun().dataset("random"), aRun().dataset("sharegpt"),
				CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("dataset-differs");
			assertThat(flag.message()).contains("workload.dataset random vs sharegpt")
				.contains("run both on the same dataset, or compare with vary=dataset");
			assertThat(flag.greys()).contains("ttft_s", "prefill_tps", "decode_tps", "throughput_tps");
		});
	}

	@Test
	void onlyAnnotatesWhenItIsWhatTheComparisonVaries() {
		var flags = TestRuns.check(rule, aRun().dataset("random"), aRun().dataset("sharegpt"),
				settings("vary", "dataset"));

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.isAnnotation()).isTrue();
			assertThat(flag.message()).contains("workload.dataset random vs sharegpt").contains("vary=dataset");
		});
	}

	@Test
	void staysQuietWhenOnlyOneSideHasAValue() {
		assertThat(TestRuns.check(rule, aRun().dataset("random"), aRun().dataset(null), CompareSettings.defaults()))
			.isEmpty();
	}

	@Test
	void staysQuietWhenTheyAgree() {
		assertThat(TestRuns.check(rule, aRun().dataset("random"), aRun().dataset("random"), CompareSettings.defaults()))
			.isEmpty();
	}

}
