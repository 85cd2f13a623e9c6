package dev.parity.ingest.harness;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class PublishedTableTests {

	private static final String SOURCE = "https://example.org/blog/serving-results";

	private static TableMapping csvMapping() {
		Map<String, MetricColumn> metrics = new LinkedHashMap<>();
		metrics.put("TTFT median (ms)", new MetricColumn("ttft_s", "ms"));
		metrics.put("TTFT p99 (ms)", new MetricColumn("ttft_s", "ms", "p99"));
		metrics.put("Decode (tok/s)", new MetricColumn("decode_tps", "tokens/s"));
		metrics.put("Output throughput (tok/s)", new MetricColumn("throughput_tps", "tok/s"));
		return new TableMapping("Input length", "Concurrency", metrics, SOURCE, "2026-07-20", Map.of());
	}

	@Test
	void csvRowsBecomeCellsOfAReferenceRunInCatalogueUnits() {
		HarnessImport imported = HarnessImporters.read(HarnessFormat.TABLE_CSV,
				List.of(Samples.own("published-table.csv")), csvMapping());
		JsonNode document = imported.cellsDocument();
		JsonNode cells = document.path("cells");

		assertThat(document.path("role").asString()).isEqualTo("reference");
		assertThat(document.at("/source/url").asString()).isEqualTo(SOURCE);
		assertThat(document.at("/source/revision").asString()).isEqualTo("2026-07-20");
		assertThat(cells).hasSize(4);
		JsonNode last = cells.get(3);
		assertThat(last.at("/params/prompt_tokens").intValue()).isEqualTo(8192);
		assertThat(last.at("/params/concurrency").intValue()).isEqualTo(8);
		// Two columns of one metric: a statistics object; 3921.3 ms is 3.9213 s.
		assertThat(last.at("/metrics/ttft_s/median").doubleValue()).isEqualTo(3.9213);
		assertThat(last.at("/metrics/ttft_s/p99").doubleValue()).isEqualTo(7.0128);
		// One column of a metric: a single value.
		assertThat(last.at("/metrics/decode_tps").doubleValue()).isEqualTo(41.7);
		assertThat(last.at("/metrics/throughput_tps").doubleValue()).isEqualTo(301.4);
		assertThat(last.at("/requests/completed").isNull()).isTrue();
		assertThat(last.has("order")).isFalse();
		assertThat(imported.notes()).contains("columns not mapped, left out: Notes");
		assertThat(imported.notes()).anyMatch(note -> note.contains("no request counts"));
		ImportedDocuments.read(imported);
	}

	@Test
	void pastedMarkdownTableWithEmphasisThousandsSeparatorsAndDashes() {
		Map<String, MetricColumn> metrics = new LinkedHashMap<>();
		metrics.put("TTFT (s)", new MetricColumn("ttft_s", "s"));
		metrics.put("Decode tok/s", new MetricColumn("decode_tps", "tokens/s"));
		metrics.put("Req/min", new MetricColumn("request_throughput", "requests/min"));
		TableMapping mapping = new TableMapping("Prompt", "Users", metrics, SOURCE);

		HarnessImport imported = HarnessImporters.read(HarnessFormat.TABLE_MARKDOWN,
				List.of(Samples.own("published-table.md")), mapping);
		JsonNode cells = imported.cellsDocument().path("cells");

		assertThat(cells).hasSize(3);
		assertThat(cells.get(0).at("/params/prompt_tokens").intValue()).isEqualTo(1024);
		assertThat(cells.get(0).at("/metrics/ttft_s").doubleValue()).isEqualTo(0.18);
		assertThat(cells.get(1).at("/metrics/request_throughput").doubleValue()).isCloseTo(3.36, within(1e-12));
		assertThat(cells.get(2).at("/params/prompt_tokens").intValue()).isEqualTo(32768);
		assertThat(cells.get(2).at("/metrics/ttft_s").doubleValue()).isEqualTo(16.73);
		// "—": no value published, so none imported.
		assertThat(cells.get(2).path("metrics").has("request_throughput")).isFalse();
		ImportedDocuments.read(imported);
	}

	@Test
	void extraParamColumnsAndAnUnlimitedRate() {
		String csv = "prompt,rate,ttft_ms\n512,inf,80\n512,4,41\n";
		TableMapping mapping = new TableMapping("prompt", null, Map.of("ttft_ms", new MetricColumn("ttft_s", "ms")),
				SOURCE, null, Map.of("rate", "request_rate"));

		JsonNode cells = HarnessImporters.read(HarnessFormat.TABLE_CSV, List.of(InputFile.of("t.csv", csv)), mapping)
			.cellsDocument()
			.path("cells");

		assertThat(cells.get(0).at("/params/request_rate").asString()).isEqualTo("inf");
		assertThat(cells.get(1).at("/params/request_rate").intValue()).isEqualTo(4);
		assertThat(cells.get(1).at("/metrics/ttft_s").doubleValue()).isEqualTo(0.041);
	}

	@Test
	void rejectsMappingsThatDoNotFitTheTable() {
		List<InputFile> table = List.of(Samples.own("published-table.csv"));

		assertThatThrownBy(() -> HarnessImporters.read(HarnessFormat.TABLE_CSV, table,
				new TableMapping("Prompt", null, Map.of("TTFT median (ms)", new MetricColumn("ttft_s", "ms")), SOURCE)))
			.isInstanceOf(ImportRejected.class)
			.hasMessageContaining("no column 'Prompt'");
		assertThatThrownBy(() -> HarnessImporters.read(HarnessFormat.TABLE_CSV, table,
				new TableMapping("Input length", null,
						Map.of("TTFT median (ms)", new MetricColumn("ttft_s", "tokens/s")), SOURCE)))
			.isInstanceOf(ImportRejected.class)
			.hasMessageContaining("cannot be converted");
		assertThatThrownBy(
				() -> HarnessImporters.read(HarnessFormat.TABLE_CSV, table,
						new TableMapping("Input length", null,
								Map.of("TTFT median (ms)", new MetricColumn("gpu_power_w", "W")), SOURCE)))
			.isInstanceOf(ImportRejected.class)
			.hasMessageContaining("not a catalogue metric");
		assertThatThrownBy(() -> HarnessImporters.read(HarnessFormat.TABLE_CSV, table, null))
			.isInstanceOf(ImportRejected.class)
			.hasMessageContaining("column mapping");
	}

	@Test
	void rejectsRowsWithTheSameParamsAndValuesItWillNotGuess() {
		TableMapping mapping = new TableMapping("prompt", null, Map.of("ttft", new MetricColumn("ttft_s", "s")),
				SOURCE);

		assertThatThrownBy(() -> HarnessImporters.read(HarnessFormat.TABLE_CSV,
				List.of(InputFile.of("t.csv", "prompt,ttft\n512,0.1\n512,0.2\n")), mapping))
			.isInstanceOf(ImportRejected.class)
			.hasMessageContaining("t.csv row 1 (line 2) and t.csv row 2 (line 3)");
		assertThatThrownBy(() -> HarnessImporters.read(HarnessFormat.TABLE_CSV,
				List.of(InputFile.of("t.csv", "prompt,ttft\n8k,0.1\n")), mapping))
			.isInstanceOf(ImportRejected.class)
			.hasMessageContaining("row 1 (line 2), column 'prompt': '8k' is not a number")
			.hasMessageContaining("cannot be guessed");
	}

}
