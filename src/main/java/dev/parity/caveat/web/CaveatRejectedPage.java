package dev.parity.caveat.web;

import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import dev.parity.caveat.CaveatRejected;

import org.springframework.ui.Model;

/**
 * A caveat the record refused: 400, the reason, and the form again with what the writer
 * typed, so nothing is lost.
 */
public final class CaveatRejectedPage {

	private CaveatRejectedPage() {
	}

	public static String show(Model model, HttpServletResponse response, CaveatRejected rejected, String action,
			String back, String text, @Nullable String cell, @Nullable String metric,
			@Nullable String decidingExperiment, @Nullable String decidingPlan, String query, boolean withMetric) {
		response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
		model.addAttribute("pageTitle", "Caveat not added");
		model.addAttribute("problem", rejected.getReason());
		model.addAttribute("action", action);
		model.addAttribute("back", back);
		model.addAttribute("text", text);
		model.addAttribute("cell", cell);
		model.addAttribute("metric", metric);
		model.addAttribute("decidingExperiment", decidingExperiment);
		model.addAttribute("decidingPlan", decidingPlan);
		model.addAttribute("query", query);
		model.addAttribute("withMetric", withMetric);
		return "caveat-rejected";
	}

}
