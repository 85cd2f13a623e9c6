package dev.parity.site;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.parity.snapshots.ComparisonService;
import dev.parity.snapshots.FrozenResult;
import dev.parity.compare.CompareSettings;
import dev.parity.compare.ComparisonSnapshot;
import dev.parity.record.Publications;
import dev.parity.run.RunNotFoundException;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.ui.Model;
import org.springframework.web.servlet.ModelAndView;

/**
 * Several contenders against one baseline ({@code /compare/{baseline}...{c1},{c2}}): the
 * page, the API and the exports, each built from the contenders' pairwise comparisons
 * with the baseline, in URL order, and nothing else. The API lists for each contender
 * exactly the body of {@code /api/compare/{baseline}...{contender}}; the JSON export each
 * contender's pairwise JSON export.
 */
@Component
class ContenderComparisons {

	private final ComparisonService comparisons;

	private final JsonMapper json;

	private final SiteUrls siteUrls;

	private final Publications publications;

	ContenderComparisons(ComparisonService comparisons, JsonMapper json, SiteUrls siteUrls, Publications publications) {
		this.publications = publications;
		this.comparisons = comparisons;
		this.json = json;
		this.siteUrls = siteUrls;
	}

	/**
	 * {@code {"baseline", "path", "contenders": [pairwise body, …]}}, the pairwise bodies
	 * copied byte for byte.
	 */
	byte[] json(Contenders contenders, Map<String, String> query, ComparisonViews pairwise) {
		comparisons.settings(query);
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		body.writeBytes(("{\"baseline\":" + json.writeValueAsString(contenders.baseline()) + ",\"path\":"
				+ json.writeValueAsString(contenders.path()) + ",\"comparisons\":"
				+ json
					.writeValueAsString(contenders.pairs().stream().map(pair -> "/api/compare/" + pair.path()).toList())
				+ ",\"contenders\":[")
			.getBytes(StandardCharsets.UTF_8));
		for (int i = 0; i < contenders.pairs().size(); i++) {
			if (i > 0) {
				body.write(',');
			}
			pairwise.comparisonJson(contenders.pairs().get(i), query).writeTo(body);
		}
		body.writeBytes("]}".getBytes(StandardCharsets.UTF_8));
		return body.toByteArray();
	}

	ModelAndView showPage(Contenders contenders, Map<String, String> query, Model model, ComparisonViews pairwise) {
		CompareSettings settings = comparisons.settings(query);
		List<ComparisonSnapshot> snapshots = new ArrayList<>();
		for (ComparisonService.Pair pair : contenders.pairs()) {
			snapshots.add(comparisons.snapshot(pair, settings));
		}
		return showPage(contenders, query, snapshots, Map.of(), Map.of(), model, pairwise);
	}

	/**
	 * The page of these snapshots, its publish form empty or, refused, with every problem
	 * next to its field.
	 * @param snapshots each contender's comparison with the baseline, in order
	 */
	private ModelAndView showPage(Contenders contenders, Map<String, String> query, List<ComparisonSnapshot> snapshots,
			Map<String, String> publishErrors, Map<String, String> publishForm, Model model, ComparisonViews pairwise) {
		List<ContendersPage.Contender> each = new ArrayList<>();
		List<String> notices = new ArrayList<>();
		Notices first = null;
		for (int i = 0; i < contenders.pairs().size(); i++) {
			ComparisonService.Pair pair = contenders.pairs().get(i);
			ComparisonSnapshot snapshot = snapshots.get(i);
			ComparisonPage page = pairwise.page(snapshot, pair);
			ContendersPage.Contender contender = new ContendersPage.Contender("vs" + (i + 1), i + 1,
					Contenders.contenderPath(pair), pair.path(), page);
			each.add(contender);
			Notices said = pairwise.notices(snapshot, page, "");
			first = first == null ? said : first;
			said.lines().forEach(line -> notices.add("vs " + contender.path() + ": " + line));
		}
		// The publish form asks what a publication of all of them needs: the settings'
		// reason, the confirmation
		// when no contender has a comparable cell.
		model.addAttribute("notices", first);
		model.addAttribute("noComparable",
				each.stream().allMatch(k -> k.page().headlines().stream().allMatch(h -> h.comparable() == 0)));
		model.addAttribute("live", contenders.pairs().stream().noneMatch(ComparisonService.Pair::fixesParams));
		model.addAttribute("publishErrors", publishErrors);
		model.addAttribute("publishForm", publishForm);
		String query0 = QueryStrings.of(query);
		model.addAttribute("pageTitle", "Compare " + contenders.path());
		model.addAttribute("page", ContendersPage.of(each));
		model.addAttribute("path", contenders.path());
		model.addAttribute("baselinePath", contenders.baseline());
		model.addAttribute("query", query0.equals("?") ? "" : query0);
		model.addAttribute("noticeLines", notices.stream().distinct().toList());
		return new ModelAndView("compare/contenders");
	}

	/**
	 * Each contender's comparison with the baseline computed now, as a publication
	 * freezes them: {@code {"baseline", "path", "comparisons", "contenders": [each
	 * pairwise result, in order]}}.
	 */
	static FrozenResult.Several freeze(Contenders contenders, List<ComparisonSnapshot> snapshots) {
		return FrozenResult.Several.of(contenders.baseline(), contenders.path(), contenders.pairs(), snapshots);
	}

	/**
	 * Publishes several contenders from their page's form: each contender's comparison
	 * computed now, the guard rails of a pair held over all of them; refused, the page
	 * again (400) with every problem next to its field.
	 * @return the publication's URL, or {@code null} with the refused page in the model
	 */
	@Nullable String publish(Contenders contenders, Map<String, String> query, String title, String caption,
			@Nullable String reason, boolean confirmNoComparable, @Nullable String chartMetric, String user,
			Model model, ComparisonViews pairwise) {
		CompareSettings settings = comparisons.settings(query);
		List<ComparisonSnapshot> snapshots = new ArrayList<>();
		for (ComparisonService.Pair pair : contenders.pairs()) {
			snapshots.add(comparisons.freshSnapshot(pair, settings));
		}
		Publications.Frozen result = freeze(contenders, snapshots).frozen(json);
		Map<String, String> problems = new LinkedHashMap<>(
				Publications.problems(title, caption, result, reason, confirmNoComparable));
		String unknownMetric = Publications.chartMetricProblem(result, chartMetric);
		if (unknownMetric != null) {
			problems.put("chart_metric", unknownMetric);
		}
		if (!problems.isEmpty()) {
			Map<String, String> typed = new HashMap<>();
			typed.put("title", title);
			typed.put("caption", caption);
			typed.put("reason", reason == null ? "" : reason);
			typed.put("confirm_no_comparable", String.valueOf(confirmNoComparable));
			typed.put("chart_metric", chartMetric == null ? "" : chartMetric);
			showPage(contenders, query, snapshots, problems, typed, model, pairwise);
			return null;
		}
		return publications
			.publish(contenders.pairs().get(0).baselineId(),
					contenders.pairs().stream().map(ComparisonService.Pair::contenderId).toList(), result, title,
					caption, reason, confirmNoComparable, chartMetric, user)
			.url();
	}

	ResponseEntity<String> export(Contenders contenders, String format, Map<String, String> query,
			ComparisonViews pairwise) {
		List<String> bodies = new ArrayList<>();
		for (ComparisonService.Pair pair : contenders.pairs()) {
			ResponseEntity<String> one = pairwise.export(pair, format, query);
			bodies.add(one.getBody());
		}
		String permalink = siteUrls.link("/compare/" + contenders.path()) + QueryStrings.of(query);
		String fileName = "comparison-" + contenders.path().replace("...", "--").replace(',', '_');
		return export(contenders, format, bodies, "Comparison " + contenders.path(), permalink, fileName, null);
	}

	/**
	 * The contenders' pairwise exports as one file.
	 * @param head for a publication, the fields its JSON export starts with (notices,
	 * title, …)
	 */
	ResponseEntity<String> export(Contenders contenders, String format, List<String> bodies, String title,
			String permalink, String fileName, @Nullable ObjectNode head) {
		return switch (format) {
			case "md" -> download(markdown(title, bodies, permalink), "text/markdown", fileName + ".md");
			case "csv" -> download(csv(contenders, bodies), "text/csv", fileName + ".csv");
			// Each pairwise export's text as it is, so that it is exactly what that
			// export gives.
			case "json" -> {
				String start = head == null || head.isEmpty() ? "{"
						: json.writeValueAsString(head).substring(0, json.writeValueAsString(head).length() - 1) + ",";
				yield download(start + "\"baseline\":" + json.writeValueAsString(contenders.baseline()) + ",\"path\":"
						+ json.writeValueAsString(contenders.path()) + ",\"permalink\":"
						+ json.writeValueAsString(permalink) + ",\"contenders\":[" + String.join(",", bodies) + "]}",
						"application/json", fileName + ".json");
			}
			default -> throw new RunNotFoundException("export." + format);
		};
	}

	/**
	 * Each contender's pairwise Markdown under a heading of its own, its headings one
	 * level down and its footnote labels prefixed with the contender's number, so no two
	 * footnotes share a label.
	 */
	private static String markdown(String title, List<String> bodies, String permalink) {
		StringBuilder md = new StringBuilder();
		md.append("# ").append(ComparisonExport.escape(title)).append("\n\n");
		md.append("Permalink: <").append(permalink).append(">  \n");
		md.append(
				"Each contender below is compared with the baseline only; contenders are never compared with each other.\n\n");
		for (int i = 0; i < bodies.size(); i++) {
			String prefix = "[^vs" + (i + 1) + "-";
			for (String line : bodies.get(i).split("\n", -1)) {
				String shifted = line.startsWith("#") ? "#" + line : line;
				md.append(shifted.replace("[^", prefix)).append('\n');
			}
		}
		return md.toString();
	}

	/**
	 * The contenders' pairwise CSVs as one: a {@code contender} column first, then every
	 * pairwise column (the union, in order of first appearance); each pairwise file's
	 * notices as comment lines, prefixed with its contender.
	 */
	private static String csv(Contenders contenders, List<String> bodies) {
		List<String> header = new ArrayList<>(List.of("contender_path"));
		Set<String> comments = new LinkedHashSet<>();
		List<List<CSVRecord>> records = new ArrayList<>();
		for (int i = 0; i < bodies.size(); i++) {
			String contender = Contenders.contenderPath(contenders.pairs().get(i));
			try (CSVParser parser = CsvCells.FORMAT.builder()
				.setHeader()
				.setSkipHeaderRecord(true)
				.get()
				.parse(new StringReader(bodies.get(i)))) {
				parser.getHeaderNames().stream().filter(name -> !header.contains(name)).forEach(header::add);
				List<CSVRecord> rows = parser.getRecords();
				records.add(rows);
				String headerComment = parser.getHeaderComment();
				if (headerComment != null && !headerComment.isBlank()) {
					headerComment.lines().forEach(line -> comments.add("vs " + contender + ": " + line));
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		StringWriter out = new StringWriter();
		try (CSVPrinter printer = new CSVPrinter(out,
				CsvCells.FORMAT.builder()
					.setHeaderComments(comments.toArray(Object[]::new))
					.setHeader(header.stream().map(CsvCells::text).toArray(String[]::new))
					.get())) {
			for (int i = 0; i < records.size(); i++) {
				String contender = Contenders.contenderPath(contenders.pairs().get(i));
				for (CSVRecord record : records.get(i)) {
					List<Object> row = new ArrayList<>();
					row.add(contender);
					for (String name : header.subList(1, header.size())) {
						// Read back as text, each cell is written again as the pairwise
						// file wrote it.
						row.add(record.isMapped(name) ? record.get(name) : "");
					}
					printer.printRecord(CsvCells.row(row));
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return out.toString();
	}

	private static ResponseEntity<String> download(String body, String mediaType, String fileName) {
		return ResponseEntity.ok()
			.contentType(MediaType.parseMediaType(mediaType + ";charset=UTF-8"))
			.header(HttpHeaders.CONTENT_DISPOSITION, "inline; filename=\"" + fileName + "\"")
			.body(body);
	}

}
