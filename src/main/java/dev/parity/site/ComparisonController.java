package dev.parity.site;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.parity.caveat.Caveat;
import dev.parity.caveat.Caveats;
import dev.parity.compare.CompareSettings;
import dev.parity.record.Publication;
import dev.parity.record.Publications;
import dev.parity.run.RunSummaries;
import io.swagger.v3.oas.annotations.Operation;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.util.StringUtils;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;

/**
 * The side-by-side comparison of a baseline and a contender, live or as published, and the forms that
 * add caveats to it and publish it.
 */
@Controller
class ComparisonController {

	private final ComparisonService comparisons;

	private final Caveats caveats;

	private final Publications publications;

	private final RunSummaries summaries;

	private final JsonMapper json;

	ComparisonController(ComparisonService comparisons, Caveats caveats, Publications publications,
			RunSummaries summaries, JsonMapper json) {
		this.comparisons = comparisons;
		this.caveats = caveats;
		this.publications = publications;
		this.summaries = summaries;
		this.json = json;
	}

	@GetMapping("/compare")
	String pickRuns(@RequestParam Map<String, String> query, Model model) {
		String baseline = query.get("baseline");
		String contender = query.get("contender");
		if (StringUtils.hasText(baseline) && StringUtils.hasText(contender)) {
			Map<String, String> rest = new LinkedHashMap<>(query);
			rest.remove("baseline");
			rest.remove("contender");
			return "redirect:/compare/" + baseline.strip() + "..." + contender.strip() + queryString(rest);
		}
		model.addAttribute("pageTitle", "Compare");
		model.addAttribute("recent", summaries.search(RunSummaries.RunFilter.none(), 0, 100).getContent());
		model.addAttribute("baseline", baseline);
		model.addAttribute("contender", contender);
		model.addAttribute("published", publications.recent(20));
		return "compare/pick";
	}

	@GetMapping("/compare/{pair:.+}")
	String showComparison(@PathVariable String pair, @RequestParam Map<String, String> query, Model model) {
		ComparisonService.Pair runs = ComparisonService.Pair.parse(pair);
		CompareSettings settings = comparisons.settings(query);
		ObjectNode snapshot = comparisons.snapshot(runs, settings);
		model.addAttribute("pageTitle", "Compare " + runs.path());
		ComparisonPage page = page(snapshot, runs);
		model.addAttribute("page", page);
		model.addAttribute("chartJson", json.writeValueAsString(page.chartData()));
		model.addAttribute("pair", runs.path());
		model.addAttribute("query", queryString(query));
		model.addAttribute("settingsJson", json.writeValueAsString(snapshot.get("settings")));
		model.addAttribute("publishedBefore", publications.ofPair(runs.baselineId(), runs.contenderId()));
		model.addAttribute("live", true);
		return "compare/table";
	}

	@Operation(summary = "A comparison: both runs, settings, flags, headlines, cells with every flag next to every number")
	@GetMapping("/api/compare/{pair:.+}")
	@ResponseBody
	ObjectNode showComparisonJson(@PathVariable String pair, @RequestParam Map<String, String> query) {
		ComparisonService.Pair runs = ComparisonService.Pair.parse(pair);
		ObjectNode snapshot = comparisons.snapshot(runs, comparisons.settings(query));
		snapshot.set("caveats", CaveatJson.list(caveats.forComparison(runs.baselineId(), runs.contenderId()), json));
		return snapshot;
	}

	@PostMapping("/compare/{pair:.+}/caveats")
	String addCaveat(@PathVariable String pair, @RequestParam String text,
			@RequestParam(required = false) @Nullable String cell, @RequestParam(required = false) @Nullable String metric,
			@RequestParam(name = "deciding_experiment", required = false) @Nullable String decidingExperiment,
			@RequestParam(required = false, defaultValue = "") String query, Principal principal) {
		ComparisonService.Pair runs = ComparisonService.Pair.parse(pair);
		Caveat added = caveats.add(Caveat.Target.comparison(runs.baselineId(), runs.contenderId(), blank(cell), blank(metric)),
				text, decidingExperiment, principal.getName());
		return "redirect:/compare/" + runs.path() + safeQuery(query) + "#caveat-" + added.id();
	}

	@PostMapping("/compare/{pair:.+}/publish")
	String publish(@PathVariable String pair, @RequestParam String title, @RequestParam(defaultValue = "") String caption,
			@RequestParam(required = false, defaultValue = "") String query, Principal principal) {
		ComparisonService.Pair runs = ComparisonService.Pair.parse(pair);
		Map<String, String> settingsQuery = parseQuery(query);
		CompareSettings settings = comparisons.settings(settingsQuery);
		ObjectNode snapshot = comparisons.snapshot(runs, settings);
		Publication publication = publications.publish(runs.baselineId(), runs.contenderId(), snapshot.get("settings"),
				title, caption, snapshot, snapshot.get("rules_version").asString(), principal.getName());
		return "redirect:" + publication.url();
	}

	@GetMapping("/compare/{pair:.+}/export.{format}")
	ResponseEntity<String> exportComparison(@PathVariable String pair, @PathVariable String format,
			@RequestParam Map<String, String> query) {
		ComparisonService.Pair runs = ComparisonService.Pair.parse(pair);
		ObjectNode snapshot = comparisons.snapshot(runs, comparisons.settings(query));
		String permalink = org.springframework.web.servlet.support.ServletUriComponentsBuilder.fromCurrentContextPath()
			.path("/compare/" + runs.path()).build().toUriString() + queryString(query);
		return export(page(snapshot, runs), snapshot, format, "Comparison " + runs.path(), permalink, "comparison-" + runs.path());
	}

	ResponseEntity<String> export(ComparisonPage page, JsonNode snapshot, String format, String title, String permalink,
			String fileName) {
		return switch (format) {
			case "md" -> download(ComparisonExport.markdown(page, title, permalink), "text/markdown", fileName + ".md");
			case "csv" -> download(ComparisonExport.csv(page, permalink), "text/csv", fileName + ".csv");
			case "json" -> {
				ObjectNode body = ((ObjectNode) snapshot).deepCopy();
				body.put("permalink", permalink);
				yield download(json.writeValueAsString(body), "application/json", fileName + ".json");
			}
			default -> throw new dev.parity.run.RunNotFoundException("export." + format);
		};
	}

	private static ResponseEntity<String> download(String body, String mediaType, String fileName) {
		return ResponseEntity.ok()
			.contentType(org.springframework.http.MediaType.parseMediaType(mediaType + ";charset=UTF-8"))
			.header(org.springframework.http.HttpHeaders.CONTENT_DISPOSITION, "inline; filename=\"" + fileName.replace("...", "--") + "\"")
			.body(body);
	}

	ComparisonPage page(JsonNode snapshot, ComparisonService.Pair runs) {
		List<Caveat> onRuns = new java.util.ArrayList<>(caveats.forRun(runs.baselineId()));
		onRuns.addAll(caveats.forRun(runs.contenderId()));
		return ComparisonPage.of(snapshot, caveats.forComparison(runs.baselineId(), runs.contenderId()), onRuns,
				publications.retractionOf("run", runs.baselineId()).orElse(null),
				publications.retractionOf("run", runs.contenderId()).orElse(null), comparisons.defaultSettings());
	}

	@ExceptionHandler(IllegalArgumentException.class)
	ResponseEntity<String> rejectSettings(IllegalArgumentException ex) {
		return ResponseEntity.status(HttpStatus.BAD_REQUEST).contentType(org.springframework.http.MediaType.TEXT_PLAIN)
			.body("Bad comparison setting: " + ex.getMessage());
	}

	static String queryString(Map<String, String> query) {
		if (query.isEmpty()) {
			return "";
		}
		return "?" + query.entrySet().stream()
			.filter(e -> StringUtils.hasText(e.getValue()))
			.map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
			.collect(Collectors.joining("&"));
	}

	/** A query string carried through a form, re-encoded so nothing but parameters comes back. */
	static String safeQuery(String query) {
		String encoded = queryString(parseQuery(query));
		return encoded.equals("?") ? "" : encoded;
	}

	static Map<String, String> parseQuery(String query) {
		Map<String, String> map = new LinkedHashMap<>();
		String text = query.startsWith("?") ? query.substring(1) : query;
		for (String part : text.split("&")) {
			if (part.isBlank()) {
				continue;
			}
			int eq = part.indexOf('=');
			String name = java.net.URLDecoder.decode(eq < 0 ? part : part.substring(0, eq), StandardCharsets.UTF_8);
			String value = eq < 0 ? "" : java.net.URLDecoder.decode(part.substring(eq + 1), StandardCharsets.UTF_8);
			map.put(name, value);
		}
		return map;
	}

	private static @Nullable String blank(@Nullable String text) {
		return StringUtils.hasText(text) ? text : null;
	}

}
