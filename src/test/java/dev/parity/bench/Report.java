package dev.parity.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The benchmark's figures: each row a measurement, the limit or target it is held
 * against, their ratio and whether the target is met; written as {@code results.json} and
 * {@code results.md}.
 */
final class Report {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final ObjectNode root = JSON.createObjectNode();

	private final ArrayNode rows = root.putArray("targets");

	private final ObjectNode details = root.putObject("details");

	private final List<String> table = new ArrayList<>();

	private final List<String> notes = new ArrayList<>();

	Report() {
		root.put("machine",
				Runtime.getRuntime().availableProcessors() + " cores, Java " + System.getProperty("java.version"));
		root.put("started_at", Instant.now().toString());
	}

	ObjectNode details() {
		return details;
	}

	/**
	 * A measurement against a limit measured in the same run: met when measured ≤
	 * maxRatio × limit (or, for a throughput, measured ≥ minRatio × limit).
	 */
	void ratio(String section, String what, double measured, String unit, String limitName, double limit,
			String targetText, boolean higherIsBetter, double bound) {
		double ratio = measured / limit;
		boolean met = higherIsBetter ? ratio >= bound : ratio <= bound;
		add(section, what, measured, unit, limitName + " " + fmt(limit) + " " + unit, ratio, targetText, met);
	}

	/** A measurement against an absolute target. */
	void absolute(String section, String what, double measured, String unit, double target, boolean atMost) {
		boolean met = atMost ? measured <= target : measured >= target;
		add(section, what, measured, unit, (atMost ? "≤ " : "≥ ") + fmt(target) + " " + unit, measured / target,
				(atMost ? "≤ " : "≥ ") + fmt(target) + " " + unit, met);
	}

	/** A yes/no outcome. */
	void check(String section, String what, String measured, String target, boolean met) {
		ObjectNode row = rows.addObject();
		row.put("section", section);
		row.put("what", what);
		row.put("measured", measured);
		row.put("target", target);
		row.put("met", met);
		table.add("| " + section + " | " + what + " | " + measured + " | " + target + " | – | "
				+ (met ? "met" : "**missed**") + " |");
	}

	private void add(String section, String what, double measured, String unit, String against, double ratio,
			String target, boolean met) {
		ObjectNode row = rows.addObject();
		row.put("section", section);
		row.put("what", what);
		row.put("measured", measured);
		row.put("unit", unit);
		row.put("against", against);
		row.put("ratio", ratio);
		row.put("target", target);
		row.put("met", met);
		table.add("| " + section + " | " + what + " | " + fmt(measured) + " " + unit + " | " + against + " | "
				+ String.format(Locale.ROOT, "%.2f", ratio) + " (target " + target + ") | "
				+ (met ? "met" : "**missed**") + " |");
	}

	void note(String text) {
		notes.add(text);
		(root.has("notes") ? (ArrayNode) root.get("notes") : root.putArray("notes")).add(text);
	}

	String markdown() {
		StringBuilder out = new StringBuilder("# Parity benchmark\n\n");
		out.append(root.get("machine").asString())
			.append(", started ")
			.append(root.get("started_at").asString())
			.append(". Ratios are taken within this one run, side by side.\n\n");
		out.append("| section | measured | value | against | ratio (target) | target |\n|---|---|---|---|---|---|\n");
		table.forEach(line -> out.append(line).append('\n'));
		if (details.has("load_average")) {
			out.append("\nMachine load (/proc/loadavg) as each section began: ");
			details.get("load_average").forEach(load -> out.append(load.asString()).append("; "));
			out.append("\n");
		}
		if (!notes.isEmpty()) {
			out.append("\n");
			notes.forEach(note -> out.append("- ").append(note).append('\n'));
		}
		return out.toString();
	}

	void write(Path directory) {
		try {
			Files.createDirectories(directory);
			Files.writeString(directory.resolve("results.json"),
					JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root));
			Files.writeString(directory.resolve("results.md"), markdown());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static String fmt(double value) {
		if (Math.abs(value) >= 100) {
			return String.format(Locale.ROOT, "%,.0f", value);
		}
		return String.format(Locale.ROOT, "%.1f", value);
	}

}
