package dev.parity.site;

import java.net.URI;
import java.security.Principal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.parity.snapshots.ComparisonService;
import dev.parity.snapshots.FrozenResult;
import dev.parity.compare.ComparisonSnapshot;
import dev.parity.compare.CompareSettings;
import dev.parity.record.Publication;
import dev.parity.record.Publications;
import dev.parity.record.Retraction;
import dev.parity.run.RunNotFoundException;
import dev.parity.web.ApiProblems;
import dev.parity.web.Problem;
import dev.parity.web.RequestChecks;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Publishing from a script: the same comparison, the same guard rails as the form (a
 * reason for settings other than the defaults, an explicit confirmation when no cell is
 * comparable, a title), every problem named with its JSON path and nothing stored on a
 * 400; and the list of publications.
 */
@RestController
class PublicationApiController {

	/**
	 * The fields a publish request may have; any other is a typo, refused rather than
	 * ignored.
	 */
	private static final Set<String> FIELDS = Set.of("baseline", "contender", "contenders", "title", "caption",
			"settings", "reason", "confirm_no_comparable", "chart_metric");

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

	/** A publish request that is shaped right; what it asks may still be refused. */
	private record Request(String baseline, List<String> contenders, String title, String caption,
			Map<String, String> settings, @Nullable String reason, boolean confirmNoComparable,
			@Nullable String chartMetric) {
	}

	@Operation(
			summary = "Publish a comparison: {baseline, contender (or contenders: [1 to 8, each against the baseline]), title, caption, settings, "
					+ "reason, confirm_no_comparable, chart_metric (the metric whose chart it draws; one of the comparison's)} → 201 {id, url}; 400 {errors: [{path, message}]} with nothing stored")
	@ApiResponse(responseCode = "201", description = "published; Location is its page",
			content = @Content(mediaType = "application/json", schema = @Schema(implementation = Created.class)))
	@PostMapping(path = "/api/published", consumes = "application/json", produces = "application/json")
	ResponseEntity<?> publish(@io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(
			schema = @Schema(implementation = PublicationAnswers.PublishBody.class))) @RequestBody JsonNode body,
			Principal principal) {
		List<Problem> problems = new ArrayList<>();
		Request request = read(body, problems);
		if (request == null) {
			return rejected(problems);
		}
		if (request.contenders().size() > 1) {
			return publishSeveral(request, principal);
		}
		ComparisonService.Pair pair;
		CompareSettings settings;
		try {
			pair = ComparisonService.Pair.parse(request.baseline() + "..." + request.contenders().get(0));
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
		Publications.Frozen snapshot;
		try {
			snapshot = new FrozenResult.One(comparisons.freshSnapshot(pair, settings)).frozen(json);
		}
		catch (RunNotFoundException ex) {
			return rejected(List.of(new Problem(
					pair.baselineIds().contains(idOf(ex)) ? "$.baseline" : contenderPath(body), reason(ex))));
		}
		catch (ComparisonService.NotReplicates ex) {
			return rejected(List.of(new Problem(
					ex.getMessage().startsWith("The baseline") ? "$.baseline" : contenderPath(body), ex.getMessage())));
		}
		Map<String, String> refused = Publications.problems(request.title(), request.caption(), snapshot,
				request.reason(), request.confirmNoComparable());
		String unknownMetric = Publications.chartMetricProblem(snapshot, request.chartMetric());
		if (unknownMetric != null) {
			problems.add(new Problem("$.chart_metric", unknownMetric));
		}
		if (!refused.isEmpty() || unknownMetric != null) {
			refused.forEach((field, message) -> problems.add(new Problem("$." + field, message)));
			return rejected(problems);
		}
		Publication publication = publications.publish(pair.baselineId(), List.of(pair.contenderId()), snapshot,
				request.title(), request.caption(), request.reason(), request.confirmNoComparable(),
				request.chartMetric(), principal.getName());
		return created(publication);
	}

	/**
	 * Several contenders against one baseline: each contender's comparison with the
	 * baseline computed now, frozen together as {@code {"baseline", "path",
	 * "comparisons", "contenders": [each pairwise result, in order]}}.
	 */
	private ResponseEntity<?> publishSeveral(Request request, Principal principal) {
		List<String> written = request.contenders();
		for (int i = 0; i < written.size(); i++) {
			if (written.get(i).isBlank() || written.get(i).contains(",") || written.get(i).contains("...")) {
				return rejected(List.of(new Problem("$.contenders[" + i + "]",
						"must be one run id or group of replicates (a1+a2), not \"" + written.get(i) + "\"")));
			}
		}
		Contenders contenders;
		try {
			contenders = Contenders.parse(request.baseline() + "..." + String.join(",", written));
		}
		catch (Contenders.Rejected ex) {
			return rejected(List.of(new Problem("$.contenders", ex.getMessage())));
		}
		catch (RunNotFoundException | IllegalArgumentException ex) {
			return rejected(List.of(new Problem(severalPath(request, ex), reason(ex))));
		}
		CompareSettings settings;
		try {
			settings = comparisons.settings(request.settings());
		}
		catch (IllegalArgumentException ex) {
			return rejected(List.of(new Problem("$.settings", ex.getMessage())));
		}
		List<ComparisonSnapshot> each = new ArrayList<>();
		for (int i = 0; i < contenders.pairs().size(); i++) {
			ComparisonService.Pair pair = contenders.pairs().get(i);
			try {
				each.add(comparisons.freshSnapshot(pair, settings));
			}
			catch (RunNotFoundException ex) {
				return rejected(List.of(new Problem(
						pair.baselineIds().contains(idOf(ex)) ? "$.baseline" : "$.contenders[" + i + "]", reason(ex))));
			}
			catch (ComparisonService.NotReplicates ex) {
				return rejected(List.of(new Problem(
						ex.getMessage().startsWith("The baseline") ? "$.baseline" : "$.contenders[" + i + "]",
						ex.getMessage())));
			}
		}
		Publications.Frozen result = ContenderComparisons.freeze(contenders, each).frozen(json);
		List<Problem> problems = new ArrayList<>();
		Publications
			.problems(request.title(), request.caption(), result, request.reason(), request.confirmNoComparable())
			.forEach((field, message) -> problems.add(new Problem("$." + field, message)));
		String unknownMetric = Publications.chartMetricProblem(result, request.chartMetric());
		if (unknownMetric != null) {
			problems.add(new Problem("$.chart_metric", unknownMetric));
		}
		if (!problems.isEmpty()) {
			return rejected(problems);
		}
		Publication publication = publications.publish(contenders.pairs().get(0).baselineId(),
				contenders.pairs().stream().map(ComparisonService.Pair::contenderId).toList(), result, request.title(),
				request.caption(), request.reason(), request.confirmNoComparable(), request.chartMetric(),
				principal.getName());
		return created(publication);
	}

	/** The field a run that is not there, or a side that cannot be read, was named in. */
	private static String severalPath(Request request, RuntimeException ex) {
		String id = idOf(ex);
		String message = String.valueOf(ex.getMessage());
		if (request.baseline().contains(id) || message.endsWith(request.baseline())) {
			return "$.baseline";
		}
		for (int i = 0; i < request.contenders().size(); i++) {
			String contender = request.contenders().get(i);
			if (contender.contains(id) || message.endsWith(contender)) {
				return "$.contenders[" + i + "]";
			}
		}
		return "$.contenders";
	}

	/** A new publication: its id and its page. */
	record Created(String id, String url) {
	}

	private static ResponseEntity<Created> created(Publication publication) {
		return ResponseEntity.created(URI.create(publication.url()))
			.body(new Created(publication.id(), publication.url()));
	}

	@Operation(
			summary = "The publications, newest first: {total, page, size, published: [...]}, each marked when retracted or superseded")
	@GetMapping(path = "/api/published", produces = "application/json")
	PublicationAnswers.Listing listPublished(@RequestParam(defaultValue = "0") String page,
			@RequestParam(defaultValue = "25") int size) {
		int number = RequestChecks.page(page);
		int limit = Math.min(Math.max(size, 1), MAX_PAGE_SIZE);
		List<Publication> listed = publications.page(number * limit, limit);
		Map<String, Retraction> marks = notices.publicationMarks(listed);
		return new PublicationAnswers.Listing(publications.count(), number, limit,
				listed.stream().map(p -> PublicationAnswers.Listed.of(p, marks.get(p.id()))).toList());
	}

	/**
	 * The request's fields, checked for their types; {@code null} with every problem
	 * added when one is wrong.
	 */
	private static @Nullable Request read(JsonNode body, List<Problem> problems) {
		if (!body.isObject()) {
			problems.add(new Problem("$", "the body is a JSON object {\"baseline\", \"contender\", \"title\", …}"));
			return null;
		}
		body.propertyNames().forEach(name -> {
			if (!FIELDS.contains(name)) {
				problems.add(new Problem("$." + name, "unknown field; a publish request has "
						+ String.join(", ", FIELDS.stream().sorted().toList())));
			}
		});
		String baseline = text(body, "baseline", true, problems);
		List<String> contenders = contenders(body, problems);
		String title = text(body, "title", false, problems);
		String caption = text(body, "caption", false, problems);
		String reason = text(body, "reason", false, problems);
		String chartMetric = text(body, "chart_metric", false, problems);
		JsonNode confirm = body.path("confirm_no_comparable");
		if (!confirm.isMissingNode() && !confirm.isNull() && !confirm.isBoolean()) {
			problems.add(new Problem("$.confirm_no_comparable", "must be true or false, not " + confirm));
		}
		Map<String, String> settings = settings(body.path("settings"), problems);
		if (!problems.isEmpty()) {
			return null;
		}
		return new Request(baseline, contenders, title == null ? "" : title, caption == null ? "" : caption, settings,
				reason, confirm.asBoolean(false), chartMetric);
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
			problems.add(
					new Problem("$." + field, "must be a string, not " + value.getNodeType().toString().toLowerCase()));
			return null;
		}
		return value.asString();
	}

	/**
	 * {@code contender}, or {@code contenders} with 1 to 8 elements: each one run or
	 * group of replicates (a1+a2).
	 */
	private static @Nullable List<String> contenders(JsonNode body, List<Problem> problems) {
		boolean one = body.has("contender") && !body.get("contender").isNull();
		boolean several = body.has("contenders") && !body.get("contenders").isNull();
		if (one && several) {
			problems.add(new Problem("$.contenders", "give contender or contenders, not both"));
			return null;
		}
		if (!several) {
			String contender = text(body, "contender", true, problems);
			return contender == null ? null : List.of(contender);
		}
		JsonNode list = body.get("contenders");
		if (!list.isArray() || list.isEmpty() || list.valueStream().anyMatch(v -> !v.isString())) {
			problems.add(new Problem("$.contenders", "must be a non-empty array of run ids"));
			return null;
		}
		if (list.size() > Contenders.MAX) {
			problems.add(new Problem("$.contenders",
					list.size() + " contenders: a publication takes at most " + Contenders.MAX));
			return null;
		}
		return list.valueStream().map(JsonNode::asString).toList();
	}

	/**
	 * The comparison settings, by the names of the URL parameters; a value is a string,
	 * number or list.
	 */
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
				query.put(name, value.isEmpty() ? "none"
						: String.join(",", value.valueStream().map(JsonNode::asString).toList()));
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

	/**
	 * The id a RunNotFoundException names ("No run with id 'x'"), or "" for another
	 * failure.
	 */
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
		return ex instanceof RunNotFoundException missing ? String.valueOf(missing.getReason())
				: String.valueOf(ex.getMessage());
	}

	private static ResponseEntity<ProblemDetail> rejected(List<Problem> problems) {
		return ApiProblems.of(HttpStatus.BAD_REQUEST, problems);
	}

}
