package dev.parity.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.parity.run.Cell;
import dev.parity.run.Params;
import dev.parity.run.Provenance;
import dev.parity.run.Run;
import org.jspecify.annotations.Nullable;

/**
 * How to run a run again, as far as its document says: the serve command rebuilt from the
 * engine's name, the model (pinned to the resolved commit when there is one) and the
 * engine flags as recorded; the harness command exactly as recorded; and, as comments,
 * what neither command carries — engine version, container, workload, grid. Nothing is
 * guessed: an engine Parity knows no command for, or a harness command not recorded, is
 * said so.
 *
 * @param serve the serve command, with comment lines before it; {@code null} for an
 * engine Parity knows no command for
 * @param bench the harness command as recorded, with the harness, the workload and the
 * grid as comment lines before it; without a recorded command, those comment lines alone
 * @param benchRecorded whether the run records its harness command
 * @param missing what could not be rebuilt and why, one sentence each
 */
public record RerunCommands(@Nullable String serve, String bench, boolean benchRecorded, List<String> missing) {

	private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./:=,@%+-]+");

	public RerunCommands {
		missing = List.copyOf(missing);
	}

	public static RerunCommands of(Run run) {
		return of(run.provenance(), run.cells());
	}

	/**
	 * The commands of a run whose provenance is this one, e.g. a run's with a control
	 * plan's changes applied.
	 */
	public static RerunCommands of(Provenance provenance, List<Cell> cells) {
		List<String> missing = new ArrayList<>();
		String serve = serve(provenance, missing);
		String bench = bench(provenance, cells, missing);
		String command = provenance.harness().command();
		return new RerunCommands(serve, bench, command != null && !command.isBlank(), missing);
	}

	private static @Nullable String serve(Provenance provenance, List<String> missing) {
		Provenance.Engine engine = provenance.engine();
		Provenance.Model model = provenance.model();
		String name = engine.name().toLowerCase(Locale.ROOT);
		String pin = model.commit() != null ? model.commit().value() : model.revision();
		List<String> words = new ArrayList<>();
		if (name.contains("vllm")) {
			words.add("vllm serve " + quote(model.repo()));
			if (pin != null) {
				words.add("--revision " + quote(pin));
			}
		}
		else if (name.contains("sglang")) {
			words.add("python -m sglang.launch_server --model-path " + quote(model.repo()));
			if (pin != null) {
				words.add("--revision " + quote(pin));
			}
		}
		else {
			String flags = flags(engine.flags()).stream().collect(Collectors.joining(" "));
			missing.add("Parity knows no serve command for the engine “" + engine.name() + "”; its recorded flags: "
					+ (flags.isEmpty() ? "none" : flags) + ".");
			return null;
		}
		words.addAll(flags(engine.flags()));
		List<String> lines = new ArrayList<>();
		lines.add("# " + engine.name() + (engine.version() == null ? " (version not recorded)" : " " + engine.version())
				+ (engine.commit() == null ? "" : ", engine commit " + engine.commit().value()));
		if (model.commit() == null) {
			lines.add("# the model is not pinned: \"" + (pin == null ? "the default revision" : pin)
					+ "\" may resolve to other weights now");
		}
		Provenance.Environment environment = provenance.environment();
		if (environment != null && environment.containerImage() != null) {
			lines.add("# container: " + environment.containerImage()
					+ (environment.containerDigest() == null ? "" : "@" + environment.containerDigest()));
		}
		lines.add(String.join(" \\\n    ", words));
		return String.join("\n", lines);
	}

	private static String bench(Provenance provenance, List<Cell> cells, List<String> missing) {
		Provenance.Harness harness = provenance.harness();
		if (harness.command() == null || harness.command().isBlank()) {
			missing.add("The run does not record its harness command (" + harness.name()
					+ "): the workload and the grid below say what it measured.");
		}
		List<String> lines = new ArrayList<>();
		lines.add("# " + harness.name() + (harness.version() == null ? "" : " " + harness.version()));
		Provenance.Workload workload = provenance.workload();
		List<String> declared = new ArrayList<>();
		if (workload.dataset() != null) {
			declared.add("dataset " + workload.dataset());
		}
		if (workload.outputTokens() != null) {
			declared.add(workload.outputTokens() + " output tokens per request");
		}
		if (workload.reasoning() != null) {
			declared.add("reasoning " + workload.reasoning());
		}
		if (workload.requestParams() != null && !workload.requestParams().isEmpty()) {
			declared.add("request params " + workload.requestParams());
		}
		if (workload.warmupRequests() != null) {
			declared.add(workload.warmupRequests() + " warm-up requests");
		}
		if (!declared.isEmpty()) {
			lines.add("# workload: " + String.join(", ", declared));
		}
		String grid = grid(cells);
		if (!grid.isEmpty()) {
			lines.add("# grid: " + grid);
		}
		if (harness.command() != null && !harness.command().isBlank()) {
			lines.add(harness.command().strip());
		}
		return String.join("\n", lines);
	}

	/**
	 * Each grid coordinate with its values in the cells' order: "prompt_tokens 280, 8192;
	 * concurrency 1, 2".
	 */
	private static String grid(List<Cell> cells) {
		Map<String, Set<String>> values = new LinkedHashMap<>();
		for (Cell cell : cells) {
			cell.params()
				.values()
				.forEach((name, value) -> values.computeIfAbsent(name, k -> new LinkedHashSet<>())
					.add(Params.format(value)));
		}
		return values.entrySet()
			.stream()
			.map(e -> e.getKey() + " " + String.join(", ", e.getValue()))
			.collect(Collectors.joining("; "));
	}

	/**
	 * {@code --name value} per flag as recorded; {@code true} or an empty value is a bare
	 * switch.
	 */
	private static List<String> flags(Map<String, String> flags) {
		List<String> words = new ArrayList<>();
		flags.forEach((name, value) -> {
			String flag = "--" + name.replaceFirst("^-+", "");
			words.add(value == null || value.isEmpty() || value.equalsIgnoreCase("true") ? quote(flag)
					: quote(flag) + " " + quote(value));
		});
		return words;
	}

	/** A word as a POSIX shell reads it back: single-quoted unless it is plain. */
	public static String quote(String word) {
		if (PLAIN.matcher(word).matches()) {
			return word;
		}
		return "'" + word.replace("'", "'\\''") + "'";
	}

}
