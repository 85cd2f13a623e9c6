package dev.parity.caveat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import dev.parity.compare.ControlChange;
import dev.parity.compare.ControlCheck;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A hypothesis's deciding experiment as a structured plan: the same changes as a
 * comparison's control plan ({@code {"changes": [{"rule", "field", "from", "to", "how",
 * "check"}]}}), checked field by field; a plan written wrong is refused with the path of
 * what is wrong ({@code deciding_plan.changes[1].field}).
 */
public final class DecidingPlan {

	/** At most this many changes. */
	static final int MAX_CHANGES = 50;

	private static final Set<String> CHANGE_FIELDS = Set.of("rule", "field", "from", "to", "how", "check");

	private static final Set<String> CHECK_FIELDS = Set.of("measure", "target", "tolerance");

	/**
	 * A path of the run document: {@code model.commit},
	 * {@code engine.flags.kv-cache-dtype}, {@code cells[].output_tokens}.
	 */
	private static final Pattern FIELD = Pattern.compile("(cells\\[\\]\\.)?[a-z_]+(\\.[A-Za-z0-9_.\\-]+)*");

	private static final Pattern RULE = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");

	private static final String PATH = "deciding_plan";

	private DecidingPlan() {
	}

	/**
	 * The changes of a plan written as {@code {"changes": [...]}}.
	 * @throws CaveatRejected naming the path of the first thing written wrong
	 */
	public static List<ControlChange> parse(JsonNode plan, JsonMapper json) {
		if (!plan.isObject()) {
			throw rejected(PATH,
					"must be an object {\"changes\": [{\"rule\", \"field\", \"from\", \"to\", \"how\", \"check\"}]}");
		}
		for (String name : plan.propertyNames()) {
			if (!name.equals("changes")) {
				throw rejected(PATH + "." + name, "is not a field of a plan (it has \"changes\" only)");
			}
		}
		JsonNode changes = plan.get("changes");
		if (changes == null || !changes.isArray() || changes.isEmpty()) {
			throw rejected(PATH + ".changes", "must list at least one change");
		}
		if (changes.size() > MAX_CHANGES) {
			throw rejected(PATH + ".changes", "lists " + changes.size() + " changes; at most " + MAX_CHANGES);
		}
		List<ControlChange> parsed = new ArrayList<>();
		Set<String> fields = new HashSet<>();
		for (int i = 0; i < changes.size(); i++) {
			String at = PATH + ".changes[" + i + "]";
			ControlChange change = change(changes.get(i), at, json);
			if (!fields.add(change.field())) {
				throw rejected(at + ".field", "'" + change.field() + "' is changed twice: one change per field");
			}
			parsed.add(change);
		}
		return parsed;
	}

	/**
	 * The changes of a plan written in a form's text box; none when it is blank.
	 * @throws CaveatRejected when it is not JSON, or naming the path of the first thing
	 * written wrong
	 */
	public static List<ControlChange> parse(@Nullable String text, JsonMapper json) {
		if (text == null || text.isBlank()) {
			return List.of();
		}
		JsonNode plan;
		try {
			plan = json.readTree(text);
		}
		catch (JacksonException ex) {
			throw rejected(PATH, "is not JSON: " + ex.getOriginalMessage());
		}
		return parse(plan, json);
	}

	/**
	 * The plan in words, for where a hypothesis's experiment is shown as text: "make the
	 * run again with …".
	 */
	public static String summary(List<ControlChange> changes) {
		StringBuilder text = new StringBuilder("Make the run again with ");
		for (int i = 0; i < changes.size(); i++) {
			ControlChange change = changes.get(i);
			text.append(i == 0 ? "" : "; ").append(change.field()).append(" → ").append(String.valueOf(change.to()));
		}
		return text.toString();
	}

	private static ControlChange change(JsonNode node, String at, JsonMapper json) {
		if (!node.isObject()) {
			throw rejected(at, "must be an object {\"rule\", \"field\", \"from\", \"to\", \"how\", \"check\"}");
		}
		for (String name : node.propertyNames()) {
			if (!CHANGE_FIELDS.contains(name)) {
				throw rejected(at + "." + name, "is not a field of a change ("
						+ String.join(", ", List.of("rule", "field", "from", "to", "how", "check")) + ")");
			}
		}
		String rule = text(node, at, "rule");
		if (!RULE.matcher(rule).matches()) {
			throw rejected(at + ".rule",
					"'" + rule + "' is not a rule's id (lower case words joined by '-', e.g. checkpoint-differs)");
		}
		String field = text(node, at, "field");
		if (!FIELD.matcher(field).matches()) {
			throw rejected(at + ".field", "'" + field + "' is not a path of the run document (e.g. model.commit, "
					+ "engine.flags.kv-cache-dtype, workload.request_params, cells[].output_tokens)");
		}
		if (!node.has("to")) {
			throw rejected(at + ".to", "is missing: the value the experiment must have (null for unset)");
		}
		String how = text(node, at, "how");
		ControlCheck check = null;
		JsonNode checkNode = node.get("check");
		if (checkNode != null && !checkNode.isNull()) {
			check = check(checkNode, at + ".check");
		}
		return new ControlChange(rule, field, value(node.get("from"), json), value(node.get("to"), json), how, check);
	}

	private static ControlCheck check(JsonNode node, String at) {
		if (!node.isObject()) {
			throw rejected(at, "must be an object {\"measure\", \"target\", \"tolerance\"}");
		}
		for (String name : node.propertyNames()) {
			if (!CHECK_FIELDS.contains(name)) {
				throw rejected(at + "." + name, "is not a field of a check (measure, target, tolerance)");
			}
		}
		String measure = text(node, at, "measure");
		JsonNode target = node.get("target");
		if (target == null || !target.isNumber() || !(target.asDouble() > 0) || Double.isInfinite(target.asDouble())) {
			throw rejected(at + ".target", "must be a number above 0");
		}
		JsonNode tolerance = node.get("tolerance");
		if (tolerance == null || !tolerance.isNumber() || !(tolerance.asDouble() > 0) || tolerance.asDouble() > 1) {
			throw rejected(at + ".tolerance", "must be a fraction of the target above 0 and at most 1 (0.1 = ±10 %)");
		}
		return new ControlCheck(measure, target.asDouble(), tolerance.asDouble());
	}

	private static String text(JsonNode node, String at, String name) {
		JsonNode value = node.get(name);
		if (value == null || !value.isString() || value.asString().isBlank()) {
			throw rejected(at + "." + name, "must be a non-empty string");
		}
		String text = value.asString().strip();
		if (text.length() > Caveats.MAX_TEXT || text.indexOf('\u0000') >= 0) {
			throw rejected(at + "." + name,
					"is longer than " + Caveats.MAX_TEXT + " characters or holds a NUL character");
		}
		return text;
	}

	private static @Nullable Object value(@Nullable JsonNode node, JsonMapper json) {
		return node == null || node.isNull() ? null : json.treeToValue(node, Object.class);
	}

	private static CaveatRejected rejected(String path, String message) {
		return new CaveatRejected(path + ": " + message, path);
	}

}
