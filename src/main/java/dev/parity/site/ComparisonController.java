package dev.parity.site;

import java.security.Principal;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.parity.snapshots.ComparisonService;
import dev.parity.snapshots.FrozenResult;
import dev.parity.caveat.web.CaveatRejectedPage;
import dev.parity.caveat.Caveat;
import dev.parity.caveat.CaveatRejected;
import dev.parity.caveat.Caveats;
import dev.parity.caveat.DecidingPlan;
import dev.parity.compare.CompareSettings;
import dev.parity.compare.ComparisonSnapshot;
import dev.parity.record.Publication;
import dev.parity.record.Publications;
import dev.parity.web.ApiProblems;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.util.StringUtils;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.http.ProblemDetail;

/**
 * The side-by-side comparison of a baseline and a contender, live or as published, and
 * the forms that add caveats to it and publish it.
 */
@Controller
class ComparisonController {

	private final ComparisonService comparisons;

	private final Publications publications;

	private final Caveats caveats;

	private final JsonMapper json;

	private final ComparisonViews views;

	private final ContenderComparisons contenders;

	ComparisonController(ComparisonService comparisons, Caveats caveats, Publications publications, JsonMapper json,
			ComparisonViews views, ContenderComparisons contenders) {
		this.contenders = contenders;
		this.views = views;
		this.comparisons = comparisons;
		this.caveats = caveats;
		this.publications = publications;
		this.json = json;
	}

	@GetMapping("/compare/{pair:.+}")
	@Nullable ModelAndView showComparison(@PathVariable String pair, @RequestParam Map<String, String> query, Model model,
			HttpServletRequest request, HttpServletResponse response, Locale locale) throws Exception {
		if (Contenders.areSeveral(pair)) {
			return contenders.showPage(Contenders.parse(pair), query, model, views);
		}
		ComparisonService.Pair runs = ComparisonService.Pair.parse(pair);
		// Only a visitor who is not signed in (and has no session) sees the page
		// everybody else sees.
		boolean shared = request.getUserPrincipal() == null && request.getSession(false) == null;
		return views.livePage(runs, query, model, shared, new ServletWebRequest(request, response), locale);
	}

	@Operation(
			summary = "A comparison: both runs, settings, flags, headlines, cells with every flag next to every number; "
					+ "with several contenders ({baseline}...{c1},{c2}, up to 8), {\"baseline\", \"path\", \"comparisons\", \"contenders\": [the body of each pairwise comparison, in URL order]}")
	@ApiResponse(responseCode = "200",
			content = @Content(mediaType = "application/json",
					schema = @Schema(oneOf = { ComparisonAnswers.Pairwise.class, ComparisonAnswers.Several.class })))
	@GetMapping(path = "/api/compare/{pair:.+}", produces = "application/json")
	ResponseEntity<?> showComparisonJson(@PathVariable String pair, @RequestParam Map<String, String> query) {
		if (Contenders.areSeveral(pair)) {
			return ResponseEntity.ok()
				.contentType(MediaType.APPLICATION_JSON)
				.body(contenders.json(Contenders.parse(pair), query, views));
		}
		ComparisonService.Pair runs = ComparisonService.Pair.parse(pair);
		return ResponseEntity.ok()
			.contentType(MediaType.APPLICATION_JSON)
			.body(views.comparisonJson(runs, query).resource());
	}

	@PostMapping("/compare/{pair:.+}/caveats")
	String addCaveat(@PathVariable String pair, @RequestParam String text,
			@RequestParam(required = false) @Nullable String cell,
			@RequestParam(required = false) @Nullable String metric,
			@RequestParam(name = "deciding_experiment", required = false) @Nullable String decidingExperiment,
			@RequestParam(name = "deciding_plan", required = false) @Nullable String decidingPlan,
			@RequestParam(required = false, defaultValue = "") String query, Principal principal, Model model,
			HttpServletResponse response) {
		refuseSeveral(pair, "a caveat");
		ComparisonService.Pair runs = ComparisonService.Pair.parse(pair);
		refuseFixed(runs, "a caveat");
		Caveat added;
		try {
			added = caveats.add(
					Caveat.Target.comparison(runs.baselineId(), runs.contenderId(), blank(cell), blank(metric)), text,
					decidingExperiment, DecidingPlan.parse(decidingPlan, json), principal.getName());
		}
		catch (CaveatRejected rejected) {
			return CaveatRejectedPage.show(model, response, rejected, "/compare/" + runs.path() + "/caveats",
					"/compare/" + runs.path() + QueryStrings.safe(query), text, cell, metric, decidingExperiment,
					decidingPlan, query, true);
		}
		return "redirect:/compare/" + runs.path() + QueryStrings.safe(query) + "#caveat-" + added.id();
	}

	/**
	 * Publishes the comparison as computed now. With settings other than the defaults it
	 * needs a {@code reason}; with no comparable cell,
	 * {@code confirm_no_comparable=true}. Refused, it answers 400 with the comparison
	 * page, every problem next to the field it concerns and the typed values kept.
	 */
	@PostMapping("/compare/{pair:.+}/publish")
	String publish(@PathVariable String pair, @RequestParam(defaultValue = "") String title,
			@RequestParam(defaultValue = "") String caption,
			@RequestParam(required = false, defaultValue = "") String query,
			@RequestParam(required = false) @Nullable String reason,
			@RequestParam(name = "confirm_no_comparable", defaultValue = "false") boolean confirmNoComparable,
			@RequestParam(name = "chart_metric", required = false) @Nullable String chartMetric, Principal principal,
			Model model, HttpServletResponse response) {
		if (Contenders.areSeveral(pair)) {
			Contenders several = Contenders.parse(pair);
			several.pairs().forEach(one -> refuseFixed(one, "a publication"));
			String url = contenders.publish(several, QueryStrings.parse(query), title, caption, reason,
					confirmNoComparable, chartMetric, principal.getName(), model, views);
			if (url == null) {
				response.setStatus(HttpStatus.BAD_REQUEST.value());
				return "compare/contenders";
			}
			return "redirect:" + url;
		}
		ComparisonService.Pair runs = ComparisonService.Pair.parse(pair);
		refuseFixed(runs, "a publication");
		Map<String, String> settingsQuery = QueryStrings.parse(query);
		CompareSettings settings = comparisons.settings(settingsQuery);
		ComparisonSnapshot snapshot = comparisons.freshSnapshot(runs, settings);
		Publications.Frozen frozen = new FrozenResult.One(snapshot).frozen(json);
		Map<String, String> problems = new LinkedHashMap<>(
				Publications.problems(title, caption, frozen, reason, confirmNoComparable));
		String unknownMetric = Publications.chartMetricProblem(frozen, chartMetric);
		if (unknownMetric != null) {
			problems.put("chart_metric", unknownMetric);
		}
		if (!problems.isEmpty()) {
			views.live(runs, settingsQuery, snapshot, model);
			Map<String, String> typed = new HashMap<>();
			typed.put("title", title);
			typed.put("caption", caption);
			typed.put("reason", reason == null ? "" : reason);
			typed.put("confirm_no_comparable", String.valueOf(confirmNoComparable));
			typed.put("chart_metric", chartMetric == null ? "" : chartMetric);
			model.addAttribute("publishErrors", problems);
			model.addAttribute("publishForm", typed);
			response.setStatus(HttpStatus.BAD_REQUEST.value());
			return "compare/table";
		}
		Publication publication = publications.publish(runs.baselineId(), List.of(runs.contenderId()), frozen, title,
				caption, reason, confirmNoComparable, chartMetric, principal.getName());
		return "redirect:" + publication.url();
	}

	@GetMapping("/compare/{pair:.+}/export.{format}")
	ResponseEntity<String> exportComparison(@PathVariable String pair, @PathVariable String format,
			@RequestParam Map<String, String> query) {
		if (Contenders.areSeveral(pair)) {
			return contenders.export(Contenders.parse(pair), format, query, views);
		}
		return views.export(ComparisonService.Pair.parse(pair), format, query);
	}

	/**
	 * Caveats and publications of several contenders are written on each pairwise
	 * comparison.
	 */
	private static void refuseSeveral(String path, String what) {
		if (Contenders.areSeveral(path)) {
			throw new Contenders.Rejected(what + " is written on one contender's comparison with the baseline, "
					+ "/compare/{baseline}...{contender}, not on several contenders at once");
		}
	}

	/**
	 * Caveats and publications are filed under the runs' comparison: one with fixed
	 * parameters has none of its own.
	 */
	private static void refuseFixed(ComparisonService.Pair runs, String what) {
		if (runs.fixesParams()) {
			throw new ComparisonService.FixedParamsRejected(
					what + " is filed under the comparison of whole runs: add it on /compare/"
							+ String.join("+", runs.baselineIds()) + "..." + String.join("+", runs.contenderIds())
							+ " (a comparison with fixed parameters has none of its own)");
		}
	}

	@ExceptionHandler({ ComparisonService.FixedParamsRejected.class, Contenders.Rejected.class })
	ResponseEntity<ProblemDetail> rejectPath(RuntimeException ex) {
		return ApiProblems.of(HttpStatus.BAD_REQUEST, "$", String.valueOf(ex.getMessage()));
	}

	@ExceptionHandler(ComparisonService.NotReplicates.class)
	ResponseEntity<ProblemDetail> rejectGroup(ComparisonService.NotReplicates ex) {
		return ApiProblems.of(HttpStatus.BAD_REQUEST, "$", String.valueOf(ex.getMessage()));
	}

	@ExceptionHandler(IllegalArgumentException.class)
	ResponseEntity<ProblemDetail> rejectSettings(IllegalArgumentException ex) {
		return ApiProblems.of(HttpStatus.BAD_REQUEST, "$", "Bad comparison setting: " + ex.getMessage());
	}

	private static @Nullable String blank(@Nullable String text) {
		return StringUtils.hasText(text) ? text : null;
	}

}
