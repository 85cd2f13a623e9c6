package dev.parity.ingest.harness;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class AiperfSweepTests {

	@Test
	void eachCombinationIsACellWithTheTrialMeanOfEachStatistic() {
		HarnessImport imported = HarnessImporters.read(HarnessFormat.AIPERF_SWEEP, Samples.ownFolder("aiperf-sweep"),
				null);
		JsonNode cells = imported.cellsDocument().path("cells");

		assertThat(cells).hasSize(2);
		JsonNode low = cells.get(0);
		assertThat(low.at("/params/concurrency").intValue()).isEqualTo(4);
		assertThat(low.at("/metrics/ttft_s/median").doubleValue()).isCloseTo(0.0485, within(1e-12));
		assertThat(low.at("/metrics/ttft_s/p99").doubleValue()).isCloseTo(0.131, within(1e-12));
		assertThat(low.at("/metrics/tpot_ms/p99").doubleValue()).isCloseTo(12.4, within(1e-9));
		assertThat(low.at("/metrics/e2e_latency_s/median").doubleValue()).isCloseTo(1.29, within(1e-12));
		assertThat(low.at("/metrics/request_throughput").doubleValue()).isCloseTo(3.1, within(1e-12));
		assertThat(low.at("/output_tokens/median").intValue()).isEqualTo(128);
		// 200 requests in each of the 3 trials.
		assertThat(low.at("/requests/completed").intValue()).isEqualTo(600);
		assertThat(low.at("/requests/failed").isNull()).isTrue();
		assertThat(low.has("order")).isFalse();
		assertThat(cells.get(1).at("/params/concurrency").intValue()).isEqualTo(16);
		assertThat(imported.notes()).anyMatch(note -> note.contains("3 trials per combination"));
		ImportedDocuments.read(imported);
	}

	@Test
	void aSingleTrialSweepKeepsItsValuesAsTheyAre() {
		String sweep = """
				{"aggregation_type": "sweep", "num_profile_runs": 1, "num_successful_runs": 1, "failed_runs": [],
				 "per_combination_metrics": [{"parameters": {"request_rate": 5.0},
				   "metrics": {"time_to_first_token_p50": {"mean": 80.0, "std": 0, "min": 80.0, "max": 80.0, "unit": "ms"},
				               "request_count_avg": {"mean": 50.0, "min": 50.0, "max": 50.0, "unit": "requests"}}}]}
				""";

		JsonNode cell = HarnessImporters
			.read(HarnessFormat.AIPERF_SWEEP, List.of(InputFile.of("profile_export_aiperf_sweep.json", sweep)), null)
			.cellsDocument()
			.path("cells")
			.get(0);

		assertThat(cell.at("/params/request_rate").doubleValue()).isEqualTo(5.0);
		assertThat(cell.at("/metrics/ttft_s/median").doubleValue()).isEqualTo(0.08);
		assertThat(cell.at("/requests/completed").intValue()).isEqualTo(50);
	}

}
