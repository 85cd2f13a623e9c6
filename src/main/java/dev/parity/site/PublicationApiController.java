package dev.parity.site;

import java.security.Principal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.parity.compare.CompareSettings;
import dev.parity.record.Publication;
import dev.parity.record.Publications;
import dev.parity.record.Retraction;
import dev.parity.run.RunNotFoundException;
import io.swagger.v3.oas.annotations.Operation;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Publishing from a script: the same comparison, the same guard rails as the form (a reason for settings other than
 * the defaults, an explicit confirmation when no cell is comparable, a title), every problem named with its JSON path
 * and nothing stored on a 400; and the list of publications.
 */
@RestController
class PublicationApiController {

	/** The fields a publish request may have; any other is a typo, refused rather than ignored. */
	private static final Set<String> FIELDS = Set.of("baseline", "contender", "contenders", "title", "caption", "settings",
			"reason", "confirm_no_comparable");

	private static final int MAX_PAGE_SIZE = 100;

	private final Publications publications;

	private final ComparisonService comparisons;

	private final RecordNotices notices;

	private final JsonMapper json;

	PublicationApiController(Publications publications, ComparisonService comparisons, RecordNotices notices,
			JsonMapper json) {
		this.publications = publications;
		this.comparisons = comparisons;
		this.notices = notices;
		this.json = json;
	}

	/** A problem with a request, at its JSON path. */
	record Problem(String path, String message) {
	}

	/** A publish request that is shaped right; what it asks may still be refused. */
	private record Request(String baseline, String contender, String title, String caption, Map<String, String> settings,
			@Nullable String reason, boolean confirmNoComparable) {
	}

	@Operation(summary = "Publish a comparison: {baseline, contender (or contenders: [one]), title, caption, settings, "
			+ "reason, confirm_no_comparable} → 201 {id, url}; 400 {errors: [{path, message}]} with nothing stored")
	@PostMapping(path = "/api/published", consumes = "application/json", produces = "application/json")
	ResponseEntity<Map<String, Object>> publish(@RequestBody JsonNode body, Principal principal) {
		List<Problem> problems = new ArrayList<>();
		Request request = read(body, problems);
		if (request == null) {
			return rejected(problems);
		}
		ComparisonService.Pair pair;
		CompareSettings settings;
		try {
			pair = ComparisonService.Pair.parse(request.baseline() + "..." + request.contender());
		}
		catch (RunNotFoundException | IllegalArgumentException ex) {
			boolean inBaseline = ex instanceof RunNotFoundException ? request.baseline().contains(idOf(ex))
					: String.valueOf(ex.getMessage()).endsWith(request.baseline());
			return rejected(List.of(new Problem(inBaseline ? "$.baseline" : contenderPath(body), reason(ex))));
		}
		try {
			settings = comparisons.settings(request.settings());
		}
		catch (IllegalArgumentException ex) {
			return rejected(List.of(new Problem("$.settings", ex.getMessage())));
		}
		ObjectNode snapshot;
		try {
			snapshot = comparisons.freshSnapshot(pair, settings);
		}
		catch (RunNotFoundException ex) {
			return rejected(List.of(new Problem(pair.baselineIds().contains(idOf(ex)) ? "$.baseline" : contenderPath(body),
					reason(ex))));
		}
		catch (ComparisonService.NotReplicates ex) {
			return rejected(List.of(new Problem(ex.getMessage().startsWith("The baseline") ? "$.baseline" : contenderPath(body),
					ex.getMessage())));
		}
		Map<String, String> refused = Publications.problems(request.title(), request.caption(), snapshot, request.reason(),
				request.confirmNoComparable());
		if (!refused.isEmpty()) {
			refused.forEach((field, message) -> problems.add(new Problem("$." + field, message)));
			return rejected(problems);
		}
		Publication publication = publications.publish(pair.baselineId(), pair.contenderId(), snapshot.get("settings"),
				request.title(), request.caption(), snapshot, snapshot.get("rules_version").asString(), request.reason(),
				request.confirmNoComparable(), principal.getName());
		Map<String, Object> created = new LinkedHashMap<>();
		created.put("id", publication.id());
		created.put("url", publication.url());
		return ResponseEntity.created(java.net.URI.create(publication.url())).body(created);
	}

	@Operation(summary = "The publications, newest first: {total, page, size, published: [...]}, each marked when retracted or superseded")
	@GetMapping(path = "/api/published", produces = "application/json")
	ObjectNode listPublished(@RequestParam(defaultValue = "0") String page, @RequestParam(defaultValue = "25") int size) {
		int number = RequestChecks.page(page);
		int limit = Math.min(Math.max(size, 1), MAX_PAGE_SIZE);
		List<Publication> listed = publications.page(number * limit, limit);
		Map<String, Retraction> marks = notices.publicationMarks(listed);
		ObjectNode body = json.createObjectNode();
		body.put("total", publications.count());
		body.put("page", number);
		body.put("size", limit);
		ArrayNode items = body.putArray("published");
		for (Publication p : listed) {
			ObjectNode item = items.addObject();
			item.put("id", p.id());
			item.put("url", p.url());
			item.put("title", p.title());
			item.put("caption", p.caption());
			item.put("published_at", p.createdAt().toString());
			item.put("published_by", p.createdBy());
			item.put("baseline", p.baselineId());
			item.put("contender", p.contenderId());
			item.put("rules_version", p.rulesVersion());
			item.put("settings_reason", p.settingsReason());
			item.put("no_comparable_confirmed", p.noComparableConfirmed());
			Retraction mark = marks.get(p.id());
			if (mark != null) {
				ObjectNode retraction = item.putObject("retraction");
				retraction.put("kind", mark.kind());
				retraction.put("reason", mark.reason());
				retraction.put("replacement", mark.replacementUrl());
				retraction.put("at", mark.createdAt().toString());
			}
		}
		return body;
	}

	/** The request's fields, checked for their types; {@code null} with every problem added when one is wrong. */
	private static @Nullable Request read(JsonNode body, List<Problem> problems) {
		if (!body.isObject()) {
			problems.add(new Problem("$", "the body is a JSON object {\"baseline\", \"contender\", \"title\", …}"));
			return null;
		}
		body.propertyNames().forEach(name -> {
			if (!FIELDS.contains(name)) {
				problems.add(new Problem("$." + name, "unknown field; a publish request has " + String.join(", ",
						FIELDS.stream().sorted().toList())));
			}
		});
		String baseline = text(body, "baseline", true, problems);
		String contender = contender(body, problems);
		String title = text(body, "title", false, problems);
		String caption = text(body, "caption", false, problems);
		String reason = text(body, "reason", false, problems);
		JsonNode confirm = body.path("confirm_no_comparable");
		if (!confirm.isMissingNode() && !confirm.isNull() && !confirm.isBoolean()) {
			problems.add(new Problem("$.confirm_no_comparable", "must be true or false, not " + confirm));
		}
		Map<String, String> settings = settings(body.path("settings"), problems);
		if (!problems.isEmpty()) {
			return null;
		}
		return new Request(baseline, contender, title == null ? "" : title, caption == null ? "" : caption, settings,
				reason, confirm.asBoolean(false));
	}

	private static @Nullable String text(JsonNode body, String field, boolean required, List<Problem> problems) {
		JsonNode value = body.path(field);
		if (value.isMissingNode() || value.isNull()) {
			if (required) {
				problems.add(new Problem("$." + field, "is required"));
			}
			return null;
		}
		if (!value.isString()) {
			problems.add(new Problem("$." + field, "must be a string, not " + value.getNodeType().toString().toLowerCase()));
			return null;
		}
		return value.asString();
	}

	/** {@code contender}, or {@code contenders} with one element: one run or group of replicates (a1+a2). */
	private static @Nullable String contender(JsonNode body, List<Problem> problems) {
		boolean one = body.has("contender") && !body.get("contender").isNull();
		boolean several = body.has("contenders") && !body.get("contenders").isNull();
		if (one && several) {
			problems.add(new Problem("$.contenders", "give contender or contenders, not both"));
			return null;
		}
		if (!several) {
			return text(body, "contender", true, problems);
		}
		JsonNode list = body.get("contenders");
		if (!list.isArray() || list.isEmpty() || list.valueStream().anyMatch(v -> !v.isString())) {
			problems.add(new Problem("$.contenders", "must be a non-empty array of run ids"));
			return null;
		}
		if (list.size() > 1) {
			problems.add(new Problem("$.contenders", "several contenders cannot be published yet: a publication freezes "
					+ "one baseline against one contender (got " + list.size() + "); publish each pair on its own"));
			return null;
		}
		return list.get(0).asString();
	}

	/** The comparison settings, by the names of the URL parameters; a value is a string, number or list. */
	private static Map<String, String> settings(JsonNode settings, List<Problem> problems) {
		Map<String, String> query = new LinkedHashMap<>();
		if (settings.isMissingNode() || settings.isNull()) {
			return query;
		}
		if (!settings.isObject()) {
			problems.add(new Problem("$.settings", "must be an object of comparison settings, e.g. {\"band\": 0.05}"));
			return query;
		}
		settings.forEachEntry((name, value) -> {
			if (value.isArray() && value.valueStream().allMatch(JsonNode::isString)) {
				query.put(name, value.isEmpty() ? "none" : String.join(",", value.valueStream().map(JsonNode::asString).toList()));
			}
			else if (value.isString() || value.isNumber()) {
				query.put(name, value.asString());
			}
			else {
				problems.add(new Problem("$.settings." + name, "must be a string, a number or a list of strings"));
			}
		});
		return query;
	}

	private static String contenderPath(JsonNode body) {
		return body.has("contenders") ? "$.contenders[0]" : "$.contender";
	}

	/** The id a RunNotFoundException names ("No run with id 'x'"), or "" for another failure. */
	private static String idOf(RuntimeException ex) {
		if (ex instanceof RunNotFoundException missing && missing.getReason() != null) {
			String reason = missing.getReason();
			int start = reason.indexOf('\'');
			int end = reason.lastIndexOf('\'');
			return start >= 0 && end > start ? reason.substring(start + 1, end) : reason;
		}
		return "\u0000";
	}

	private static String reason(RuntimeException ex) {
		return ex instanceof RunNotFoundException missing ? String.valueOf(missing.getReason()) : String.valueOf(ex.getMessage());
	}

	/** 503 with {@code Retry-After} when no turn to compute the comparison came in time; nothing stored. */
	@org.springframework.web.bind.annotation.ExceptionHandler(ComparisonsBusy.class)
	ResponseEntity<Map<String, Object>> busy(ComparisonsBusy busy) {
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
			.header(org.springframework.http.HttpHeaders.RETRY_AFTER, String.valueOf(ComparisonsBusy.RETRY_AFTER_SECONDS))
			.body(Map.of("errors", List.of(new Problem("$", busy.getMessage()))));
	}

	private static ResponseEntity<Map<String, Object>> rejected(List<Problem> problems) {
		return ResponseEntity.status(HttpStatus.BAD_REQUEST).body(Map.of("errors", problems));
	}

}
