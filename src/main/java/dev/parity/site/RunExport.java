package dev.parity.site;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.parity.caveat.Caveat;
import dev.parity.run.MetricDefinition;
import dev.parity.run.Provenance;
import org.apache.commons.csv.CSVPrinter;

/**
 * A run for a blog post: its grid as a Markdown table (greyed numbers marked, flags and
 * caveats as footnotes) or as CSV (one row per cell × metric), with its permalink and the
 * thresholds its checks used.
 */
final class RunExport {

	private RunExport() {
	}

	static String markdown(RunPage page, List<Caveat> caveats, String permalink, String thresholds, Notices notices) {
		Provenance p = page.provenance();
		StringBuilder md = new StringBuilder("# ").append(ComparisonExport.escape(page.run().title())).append("\n\n");
		md.append(notices.markdown());
		md.append("Permalink: <").append(permalink).append(">  \n");
		md.append("Role: ")
			.append(page.run().role().id())
			.append(" · System: ")
			.append(ComparisonExport.escape(p.system().name()))
			.append(" · Model: ")
			.append(ComparisonExport.escape(p.model().repo()))
			.append(p.model().commit() == null ? " (unpinned)" : " @ " + p.model().commit().value())
			.append("  \n");
		md.append("Engine: ")
			.append(ComparisonExport.escape(p.engine().name()))
			.append(p.engine().version() == null ? "" : " " + ComparisonExport.escape(p.engine().version()))
			.append(" · Harness: ")
			.append(ComparisonExport.escape(p.harness().name()))
			.append("  \n");
		md.append("Thresholds of the run checks: ").append(ComparisonExport.escape(thresholds)).append("\n\n");
		Map<String, Integer> notes = new LinkedHashMap<>();
		List<String> noteTexts = new ArrayList<>();
		for (RunPage.PageFlag flag : page.runFlags()) {
			md.append("**")
				.append(ComparisonExport.escape(flag.rule()))
				.append("**")
				.append(ref(notes, noteTexts, flag))
				.append(' ');
		}
		md.append(page.runFlags().isEmpty() ? "" : "\n\n");
		// Every caveat is a footnote referenced where it applies: the run's from here, a
		// cell's from its row.
		List<String> caveatNotes = new ArrayList<>();
		List<String> runCaveatRefs = new ArrayList<>();
		Map<String, List<String>> cellCaveatRefs = new LinkedHashMap<>();
		// Markers as on the run page: c1, c2, … for the caveats people wrote, d1, d2, …
		// for the uploader's.
		for (String disclosed : p.caveats()) {
			String marker = "d" + (runCaveatRefs.size() + 1);
			caveatNotes.add("[^" + marker + "]: *Disclosed by the uploader*: " + ComparisonExport.escape(disclosed));
			runCaveatRefs.add("[^" + marker + "]");
		}
		int written = 0;
		for (Caveat caveat : caveats) {
			String marker = "c" + (++written);
			caveatNotes.add("[^" + marker + "]: "
					+ (caveat.hypothesis() ? "*Hypothesis (" + caveat.status() + ")*: " : "*Caveat*: ")
					+ ComparisonExport.escape(caveat.text()) + (caveat.target().cellAnchor() == null ? ""
							: " — on " + ComparisonExport.escape(caveat.target().cellAnchor())));
			if (caveat.target().cellAnchor() == null
					|| page.rows().stream().noneMatch(r -> r.anchor().equals(caveat.target().cellAnchor()))) {
				runCaveatRefs.add("[^" + marker + "]");
			}
			else {
				cellCaveatRefs.computeIfAbsent(caveat.target().cellAnchor(), k -> new ArrayList<>())
					.add("[^" + marker + "]");
			}
		}
		if (!runCaveatRefs.isEmpty()) {
			md.append("**Caveats on this run:** ").append(String.join(" ", runCaveatRefs)).append("\n\n");
		}
		md.append('|');
		page.paramNames().forEach(n -> md.append(' ').append(ComparisonExport.escape(n)).append(" |"));
		md.append(" completed | failed | cancelled | output tokens |");
		page.metrics()
			.forEach(m -> md.append(' ')
				.append(ComparisonExport.escape(m.name()))
				.append(" (")
				.append(ComparisonExport.escape(m.unit()))
				.append(") |"));
		md.append(" notes |\n|");
		page.paramNames().forEach(n -> md.append("---:|"));
		md.append("---:|---:|---:|---:|");
		page.metrics().forEach(m -> md.append("---:|"));
		md.append("---|\n");
		for (RunPage.Row row : page.rows()) {
			md.append('|');
			row.paramValues().forEach(v -> md.append(' ').append(ComparisonExport.escape(v)).append(" |"));
			md.append(' ')
				.append(row.completed())
				.append(" | ")
				.append(row.failed())
				.append(" | ")
				.append(row.cancelled())
				.append(" | ")
				.append(row.outputTokens())
				.append(" |");
			for (RunPage.Value value : row.values()) {
				md.append(' ')
					.append(value.greyed() && !"—".equals(value.text()) ? "~~" + value.text() + "~~ *greyed*"
							: value.text())
					.append(" |");
			}
			StringBuilder refs = new StringBuilder();
			row.flags().forEach(flag -> refs.append(ref(notes, noteTexts, flag)));
			cellCaveatRefs.getOrDefault(row.anchor(), List.of()).forEach(refs::append);
			md.append(' ').append(refs).append(" |\n");
		}
		md.append('\n');
		if (!caveatNotes.isEmpty() || !noteTexts.isEmpty()) {
			md.append("## Flags and caveats\n\n");
		}
		noteTexts.forEach(text -> md.append(text).append('\n'));
		caveatNotes.forEach(text -> md.append(text).append('\n'));
		return md.toString();
	}

	private static String ref(Map<String, Integer> notes, List<String> texts, RunPage.PageFlag flag) {
		String key = flag.rule() + "|" + flag.message();
		Integer number = notes.get(key);
		if (number == null) {
			number = notes.size() + 1;
			notes.put(key, number);
			texts.add("[^" + number + "]: **" + ComparisonExport.escape(flag.rule()) + "**: "
					+ ComparisonExport.escape(flag.message())
					+ (flag.greying() ? " — greys " + ComparisonExport.escape(String.join(", ", flag.greys()))
							: " — annotation"));
		}
		return "[^" + number + "]";
	}

	static String csv(RunPage page, String permalink, String thresholds, Notices notices) {
		StringWriter out = new StringWriter();
		List<String> header = new ArrayList<>(List.of("anchor"));
		header.addAll(page.paramNames());
		header.addAll(List.of("completed", "failed", "cancelled", "output_tokens_median", "metric", "unit", "value",
				"statistics", "greyed", "flags", "permalink", "thresholds"));
		try (CSVPrinter printer = new CSVPrinter(out,
				CsvCells.FORMAT.builder()
					.setHeaderComments(notices.lines().toArray(Object[]::new))
					.setHeader(header.stream().map(CsvCells::text).toArray(String[]::new))
					.get())) {
			for (RunPage.Row row : page.rows()) {
				for (int m = 0; m < page.metrics().size(); m++) {
					MetricDefinition metric = page.metrics().get(m);
					RunPage.Value value = row.values().get(m);
					List<Object> record = new ArrayList<>();
					record.add(row.anchor());
					record.addAll(row.paramValues().stream().map(v -> v.replace(",", "")).toList());
					record.add(row.completed());
					record.add(row.failed());
					record.add(row.cancelled());
					record.add(row.cell().medianOutputTokens().map(String::valueOf).orElse(""));
					record.add(metric.name());
					record.add(metric.unit());
					record.add("—".equals(value.text()) ? "" : value.text().replace(",", ""));
					record.add(value.detail());
					record.add(value.greyed());
					List<RunPage.PageFlag> flags = new ArrayList<>(page.runFlags());
					flags.addAll(row.flags());
					record.add(flags.stream()
						.filter(f -> f.greys().contains(metric.name()) || metric.name().equals(f.metric())
								|| (f.greys().isEmpty() && f.metric() == null))
						.map(f -> f.rule() + ": " + f.message())
						.collect(Collectors.joining("; ")));
					record.add(permalink + "#" + row.anchor());
					record.add(thresholds);
					printer.printRecord(CsvCells.row(record));
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return out.toString();
	}

}
