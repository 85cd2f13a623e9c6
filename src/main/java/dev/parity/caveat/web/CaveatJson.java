package dev.parity.caveat.web;

import java.util.List;

import dev.parity.caveat.Caveat;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Caveats and hypotheses in the API: what they say, what they are about, and a
 * hypothesis's status history.
 */
public final class CaveatJson {

	private CaveatJson() {
	}

	public static ArrayNode list(List<Caveat> caveats, JsonMapper json) {
		ArrayNode array = json.createArrayNode();
		for (Caveat caveat : caveats) {
			ObjectNode node = array.addObject();
			node.put("id", caveat.id());
			node.put("kind", caveat.hypothesis() ? "hypothesis" : "caveat");
			node.put("text", caveat.text());
			ObjectNode target = node.putObject("target");
			target.put("run", caveat.target().runId());
			target.put("baseline", caveat.target().baselineId());
			target.put("contender", caveat.target().contenderId());
			target.put("cell", caveat.target().cellAnchor());
			target.put("metric", caveat.target().metric());
			node.put("created_at", caveat.createdAt().toString());
			node.put("created_by", caveat.createdBy());
			if (caveat.hypothesis()) {
				node.put("status", caveat.status());
				node.put("deciding_experiment", caveat.decidingExperiment());
				if (caveat.decidingPlan().isEmpty()) {
					node.putNull("deciding_plan");
				}
				else {
					node.putObject("deciding_plan").set("changes", json.valueToTree(caveat.decidingPlan()));
				}
				caveat.experiments().forEach(node.putArray("experiments")::add);
				ArrayNode history = node.putArray("history");
				for (Caveat.StatusChange change : caveat.history()) {
					ObjectNode entry = history.addObject();
					entry.put("status", change.status());
					entry.put("reason", change.reason());
					entry.put("decided_by", change.decidedBy());
					entry.put("experiment", change.experiment());
					entry.put("at", change.at().toString());
					entry.put("by", change.by());
				}
			}
		}
		return array;
	}

}
