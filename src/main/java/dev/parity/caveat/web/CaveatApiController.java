package dev.parity.caveat.web;

import java.net.URI;
import java.security.Principal;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.parity.caveat.Caveat;
import dev.parity.caveat.CaveatRejected;
import dev.parity.caveat.Caveats;
import dev.parity.caveat.DecidingPlan;
import dev.parity.compare.ControlChange;
import dev.parity.web.ApiProblems;
import dev.parity.web.Problem;
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
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Caveats and hypotheses for scripts: {@code POST /api/caveats} (a hypothesis's deciding
 * experiment as text, as a structured plan — the changes of a control plan — or both) and
 * {@code POST /api/caveats/{id}/experiments} (a run declared as a hypothesis's
 * experiment, linked from its status history).
 */
@RestController
class CaveatApiController {

	private final Caveats caveats;

	private final JsonMapper json;

	CaveatApiController(Caveats caveats, JsonMapper json) {
		this.caveats = caveats;
		this.json = json;
	}

	/**
	 * What a caveat is about: a run (and one of its cells), or a comparison (and one
	 * cell, and one metric).
	 */
	record TargetBody(@Nullable String run, @Nullable String baseline, @Nullable String contender,
			@Nullable String cell, @Nullable String metric) {
	}

	/** A hypothesis's deciding experiment as a plan: the changes of a control plan. */
	record DecidingPlanBody(@Schema(requiredMode = Schema.RequiredMode.REQUIRED) List<ControlChange> changes) {
	}

	/**
	 * The body of {@code POST /api/caveats}; with a deciding experiment or plan it is a
	 * hypothesis.
	 */
	record CaveatBody(@Schema(requiredMode = Schema.RequiredMode.REQUIRED) TargetBody target,
			@Schema(requiredMode = Schema.RequiredMode.REQUIRED) String text,
			@JsonProperty("deciding_experiment") @Nullable String decidingExperiment,
			@JsonProperty("deciding_plan") @Nullable DecidingPlanBody decidingPlan) {
	}

	/** The body of {@code POST /api/caveats/{id}/experiments}. */
	record ExperimentBody(@Schema(requiredMode = Schema.RequiredMode.REQUIRED) String run) {
	}

	/**
	 * A caveat or hypothesis as the API lists it (documentation of the shape
	 * {@link CaveatJson} writes).
	 */
	@Schema(name = "Caveat")
	record CaveatView(String id, @Schema(allowableValues = {
			"caveat", "hypothesis" }) String kind, String text, TargetBody target,
			@JsonProperty("created_at") String createdAt, @JsonProperty("created_by") String createdBy,
			@Nullable String status, @JsonProperty("deciding_experiment") @Nullable String decidingExperiment,
			@JsonProperty("deciding_plan") @Nullable DecidingPlanBody decidingPlan, List<String> experiments,
			List<StatusChangeView> history){
	}

	/**
	 * One change of a hypothesis's status; {@code experiment} names a run declared as its
	 * experiment.
	 */
	@Schema(name = "HypothesisStatusChange")
	record StatusChangeView(String status, String reason, @JsonProperty("decided_by") @Nullable String decidedBy,
			@Nullable String experiment, String at, String by) {
	}

	@Operation(summary = "Write a caveat, or a hypothesis (status suspected) whose deciding experiment is text "
			+ "(deciding_experiment), a plan ({\"changes\": [{rule, field, from, to, how, check}]}, as in a control plan), "
			+ "or both → 201 the caveat as the API lists it; 400 naming the field written wrong, nothing stored")
	@ApiResponse(responseCode = "201", description = "written",
			content = @Content(schema = @Schema(implementation = CaveatView.class)))
	@PostMapping(path = "/api/caveats", consumes = "application/json", produces = "application/json")
	ResponseEntity<JsonNode> add(
			@io.swagger.v3.oas.annotations.parameters.RequestBody(
					content = @Content(schema = @Schema(implementation = CaveatBody.class))) @RequestBody JsonNode body,
			Principal principal) {
		if (!body.isObject()) {
			throw new CaveatRejected(
					"$: must be an object {\"target\", \"text\", \"deciding_experiment\", \"deciding_plan\"}", "");
		}
		JsonNode target = body.path("target");
		if (!target.isObject()) {
			throw new CaveatRejected("target: name a run {\"run\"} or a comparison {\"baseline\", \"contender\"}",
					"target");
		}
		List<ControlChange> plan = body.hasNonNull("deciding_plan")
				? DecidingPlan.parse(body.get("deciding_plan"), json) : List.of();
		String text = string(body, "text");
		if (text == null) {
			throw new CaveatRejected("text: the caveat's text must not be empty", "text");
		}
		String run = string(target, "run");
		Caveat.Target about = run != null ? Caveat.Target.run(run, string(target, "cell"))
				: Caveat.Target.comparison(string(target, "baseline"), string(target, "contender"),
						string(target, "cell"), string(target, "metric"));
		Caveat added = caveats.add(about, text, string(body, "deciding_experiment"), plan, principal.getName());
		return ResponseEntity.created(URI.create("/api/caveats/" + added.id()))
			.body(CaveatJson.list(List.of(added), json).get(0));
	}

	@Operation(summary = "Declare a run the experiment of a hypothesis: {\"run\"} → 201 the hypothesis, whose status "
			+ "history links the run (the status stays what it was); again with the same run changes nothing; 400 for "
			+ "an unknown run or a caveat that is not a hypothesis, 404 for an unknown caveat")
	@ApiResponse(responseCode = "201", description = "declared",
			content = @Content(schema = @Schema(implementation = CaveatView.class)))
	@PostMapping(path = "/api/caveats/{id}/experiments", consumes = "application/json", produces = "application/json")
	ResponseEntity<JsonNode> declareExperiment(@PathVariable String id, @RequestBody ExperimentBody body,
			Principal principal) {
		Caveat caveat = caveats.declareExperiment(id, body.run(), principal.getName());
		return ResponseEntity.status(201).body(CaveatJson.list(List.of(caveat), json).get(0));
	}

	private static @Nullable String string(JsonNode node, String name) {
		JsonNode value = node.get(name);
		if (value == null || value.isNull()) {
			return null;
		}
		if (!value.isString()) {
			throw new CaveatRejected(name + ": must be a string", name);
		}
		return value.asString().isBlank() ? null : value.asString();
	}

	@ExceptionHandler(CaveatRejected.class)
	ResponseEntity<ProblemDetail> reject(CaveatRejected ex) {
		String path = ex.path() == null ? "$" : ex.path().isEmpty() ? "$" : "$." + ex.path();
		return ApiProblems.of(HttpStatus.BAD_REQUEST, List.of(new Problem(path, String.valueOf(ex.getReason()))));
	}

}
