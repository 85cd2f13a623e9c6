package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static org.assertj.core.api.Assertions.assertThat;

class LatencySpikeTests {

	private final LatencySpike rule = new LatencySpike();

	@Test
	void greysTtftAndPrefillOfACellSlowerThanABusierLaterOne() {
		var flags = TestRuns.check(rule,
				aRun().cell(c -> c.params("prompt_tokens", 280, "concurrency", 4).order(3).ttft(3.41).prefill(82))
					.cell(c -> c.params("prompt_tokens", 280, "concurrency", 8).order(4).ttft(1.07).prefill(261)),
				CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("latency-spike");
			assertThat(flag.message()).startsWith(
					"ttft 3.41 s at concurrency 4, yet 1.07 s at concurrency 8 run later (3.19×, over 2×): cold or spiking");
			assertThat(flag.greys()).containsExactly("ttft_s", "prefill_tps");
		});
	}

	@Test
	void comparesWithTheFastestOfAnyLaterBusierCell() {
		var flags = TestRuns.check(rule,
				aRun().cell(c -> c.params("prompt_tokens", 280, "concurrency", 1).order(1).ttft(8.37))
					.cell(c -> c.params("prompt_tokens", 280, "concurrency", 2).order(2).ttft(9.45))
					.cell(c -> c.params("prompt_tokens", 280, "concurrency", 8).order(4).ttft(0.92)),
				CompareSettings.defaults());

		assertThat(flags).hasSize(2)
			.allSatisfy(flag -> assertThat(flag.message()).contains("yet 920 ms at concurrency 8"));
	}

	@Test
	void doesNotFireExactlyAtTheFactor() {
		assertThat(TestRuns.check(rule,
				aRun().cell(c -> c.params("prompt_tokens", 280, "concurrency", 4).order(1).ttft(2.14))
					.cell(c -> c.params("prompt_tokens", 280, "concurrency", 8).order(2).ttft(1.07)),
				CompareSettings.defaults()))
			.isEmpty();
	}

	@Test
	void isSkippedWithoutOrder() {
		assertThat(TestRuns.check(rule,
				aRun().cell(c -> c.params("prompt_tokens", 280, "concurrency", 4).ttft(3.41))
					.cell(c -> c.params("prompt_tokens", 280, "concurrency", 8).ttft(1.07)),
				CompareSettings.defaults()))
			.isEmpty();
	}

	@Test
	void onlyLooksAtCellsRunLaterWithHigherConcurrencyAndTheSameOtherParams() {
		assertThat(TestRuns.check(rule,
				aRun().cell(c -> c.params("prompt_tokens", 280, "concurrency", 4).order(2).ttft(3.41))
					// earlier
					.cell(c -> c.params("prompt_tokens", 280, "concurrency", 8).order(1).ttft(1.07))
					// later, but not busier
					.cell(c -> c.params("prompt_tokens", 280, "concurrency", 2).order(3).ttft(0.9))
					// later and busier, but another prompt length
					.cell(c -> c.params("prompt_tokens", 8192, "concurrency", 16).order(4).ttft(1.0)),
				CompareSettings.defaults()))
			.isEmpty();
	}

}
