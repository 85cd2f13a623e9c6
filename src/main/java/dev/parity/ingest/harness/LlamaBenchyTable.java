package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * llama-benchy's default output, a Markdown table ({@code --format md}): per
 * configuration a prompt-processing row ({@code pp2048 @ d1000 (c4)}: prompt tokens,
 * context depth, concurrency) and a token-generation row ({@code tg480 @ d1000 (c4)}),
 * each cell {@code mean ± std} over the runs. A {@code pp} row and the {@code tg} row
 * after it are one cell: prefill rate and TTFT from the first, decode rate from the
 * second; {@code ctx_pp} / {@code ctx_tg} rows (the context-loading phase under prefix
 * caching) are cells of their own. At concurrency 1 {@code t/s} is per request; above it
 * {@code t/s (req)} is. Times are in ms, rates in tokens/s. The table says neither how
 * many runs nor how many requests failed: every count is unknown.
 */
final class LlamaBenchyTable implements HarnessImporter {

	/** {@code pp2048}, {@code tg480 @ d1000}, {@code ctx_pp @ d4096 (c2)}. */
	private static final Pattern TEST = Pattern
		.compile("(pp|tg|ctx_pp|ctx_tg)(\\d*+)(?:\\s*+@\\s*+d(\\d++))?+(?:\\s*+\\(c(\\d++)\\))?+");

	/** {@code 2265.07 ± 142.42}, also as {@code 18,800.44 ±109.80}. */
	private static final Pattern MEAN_STD = Pattern.compile("([-+0-9.,eE]++)\\s*+(?:±|\\+/-|Â±)\\s*+([-+0-9.,eE]++)");

	/**
	 * llama.cpp's llama-bench writes a table like it, with these columns: not
	 * llama-benchy's.
	 */
	private static final Set<String> LLAMA_BENCH = Set.of("size", "params", "backend", "ngl", "n_gpu_layers");

	@Override
	public HarnessFormat format() {
		return HarnessFormat.LLAMA_BENCHY_TABLE;
	}

	/** llama-benchy's table in the text, or {@code null}. */
	static @Nullable TableText table(ParsedFile file) {
		return file.looksLikeJson() ? null : file.reading("llama-benchy-table", LlamaBenchyTable::find);
	}

	private static @Nullable TableText find(ParsedFile file) {
		// Its header names a test and a t/s column: without both, the text is not parsed
		// for tables.
		String text = file.text();
		if (text.indexOf('\0') >= 0 || !text.contains("t/s") || !text.contains("test")) {
			return null;
		}
		for (TableText table : TableText.markdown(file.text())) {
			if (isBenchy(table)) {
				return table;
			}
		}
		return null;
	}

	private static boolean isBenchy(TableText table) {
		int test = table.column("test");
		if (test < 0 || rate(table, false) < 0
				|| table.headers().stream().anyMatch(h -> LLAMA_BENCH.contains(h.toLowerCase()))) {
			return false;
		}
		for (int row = 0; row < table.rows().size(); row++) {
			if (!TEST.matcher(table.cell(row, test)).matches()) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The column of per-request rates: {@code t/s (req)}, else (at concurrency 1)
	 * {@code t/s}.
	 */
	private static int rate(TableText table, boolean perRequest) {
		int request = table.column("t/s (req)");
		if (perRequest && request >= 0) {
			return request;
		}
		int total = table.column("t/s");
		return total >= 0 ? total : table.column("t/s (total)");
	}

	@Override
	public FileRole role(ParsedFile file) {
		if (file.looksLikeJson()) {
			return HarnessImporter.otherFile(file);
		}
		return table(file) != null ? FileRole.OWN : FileRole.IGNORABLE;
	}

	@Override
	public HarnessImport read(List<ParsedFile> files, @Nullable TableMapping mapping) {
		RunDraft run = new RunDraft();
		for (ParsedFile file : ownFiles(files, run)) {
			TableText table = table(file);
			if (table == null) {
				throw new ImportRejected(file.name() + ": no llama-benchy table (model | test | t/s …)");
			}
			read(table, file.name(), run);
		}
		run.state("harness.name", "llama-benchy", files.get(0).name());
		run.note("llama-benchy's table gives mean ± std over the runs, not how many ran or failed: completed, failed"
				+ " and cancelled are unknown, and there is no median");
		return run.toImport();
	}

	private static void read(TableText table, String source, RunDraft run) {
		int model = table.column("model");
		int test = table.column("test");
		List<Row> rows = new ArrayList<>();
		for (int i = 0; i < table.rows().size(); i++) {
			Matcher matcher = TEST.matcher(table.cell(i, test));
			if (!matcher.matches()) {
				throw new ImportRejected(source + " line " + table.lines().get(i) + ": test '" + table.cell(i, test)
						+ "' is not llama-benchy's (pp2048, tg128 @ d1000, ctx_pp @ d4096 (c2))");
			}
			rows.add(new Row(i, matcher.group(1), matcher.group(2).isEmpty() ? null : Integer.valueOf(matcher.group(2)),
					matcher.group(3) == null ? 0 : Integer.parseInt(matcher.group(3)),
					matcher.group(4) == null ? 1 : Integer.parseInt(matcher.group(4))));
			if (model >= 0) {
				ModelName.state(run, table.cell(i, model), "model", source);
			}
		}
		boolean contexts = rows.stream().anyMatch(row -> row.depth() > 0);
		Set<Integer> outputs = new HashSet<>();
		rows.stream()
			.filter(row -> row.kind().equals("tg") && row.size() != null)
			.forEach(row -> outputs.add(row.size()));
		Map<String, CellDraft> cells = new LinkedHashMap<>();
		for (Row row : rows) {
			boolean prefill = row.kind().endsWith("pp");
			boolean context = row.kind().startsWith("ctx");
			CellDraft cell = prefill ? null : matching(cells, row);
			if (cell == null) {
				cell = new CellDraft(source + " line " + table.lines().get(row.index())).requests(null, null, null);
				if (!context && prefill && row.size() != null) {
					cell.param("prompt_tokens", row.size());
				}
				cell.param("concurrency", row.concurrency());
				if (contexts) {
					cell.param("context_tokens", row.depth());
					cell.param("phase", context ? "context-prefill" : "prompt");
				}
				cells.put(String.valueOf(cells.size()), cell);
			}
			if (!prefill && row.size() != null && outputs.size() > 1) {
				cell.param("output_tokens", row.size());
			}
			metrics(table, row, cell, source, run);
		}
		if (outputs.size() == 1) {
			run.state("workload.output_tokens", outputs.iterator().next(), source);
		}
		List<CellDraft> ordered = new ArrayList<>(cells.values());
		ExecutionOrder.asListed(ordered);
		ordered.forEach(run::cell);
	}

	/**
	 * The cell a {@code tg} row completes: the last one opened by the {@code pp} row of
	 * its depth and concurrency.
	 */
	private static @Nullable CellDraft matching(Map<String, CellDraft> cells, Row row) {
		List<CellDraft> all = new ArrayList<>(cells.values());
		if (all.isEmpty()) {
			return null;
		}
		CellDraft last = all.get(all.size() - 1);
		Object depth = last.params().get("context_tokens");
		boolean sameDepth = depth == null ? row.depth() == 0 : ((Number) depth).intValue() == row.depth();
		boolean samePhase = row.kind().startsWith("ctx") == "context-prefill".equals(last.params().get("phase"));
		boolean sameConcurrency = ((Number) last.params().get("concurrency")).intValue() == row.concurrency();
		boolean free = !last.metrics().containsKey("decode_tps");
		return sameDepth && samePhase && sameConcurrency && free ? last : null;
	}

	private static void metrics(TableText table, Row row, CellDraft cell, String source, RunDraft run) {
		int rate = rate(table, row.concurrency() > 1);
		Statistics perRequest = meanStd(table, row, rate, 1, source);
		if (row.kind().endsWith("pp")) {
			cell.metric("prefill_tps", perRequest);
			cell.metric("ttft_s", meanStd(table, row, table.column("e2e_ttft (ms)"), 0.001, source));
		}
		else {
			cell.metric("decode_tps", perRequest);
		}
		if (row.concurrency() > 1 && table.column("t/s (req)") < 0) {
			run.note(source + ": no t/s (req) column at concurrency " + row.concurrency()
					+ ": the table's t/s is the total, not per request: rates left out");
			cell.metrics().remove(row.kind().endsWith("pp") ? "prefill_tps" : "decode_tps");
		}
	}

	/** A {@code mean ± std} cell in the catalogue unit (times from ms to s). */
	private static Statistics meanStd(TableText table, Row row, int column, double factor, String source) {
		if (column < 0) {
			return Statistics.builder().build();
		}
		String text = table.cell(row.index(), column).trim();
		if (text.isEmpty()) {
			return Statistics.builder().build();
		}
		Matcher matcher = MEAN_STD.matcher(text);
		Double mean = matcher.matches() ? CsvSection.number(matcher.group(1)) : CsvSection.number(text);
		Double std = matcher.matches() ? CsvSection.number(matcher.group(2)) : null;
		if (mean == null) {
			throw new ImportRejected(source + " line " + table.lines().get(row.index()) + ", column '"
					+ table.headers().get(column) + "': '" + text + "' is not mean ± std");
		}
		return Statistics.builder().put("mean", mean * factor).put("std", std == null ? null : std * factor).build();
	}

	/** One row of the table, its test name read. */
	private record Row(int index, String kind, @Nullable Integer size, int depth, int concurrency) {
	}

}
