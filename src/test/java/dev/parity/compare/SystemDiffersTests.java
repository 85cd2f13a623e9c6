package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static dev.parity.compare.TestRuns.settings;
import static org.assertj.core.api.Assertions.assertThat;

class SystemDiffersTests {

	private final SystemDiffers rule = new SystemDiffers();

	@Test
	void onlyAnnotatesByDefaultSinceTheSystemIsWhatAComparisonVaries() {
		var flags = TestRuns.check(rule, aRun().system("2x DGX Spark"), aRun().system("8x H100"),
				CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("system-differs");
			assertThat(flag.isAnnotation()).isTrue();
			assertThat(flag.message()).contains("system.name 2x DGX Spark vs 8x H100").contains("vary=system");
		});
	}

	@Test
	void greysEverythingWhenTheComparisonVariesSomethingElse() {
		var flags = TestRuns.check(rule, aRun().system("2x DGX Spark"), aRun().system("8x H100"),
				settings("vary", "engine"));

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.message()).contains("system.name 2x DGX Spark vs 8x H100")
				.contains("run both on the same system");
			assertThat(flag.greys()).contains("ttft_s", "decode_tps");
		});
	}

	@Test
	void staysQuietWhenTheyAgree() {
		assertThat(TestRuns.check(rule, aRun().system("2x DGX Spark"), aRun().system("2x DGX Spark"),
				CompareSettings.defaults()))
			.isEmpty();
	}

}
