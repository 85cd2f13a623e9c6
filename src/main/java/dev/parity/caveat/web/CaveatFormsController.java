package dev.parity.caveat.web;

import java.security.Principal;

import dev.parity.caveat.Caveat;
import dev.parity.caveat.CaveatRejected;
import dev.parity.caveat.Caveats;
import dev.parity.caveat.DecidingPlan;
import dev.parity.web.RequestChecks;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The caveat forms of the pages: a caveat on a run or one of its cells, the run that
 * decides a hypothesis, a hypothesis' new status. A rejected caveat shows its form again
 * with the problems; each answer goes back to the page the form was on. (A caveat on a
 * comparison is written on the comparison's page, whose controller keeps it with the
 * comparison's settings.)
 */
@Controller
class CaveatFormsController {

	private final Caveats caveats;

	private final JsonMapper json;

	CaveatFormsController(Caveats caveats, JsonMapper json) {
		this.caveats = caveats;
		this.json = json;
	}

	@PostMapping("/runs/{id}/caveats")
	String addRunCaveat(@PathVariable String id, @RequestParam String text,
			@RequestParam(required = false) @Nullable String cell,
			@RequestParam(name = "deciding_experiment", required = false) @Nullable String decidingExperiment,
			@RequestParam(name = "deciding_plan", required = false) @Nullable String decidingPlan, Principal principal,
			Model model, HttpServletResponse response) {
		Caveat added;
		try {
			added = caveats.add(Caveat.Target.run(id, cell == null || cell.isBlank() ? null : cell.strip()), text,
					decidingExperiment, DecidingPlan.parse(decidingPlan, json), principal.getName());
		}
		catch (CaveatRejected rejected) {
			return CaveatRejectedPage.show(model, response, rejected, "/runs/" + id + "/caveats", "/runs/" + id, text,
					cell, null, decidingExperiment, decidingPlan, "", false);
		}
		return "redirect:/runs/" + id + "#caveat-" + added.id();
	}

	@PostMapping("/caveats/{id}/experiments")
	String declareExperiment(@PathVariable String id, @RequestParam(required = false) @Nullable String run,
			@RequestParam(defaultValue = "") String back, Principal principal) {
		caveats.declareExperiment(id, run, principal.getName());
		String target = back.startsWith("/") && !back.startsWith("//") ? RequestChecks.forRedirect("back", back) : "/";
		return "redirect:" + target + "#caveat-" + id;
	}

	@PostMapping("/caveats/{id}/status")
	String changeStatus(@PathVariable String id, @RequestParam String status, @RequestParam String reason,
			@RequestParam(name = "decided_by", required = false) @Nullable String decidedBy,
			@RequestParam(defaultValue = "") String back, Principal principal) {
		caveats.changeStatus(id, status, reason, decidedBy, principal.getName());
		String target = back.startsWith("/") && !back.startsWith("//") ? RequestChecks.forRedirect("back", back) : "/";
		return "redirect:" + target + "#caveat-" + id;
	}

}
