package dev.parity.site;

import java.util.List;
import java.util.Map;

import dev.parity.compare.ComparisonSnapshot;
import dev.parity.snapshots.ComparisonService;
import dev.parity.record.Publication;
import dev.parity.record.PublicationNotFoundException;
import dev.parity.record.Publications;
import dev.parity.run.RunId;
import dev.parity.run.RunNotFoundException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import dev.parity.web.ApiProblems;
import org.springframework.http.ProblemDetail;

/**
 * What a light comparison page ({@link ComparisonViews#LIGHT_ROWS}) fetches once it
 * shows: the rows of the cells after its first ones, the Pareto table's other points, and
 * the data of its charts — computed from the same kept comparison with the same URL
 * parameters, so they say what the page would have said had it written them all.
 */
@Controller
class ComparisonParts {

	private final ComparisonService comparisons;

	private final ComparisonViews pages;

	private final JsonMapper json;

	private final Publications publications;

	ComparisonParts(ComparisonService comparisons, ComparisonViews pages, JsonMapper json, Publications publications) {
		this.comparisons = comparisons;
		this.pages = pages;
		this.json = json;
		this.publications = publications;
	}

	/**
	 * The table's rows from the {@code from}-th cell on ({@code tr} elements), as the
	 * page writes them.
	 */
	@GetMapping(path = "/compare/{pair:.+}/cells", produces = MediaType.TEXT_HTML_VALUE)
	String cells(@PathVariable String pair, @RequestParam Map<String, String> query, Model model) {
		ComparisonService.Pair runs = pair(pair);
		ComparisonPage page = pages.page(snapshot(runs, query), runs);
		model.addAttribute("page", page);
		model.addAttribute("cellRows", from(page.rows(), query));
		return "compare/table :: cell-rows";
	}

	/** The Pareto table's rows from the {@code from}-th point on. */
	@GetMapping(path = "/compare/{pair:.+}/points", produces = MediaType.TEXT_HTML_VALUE)
	String points(@PathVariable String pair, @RequestParam Map<String, String> query, Model model) {
		ComparisonService.Pair runs = pair(pair);
		model.addAttribute("points", from(SweepPage.of(snapshot(runs, query), query, json).points(), query));
		return "fragments/sweep :: point-rows";
	}

	/** The data of the ratio and value charts, as {@code data-charts} would hold it. */
	@GetMapping(path = "/compare/{pair:.+}/charts.json", produces = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<byte[]> charts(@PathVariable String pair, @RequestParam Map<String, String> query) {
		ComparisonService.Pair runs = pair(pair);
		ComparisonPage page = pages.page(snapshot(runs, query), runs);
		return ResponseEntity.ok()
			.contentType(MediaType.APPLICATION_JSON)
			.body(json.writeValueAsBytes(page.chartData()));
	}

	/** The Pareto view, as {@code data-pareto} would hold it. */
	@GetMapping(path = "/compare/{pair:.+}/pareto.json", produces = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<byte[]> pareto(@PathVariable String pair, @RequestParam Map<String, String> query) {
		ComparisonService.Pair runs = pair(pair);
		return ResponseEntity.ok()
			.contentType(MediaType.APPLICATION_JSON)
			.body(json.writeValueAsBytes(snapshot(runs, query).pareto()));
	}

	/**
	 * A published comparison's rows from the {@code from}-th cell on, as frozen at
	 * publication.
	 */
	@GetMapping(path = "/published/{id}/cells", produces = MediaType.TEXT_HTML_VALUE)
	String publishedCells(@PathVariable String id, @RequestParam Map<String, String> query, Model model) {
		Publication publication = publication(id);
		ComparisonPage page = pages.page(publication, comparisons.published(publication));
		model.addAttribute("page", page);
		model.addAttribute("cellRows", from(page.rows(), query));
		return "compare/table :: cell-rows";
	}

	/** A published comparison's Pareto table from the {@code from}-th point on. */
	@GetMapping(path = "/published/{id}/points", produces = MediaType.TEXT_HTML_VALUE)
	String publishedPoints(@PathVariable String id, @RequestParam Map<String, String> query, Model model) {
		ComparisonSnapshot snapshot = comparisons.published(publication(id));
		model.addAttribute("points", from(SweepPage.of(snapshot, Map.of(), json).points(), query));
		return "fragments/sweep :: point-rows";
	}

	/** A published comparison's chart data. */
	@GetMapping(path = "/published/{id}/charts.json", produces = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<byte[]> publishedCharts(@PathVariable String id) {
		Publication publication = publication(id);
		ComparisonPage page = pages.page(publication, comparisons.published(publication));
		return ResponseEntity.ok()
			.contentType(MediaType.APPLICATION_JSON)
			.body(json.writeValueAsBytes(page.chartData()));
	}

	/** A published comparison's Pareto view. */
	@GetMapping(path = "/published/{id}/pareto.json", produces = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<byte[]> publishedPareto(@PathVariable String id) {
		ComparisonSnapshot snapshot = comparisons.published(publication(id));
		return ResponseEntity.ok()
			.contentType(MediaType.APPLICATION_JSON)
			.body(json.writeValueAsBytes(snapshot.pareto()));
	}

	/**
	 * A publication of one contender (several have no light page, so none of its parts).
	 */
	private Publication publication(String id) {
		if (!RunId.isValid(id)) {
			throw new PublicationNotFoundException(id);
		}
		Publication publication = publications.find(id).orElseThrow(() -> new PublicationNotFoundException(id));
		if (publication.several()) {
			throw new PublicationNotFoundException(id);
		}
		return publication;
	}

	private ComparisonSnapshot snapshot(ComparisonService.Pair runs, Map<String, String> query) {
		return comparisons.snapshot(runs, comparisons.settings(query));
	}

	/** Several contenders have no light page, so none of its parts. */
	private static ComparisonService.Pair pair(String pair) {
		if (Contenders.areSeveral(pair)) {
			throw new RunNotFoundException(pair);
		}
		return ComparisonService.Pair.parse(pair);
	}

	private static <T> List<T> from(List<T> items, Map<String, String> query) {
		String text = query.getOrDefault("from", "0");
		int from;
		try {
			from = Integer.parseInt(text);
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("from must be a whole number of rows to skip, not " + text);
		}
		if (from < 0) {
			throw new IllegalArgumentException("from must be 0 or more, not " + text);
		}
		return items.subList(Math.min(from, items.size()), items.size());
	}

	@ExceptionHandler({ ComparisonService.FixedParamsRejected.class, ComparisonService.NotReplicates.class,
			IllegalArgumentException.class })
	ResponseEntity<ProblemDetail> reject(RuntimeException ex) {
		return ApiProblems.of(HttpStatus.BAD_REQUEST, "$", String.valueOf(ex.getMessage()));
	}

}
