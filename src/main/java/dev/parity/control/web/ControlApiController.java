package dev.parity.control.web;

import java.net.URI;
import java.security.Principal;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.parity.run.RerunCommands;
import dev.parity.compare.CannotSettle;
import dev.parity.compare.ControlChange;
import dev.parity.compare.ControlOutcome;
import dev.parity.compare.ControlPlan;
import dev.parity.compare.ProvenanceFields;
import dev.parity.snapshots.ComparisonService;
import dev.parity.control.ControlPlans;
import dev.parity.control.ControlRejected;
import dev.parity.control.Controls;
import dev.parity.run.Run;
import dev.parity.web.ApiProblems;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * What would settle a comparison ({@code GET
 * /api/compare/{baseline}...{contender}/control}) and the controls declared for it
 * ({@code POST /api/controls}).
 */
@RestController
class ControlApiController {

	private final ControlPlans plans;

	private final Controls controls;

	private final ComparisonService comparisons;

	ControlApiController(ControlPlans plans, Controls controls, ComparisonService comparisons) {
		this.plans = plans;
		this.controls = controls;
		this.comparisons = comparisons;
	}

	/** The rerun commands with the plan's changes applied. */
	record Commands(@Nullable String serve, String bench) {
	}

	/** A declared control, as the plan lists it. */
	record ControlView(String run, String title, List<String> holds, List<ControlOutcome.Missed> missed,
			String comparison,
			@ArraySchema(
					arraySchema = @Schema(
							description = "exactly the headlines of GET /api/compare/{baseline}...{control}"),
					schema = @Schema(implementation = HeadlineSchema.class)) List<JsonNode> headlines,
			List<ControlOutcome.Before> before) {
	}

	/**
	 * One headline of a comparison, as {@code GET /api/compare/…} writes it
	 * (documentation of its shape).
	 */
	@Schema(name = "Headline")
	record HeadlineSchema(String metric, int comparable, @JsonProperty("within_band") int withinBand,
			@JsonProperty("median_ratio") @Nullable Double medianRatio, int excluded,
			@JsonProperty("excluded_reasons") Map<String, Integer> excludedReasons, Map<String, Integer> verdicts,
			@JsonProperty("median_ratio_interval") @Nullable IntervalSchema medianRatioInterval) {
	}

	/**
	 * A ratio's interval, as the comparison's JSON writes it (documentation of its
	 * shape).
	 */
	@Schema(name = "RatioInterval")
	record IntervalSchema(double low, double high, double confidence, String method, @Nullable String caution) {
	}

	/** The plan of {@code GET /api/compare/{baseline}...{contender}/control}. */
	record PlanView(String baseline, String contender, boolean settled, ControlPlan.@Nullable Rerun rerun,
			List<ControlChange> changes, @JsonProperty("cannot_settle") List<CannotSettle> cannotSettle,
			List<String> cells, @Nullable Commands commands, List<ControlView> controls) {
	}

	/** The body of {@code POST /api/controls}. */
	record Declaration(@Nullable String control, @Nullable String of) {
	}

	/** A declared control: 201. */
	record DeclaredView(String control, String of, @JsonProperty("declared_in") String declaredIn,
			@JsonProperty("declared_by") String declaredBy, String plan) {
	}

	@Operation(
			summary = "What would settle a comparison of two single runs: the side to rerun (the measured one, never a "
					+ "reference; with two measured runs, the contender), each change that removes a greying flag with from/to "
					+ "taken from both runs (and a check to run before measuring), what no rerun removes, the cells a control would "
					+ "make comparable, the rerun commands with the changes applied, and every declared control with what it holds, "
					+ "missed, its headlines and the claim before it")
	@GetMapping(path = "/api/compare/{pair:.+}/control", produces = "application/json")
	PlanView showPlan(@PathVariable String pair, @Parameter(
			description = "the comparison's URL parameters (vary, band, output_tolerance, …)") @RequestParam Map<String, String> query) {
		ComparisonService.Pair runs = ComparisonService.Pair.parse(pair);
		return view(plans.plan(runs, comparisons.settings(query)));
	}

	static PlanView view(ControlPlans.Planned planned) {
		ControlPlan plan = planned.plan();
		Run rerun = planned.rerun();
		Commands commands = null;
		if (rerun != null) {
			RerunCommands rebuilt = RerunCommands.of(ProvenanceFields.applied(rerun.provenance(), plan.changes()),
					rerun.cells());
			commands = new Commands(rebuilt.serve(), rebuilt.bench());
		}
		List<ControlView> views = planned.controls()
			.stream()
			.map(control -> new ControlView(control.run().id().value(), control.run().title(),
					control.outcome().holds(), control.outcome().missed(), control.path(),
					control.headlines().valueStream().toList(), control.outcome().before()))
			.toList();
		return new PlanView(plan.baseline(), plan.contender(), plan.settled(), plan.rerun(), plan.changes(),
				plan.cannotSettle(), plan.cells(), commands, views);
	}

	@Operation(
			summary = "Declare a run the control of a comparison of two single runs: {control, of: \"<baseline>...<contender>\"} "
					+ "→ 201; 404 naming a run that does not exist, 400 naming what is written wrong; nothing stored on error")
	@ApiResponse(responseCode = "201", description = "declared; Location is the plan")
	@PostMapping(path = "/api/controls", consumes = "application/json", produces = "application/json")
	ResponseEntity<DeclaredView> declare(@RequestBody Declaration body, Principal principal) {
		if (body.control() == null || body.control().isBlank()) {
			throw new ControlRejectedByRequest("control",
					"name the control run: {\"control\": \"<run id>\", \"of\": \"<baseline>...<contender>\"}");
		}
		Controls.Declared declared = controls.declare(body.control().strip(),
				body.of() == null ? null : body.of().strip(), principal.getName());
		String of = declared.baseline() + "..." + declared.contender();
		String plan = "/api/compare/" + of + "/control";
		return ResponseEntity.created(URI.create(plan))
			.body(new DeclaredView(declared.control(), of, declared.declaredIn(), declared.declaredBy(), plan));
	}

	/** A request without a field the declaration needs. */
	static final class ControlRejectedByRequest extends RuntimeException {

		private final String field;

		ControlRejectedByRequest(String field, String message) {
			super(message);
			this.field = field;
		}

	}

	@ExceptionHandler(ControlRejectedByRequest.class)
	ResponseEntity<ProblemDetail> rejectRequest(ControlRejectedByRequest ex) {
		return ApiProblems.of(HttpStatus.BAD_REQUEST, "$." + ex.field, String.valueOf(ex.getMessage()));
	}

	@ExceptionHandler(ControlRejected.class)
	ResponseEntity<ProblemDetail> reject(ControlRejected ex) {
		return ApiProblems.of(ex.unknownRun() ? HttpStatus.NOT_FOUND : HttpStatus.BAD_REQUEST, "$." + ex.field(),
				String.valueOf(ex.getMessage()));
	}

	@ExceptionHandler(IllegalArgumentException.class)
	ResponseEntity<ProblemDetail> rejectPair(IllegalArgumentException ex) {
		return ApiProblems.of(HttpStatus.BAD_REQUEST, "$", String.valueOf(ex.getMessage()));
	}

}
