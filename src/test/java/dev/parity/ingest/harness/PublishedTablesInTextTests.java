package dev.parity.ingest.harness;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A results page with several Markdown tables and notes under them; columns mapped
 * without units.
 */
class PublishedTablesInTextTests {

	private static final String SOURCE = "https://example.org/blog/moe-on-two-boxes";

	private static final String UNDER_RESULTS = "128K × c=4 did not finish within the 30-minute limit, so it is not in"
			+ " the table; 32K × c=4 had one request four times slower than the others.";

	private static List<InputFile> page() {
		return List.of(Samples.own("published-table/results-page.md"));
	}

	private static TableMapping results(@Nullable Integer table) {
		Map<String, MetricColumn> metrics = new LinkedHashMap<>();
		metrics.put("TTFT (ms)", new MetricColumn("ttft_s", null));
		metrics.put("Decode (tok/s)", new MetricColumn("decode_tps", null));
		metrics.put("Output tok/s", new MetricColumn("throughput_tps", null));
		return new TableMapping("Prompt", "Concurrency", metrics, SOURCE, null, Map.of(), table);
	}

	@Test
	void theTableWhoseHeaderHasTheMappedColumnsIsReadInTheHeadersUnits() {
		HarnessImport imported = HarnessImporters.read(HarnessFormat.TABLE_MARKDOWN, page(), results(null));
		JsonNode cells = imported.cellsDocument().path("cells");

		assertThat(cells).hasSize(5);
		// "| 8,192 | 1 | 2,140 | 71.3 | 71.3 |": TTFT (ms) 2,140 is 2.14 s.
		assertThat(cells.get(0).at("/params/prompt_tokens").intValue()).isEqualTo(8192);
		assertThat(cells.get(0).at("/metrics/ttft_s").doubleValue()).isEqualTo(2.14);
		assertThat(cells.get(0).at("/metrics/decode_tps").doubleValue()).isEqualTo(71.3);
		assertThat(cells.get(3).at("/metrics/ttft_s").doubleValue()).isEqualTo(41.2);
		assertThat(cells.get(4).at("/params/prompt_tokens").intValue()).isEqualTo(131072);
		assertThat(cells.get(3).at("/metrics/throughput_tps").doubleValue()).isEqualTo(211.6);
		assertThat(imported.notes()).contains(
				"results-page.md: 3 tables in the text; read table 2 (Prompt, Concurrency, TTFT (ms), Decode (tok/s),"
						+ " Output tok/s, Notes)")
			.contains("column 'TTFT (ms)': in ms, as its header says")
			.contains("column 'Output tok/s': in tokens/s, as its header says")
			.contains("text under the table, offered as a caveat of the run: \u201c" + UNDER_RESULTS + "\u201d");
		ImportedDocuments.read(imported);
	}

	@Test
	void anotherMappingReadsAnotherTableAndOneThatFitsNoneListsThemAll() {
		TableMapping earlier = new TableMapping("Prompt", "Concurrency",
				Map.of("TTFT (s)", new MetricColumn("ttft_s", null)), SOURCE);
		JsonNode cells = HarnessImporters.read(HarnessFormat.TABLE_MARKDOWN, page(), earlier)
			.cellsDocument()
			.path("cells");
		assertThat(cells).hasSize(2);
		assertThat(cells.get(1).at("/metrics/ttft_s").doubleValue()).isEqualTo(22.96);

		TableMapping none = new TableMapping("Prompt", "Users", Map.of("TTFT (s)", new MetricColumn("ttft_s", null)),
				SOURCE);
		assertThatThrownBy(() -> HarnessImporters.read(HarnessFormat.TABLE_MARKDOWN, page(), none))
			.isInstanceOf(ImportRejected.class)
			.hasMessageContaining("no table has every mapped column (Prompt, Users, TTFT (s))")
			.hasMessageContaining(
					"table 1 (Part, Box A, Box B); table 2 (Prompt, Concurrency, TTFT (ms), Decode (tok/s),"
							+ " Output tok/s, Notes); table 3 (Prompt, Concurrency, TTFT (s)): choose one");
		assertThatThrownBy(() -> HarnessImporters.read(HarnessFormat.TABLE_MARKDOWN, page(), results(5)))
			.isInstanceOf(ImportRejected.class)
			.hasMessageContaining("no table 5; the text has 3 tables");
		// Table 3 chosen by number: its columns are not these.
		assertThatThrownBy(() -> HarnessImporters.read(HarnessFormat.TABLE_MARKDOWN, page(), results(3)))
			.isInstanceOf(ImportRejected.class)
			.hasMessageContaining("no column 'TTFT (ms)'");
	}

	@Test
	void aColumnWithoutAUnitAnywhereIsInTheMetricsUnitAndAHeaderUnitMustFit() {
		InputFile csv = InputFile.of("t.csv", "prompt,Decode,TTFT (tok/s)\n512,70.5,3\n");
		TableMapping decode = new TableMapping("prompt", null, Map.of("Decode", new MetricColumn("decode_tps", null)),
				SOURCE);
		HarnessImport imported = HarnessImporters.read(HarnessFormat.TABLE_CSV, List.of(csv), decode);
		assertThat(imported.cellsDocument().at("/cells/0/metrics/decode_tps").doubleValue()).isEqualTo(70.5);
		assertThat(imported.notes())
			.contains("column 'Decode': in tokens/s, decode_tps's unit (no unit given, none in the header)");

		TableMapping wrong = new TableMapping("prompt", null, Map.of("TTFT (tok/s)", new MetricColumn("ttft_s", null)),
				SOURCE);
		assertThatThrownBy(() -> HarnessImporters.read(HarnessFormat.TABLE_CSV, List.of(csv), wrong))
			.isInstanceOf(ImportRejected.class)
			.hasMessageContaining("ttft_s is in s, which 'tokens/s' (the header's unit) cannot be converted to");
	}

	@Test
	void theFormIsOfferedTheTablesAndTheTextUnderTheOneAMappingReads() {
		List<TableColumns.Table> tables = TableColumns.tables(page());
		assertThat(tables).extracting(TableColumns.Table::number).containsExactly(1, 2, 3);
		assertThat(tables.get(0).columns()).containsExactly("Part", "Box A", "Box B");
		assertThat(tables.get(0).under()).isEmpty();
		assertThat(tables.get(2).under()).isEqualTo("Numbers above are medians of 4 requests.");

		assertThat(TableColumns.offeredCaveat(page(), results(null))).isEqualTo(UNDER_RESULTS);
		assertThat(TableColumns.offeredCaveat(page(), null)).as("several tables, none chosen yet").isEmpty();
		assertThat(TableColumns.offeredCaveat(List.of(Samples.own("published-table.md")), null))
			.isEqualTo("Numbers are medians over 4 requests.");
	}

}
