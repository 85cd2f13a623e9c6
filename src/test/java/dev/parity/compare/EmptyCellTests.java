package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static org.assertj.core.api.Assertions.assertThat;

class EmptyCellTests {

	private final EmptyCell rule = new EmptyCell();

	@Test
	void greysACellWithoutRequests() {
		var flags = TestRuns.check(rule, aRun().cell(c -> c.requests(0, 0, 0).throughput(0.0)),
				CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("empty-cell");
			assertThat(flag.message()).startsWith("no requests in this cell");
			assertThat(flag.greys()).contains("ttft_s", "decode_tps", "throughput_tps");
		});
	}

	@Test
	void greysACellWhoseCompletedRequestsLeftNoMetricValue() {
		var flags = TestRuns.check(rule, aRun().cell(c -> c.requests(4, 0, 0)), CompareSettings.defaults());

		assertThat(flags).singleElement()
			.satisfies(flag -> assertThat(flag.message())
				.startsWith("4 requests completed but the cell records no metric value"));
	}

	@Test
	void leavesFailedCellsToTheFailuresRule() {
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.requests(0, 4, 0)), CompareSettings.defaults())).isEmpty();
	}

	@Test
	void doesNotCallUnknownCountsEmpty() {
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.requests(null, null, null).decode(70)),
				CompareSettings.defaults()))
			.isEmpty();
	}

	@Test
	void staysQuietOnAMeasuredCell() {
		assertThat(TestRuns.check(rule, aRun().cell(c -> c.decode(70)), CompareSettings.defaults())).isEmpty();
	}

}
