package dev.parity.site;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.commons.csv.CSVPrinter;
import org.jspecify.annotations.Nullable;

/**
 * A comparison for a blog post: a Markdown table per metric whose greyed numbers are
 * marked, with every flag and caveat as a footnote, or a CSV with one row per cell ×
 * metric. Both carry the permalink and the thresholds used.
 */
final class ComparisonExport {

	private ComparisonExport() {
	}

	static String markdown(ComparisonPage page, String title, String permalink, Notices notices,
			@Nullable ControlSection control) {
		StringBuilder md = new StringBuilder();
		md.append("# ").append(escape(title)).append("\n\n");
		md.append(notices.markdown());
		md.append("Permalink: <").append(permalink).append(">  \n");
		md.append("Baseline: [")
			.append(escape(page.baseline().title()))
			.append("](")
			.append(absolute(permalink, page.baseline().url()))
			.append(") (")
			.append(page.baseline().role())
			.append(", ")
			.append(commit(page.baseline()))
			.append(")  \n");
		md.append("Contender: [")
			.append(escape(page.contender().title()))
			.append("](")
			.append(absolute(permalink, page.contender().url()))
			.append(") (")
			.append(page.contender().role())
			.append(", ")
			.append(commit(page.contender()))
			.append(")  \n");
		md.append("Thresholds: ").append(escape(thresholds(page))).append("  \n");
		md.append("Rules version: ").append(page.rulesVersion()).append("\n\n");

		if (!page.comparisonFlags().isEmpty()) {
			md.append("**What differs:** ");
			md.append(page.comparisonFlags()
				.stream()
				.map(n -> "**" + escape(n.rule()) + "**[^" + n.number() + "]")
				.collect(Collectors.joining(", ")));
			md.append("\n\n");
		}
		for (ComparisonPage.RunRef side : List.of(page.baseline(), page.contender())) {
			if (!side.flags().isEmpty()) {
				md.append(side == page.baseline() ? "**Baseline run:** " : "**Contender run:** ");
				md.append(side.flags()
					.stream()
					.map(n -> "**" + escape(n.rule()) + "**[^" + n.number() + "]")
					.collect(Collectors.joining(", ")));
				md.append("\n\n");
			}
		}
		// Caveats not shown in a row (on the whole comparison, on a run, or on a cell
		// that is not matched) are
		// referenced here: a footnote nobody references is dropped by renderers.
		Set<String> inRows = new HashSet<>();
		page.rows().forEach(row -> row.values().forEach(value -> inRows.addAll(value.caveatMarkers())));
		List<String> elsewhere = page.caveats()
			.stream()
			.map(ComparisonPage.CaveatView::marker)
			.filter(marker -> !inRows.contains(marker))
			.map(marker -> "[^" + marker + "]")
			.toList();
		if (!elsewhere.isEmpty()) {
			md.append("**Caveats on this comparison and its runs:** ")
				.append(String.join(" ", elsewhere))
				.append("\n\n");
		}
		md.append("## Headlines\n\n");
		page.headlines().forEach(h -> md.append("- ").append(escape(h.sentence())).append('\n'));
		md.append('\n');
		md.append(
				"Greyed numbers are ~~struck~~ and marked *greyed*: they are shown, but they are not like-for-like and no headline counts them.\n\n");
		if (control != null && !control.controls().isEmpty()) {
			md.append("## Tested by control runs\n\n");
			for (ControlSection.Control tested : control.controls()) {
				md.append("- Tested by control run [“")
					.append(escape(tested.title()))
					.append("”](")
					.append(absolute(permalink, tested.url()))
					.append("): ")
					.append(escape(tested.lines().get(0)))
					.append(" ([the comparison with the control](")
					.append(absolute(permalink, tested.comparisonUrl()))
					.append("))\n");
				tested.lines().stream().skip(1).forEach(line -> md.append("  - ").append(escape(line)).append('\n'));
				if (!tested.missed().isEmpty()) {
					md.append("  - It missed: ").append(escape(String.join("; ", tested.missed()))).append('\n');
				}
			}
			md.append("\nA control run is shown beside the claim: the numbers above are unchanged by it.\n\n");
		}

		for (int m = 0; m < page.metrics().size(); m++) {
			ComparisonPage.MetricHead metric = page.metrics().get(m);
			md.append("## ")
				.append(escape(metric.metric()))
				.append(" (")
				.append(escape(metric.unit()))
				.append(", ")
				.append(metric.better())
				.append(" is better)\n\n");
			md.append('|');
			page.paramNames().forEach(name -> md.append(' ').append(escape(name)).append(" |"));
			md.append(" baseline | contender | ratio | notes |\n|");
			page.paramNames().forEach(name -> md.append("---:|"));
			md.append("---:|---:|---|---|\n");
			for (ComparisonPage.Row row : page.rows()) {
				ComparisonPage.Value value = row.values().get(m);
				md.append('|');
				row.paramValues().forEach(v -> md.append(' ').append(escape(v)).append(" |"));
				String baseline = value.baseline();
				String contender = value.contender();
				String phrase = value.phrase().isEmpty() ? "" : value.phrase();
				if (value.greyed()) {
					baseline = strike(baseline);
					contender = strike(contender);
					phrase = phrase.isEmpty() ? "*greyed*"
							: strike(phrase) + " *greyed: " + escape(String.join(", ", value.greyReasons())) + "*";
				}
				md.append(' ')
					.append(baseline)
					.append(" | ")
					.append(contender)
					.append(" | ")
					.append(phrase)
					.append(" | ");
				List<String> refs = new ArrayList<>();
				// Every note of the cell, its greying reasons included (the page links
				// those from its reasons).
				List<Integer> numbers = new ArrayList<>(value.markers());
				value.reasons()
					.stream()
					.map(ComparisonPage.Note::number)
					.filter(n -> !numbers.contains(n))
					.forEach(numbers::add);
				numbers.stream().sorted().forEach(n -> refs.add("[^" + n + "]"));
				row.flags()
					.stream()
					.map(ComparisonPage.Note::number)
					.filter(n -> !numbers.contains(n))
					.distinct()
					.forEach(n -> refs.add("[^" + n + "]"));
				value.caveatMarkers().forEach(c -> refs.add("[^" + c + "]"));
				md.append(String.join(" ", refs)).append(" |\n");
			}
			md.append('\n');
		}
		if (!page.unmatched().isEmpty()) {
			md.append("## Unmatched cells (never compared)\n\n");
			page.unmatched()
				.forEach(
						u -> md.append("- ").append(u.side()).append(" only: ").append(escape(u.label())).append('\n'));
			md.append('\n');
		}
		List<String> disclosed = new ArrayList<>();
		page.baseline().disclosedCaveats().forEach(c -> disclosed.add("baseline: " + c));
		page.contender().disclosedCaveats().forEach(c -> disclosed.add("contender: " + c));
		if (!disclosed.isEmpty()) {
			md.append("## Disclosed by the uploaders\n\n");
			disclosed.forEach(c -> md.append("- ").append(escape(c)).append('\n'));
			md.append('\n');
		}
		md.append("## Flags and caveats\n\n");
		for (ComparisonPage.Note note : page.footnotes()) {
			md.append("[^")
				.append(note.number())
				.append("]: **")
				.append(escape(note.rule()))
				.append("**")
				.append(note.side() == null ? "" : " (" + escape(note.side()) + ")")
				.append(": ")
				.append(escape(note.message()))
				.append(note.greying() ? " — greys " + escape(String.join(", ", note.greys())) : " — annotation")
				.append('\n');
		}
		for (ComparisonPage.CaveatView caveat : page.caveats()) {
			md.append("[^")
				.append(caveat.marker())
				.append("]: ")
				.append(caveat.caveat().hypothesis() ? "*Hypothesis (" + caveat.caveat().status() + ")*: "
						: "*Caveat*: ")
				.append(escape(caveat.caveat().text()))
				.append(" — on ")
				.append(escape(caveat.about()))
				.append(", by ")
				.append(escape(caveat.caveat().createdBy()))
				.append(caveat.caveat().hypothesis()
						? "; deciding experiment: " + escape(String.valueOf(caveat.caveat().decidingExperiment())) : "")
				.append('\n');
		}
		return md.toString();
	}

	static String csv(ComparisonPage page, String permalink, Notices notices, @Nullable ControlSection control) {
		StringWriter out = new StringWriter();
		List<String> header = new ArrayList<>(List.of("anchor"));
		header.addAll(page.paramNames());
		header.addAll(List.of("metric", "unit", "baseline", "contender", "ratio", "comparable", "flags", "caveats",
				"permalink", "thresholds", "verdict", "significant", "interval"));
		try (CSVPrinter printer = new CSVPrinter(out,
				CsvCells.FORMAT.builder()
					.setHeaderComments(comments(notices, control).toArray(Object[]::new))
					.setHeader(header.stream().map(CsvCells::text).toArray(String[]::new))
					.get())) {
			String thresholds = thresholds(page);
			for (ComparisonPage.Row row : page.rows()) {
				for (int m = 0; m < page.metrics().size(); m++) {
					ComparisonPage.MetricHead metric = page.metrics().get(m);
					ComparisonPage.Value value = row.values().get(m);
					List<Object> record = new ArrayList<>();
					record.add(row.anchor());
					record.addAll(row.paramValues().stream().map(v -> v.replace(",", "")).toList());
					record.add(metric.metric());
					record.add(metric.unit());
					record.add(plain(value.baseline()));
					record.add(plain(value.contender()));
					record.add(value.ratio());
					record.add(value.comparable());
					record.add(value.markers().stream().map(n -> note(page, n)).collect(Collectors.joining("; ")));
					record.add(page.caveats()
						.stream()
						.filter(c -> value.caveatMarkers().contains(c.marker()))
						.map(c -> c.caveat().text())
						.collect(Collectors.joining("; ")));
					record.add(permalink + "#" + row.anchor());
					record.add(thresholds);
					record.add(value.verdict() == null ? "" : value.verdict());
					record.add(value.significant() == null ? "" : value.significant());
					record.add(value.interval());
					printer.printRecord(CsvCells.row(record));
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return out.toString();
	}

	/**
	 * The notices, then each control's sentences and what it missed: the CSV's comment
	 * lines.
	 */
	private static List<String> comments(Notices notices, @Nullable ControlSection control) {
		List<String> lines = new ArrayList<>(notices.lines());
		if (control != null) {
			for (ControlSection.Control tested : control.controls()) {
				lines.addAll(tested.sentences());
				if (tested.missedSentence() != null) {
					lines.add(tested.missedSentence());
				}
			}
		}
		return lines;
	}

	private static String note(ComparisonPage page, int number) {
		ComparisonPage.Note note = page.footnotes().get(number - 1);
		return note.rule() + (note.side() == null ? "" : " (" + note.side() + ")")
				+ (note.greying() ? " greys" : " notes") + ": " + note.message();
	}

	private static String thresholds(ComparisonPage page) {
		return page.settings().stream().map(s -> s.name() + "=" + s.value()).collect(Collectors.joining(", "));
	}

	private static String commit(ComparisonPage.RunRef run) {
		return run.commit() == null ? "unpinned" : "commit " + run.commit().substring(0, 7);
	}

	private static String plain(String number) {
		return "—".equals(number) ? "" : number.replace(",", "");
	}

	private static String strike(String text) {
		return "—".equals(text) || text.isEmpty() ? text : "~~" + text + "~~";
	}

	/**
	 * A path on the server of the permalink: {@code /runs/x} →
	 * {@code http://host/runs/x}.
	 */
	static String absolute(String permalink, String path) {
		int scheme = permalink.indexOf("://");
		int slash = scheme < 0 ? -1 : permalink.indexOf('/', scheme + 3);
		return slash < 0 ? path : permalink.substring(0, slash) + path;
	}

	/**
	 * Markdown that a user's text cannot break: table pipes, emphasis, links, code,
	 * entities and HTML are inert.
	 */
	static String escape(String text) {
		return text.replace("&", "&amp;")
			.replace("\\", "\\\\")
			.replace("|", "\\|")
			.replace("*", "\\*")
			.replace("_", "\\_")
			.replace("[", "\\[")
			.replace("]", "\\]")
			.replace("<", "&lt;")
			.replace(">", "&gt;")
			.replace("`", "\\`")
			.replace("~", "\\~")
			.replace("\r\n", " ")
			.replace("\r", " ")
			.replace("\n", " ");
	}

}
