package dev.parity.run;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Where a run's numbers come from: the system, the checkpoint, the engine, the harness and the declared workload.
 *
 * @param source where published numbers come from (references)
 * @param system the system under test
 * @param model the model repository, requested revision and resolved commit
 * @param engine the serving engine with its flags and the warnings it printed
 * @param harness the benchmark harness
 * @param workload the declared workload (intent, not measurement)
 * @param metricDefinitions metrics beyond the catalogue
 * @param caveats caveats the uploader disclosed
 */
public record Provenance(@Nullable Source source, SystemUnderTest system, Model model, Engine engine, Harness harness,
		Workload workload, List<MetricDefinition> metricDefinitions, List<String> caveats) {

	/** Where published numbers come from. */
	public record Source(@Nullable String url, @Nullable String revision, @Nullable String note) {
	}

	/** The system under test. */
	public record SystemUnderTest(String name, @Nullable String hardware, @Nullable Integer nodes) {
	}

	/**
	 * The checkpoint: what was asked for ({@code revision}) and what it resolved to ({@code commit}).
	 * Without a commit the run is unpinned: "main" moves.
	 */
	public record Model(String repo, @Nullable String revision, @Nullable CommitSha commit) {

		public boolean pinned() {
			return commit != null;
		}
	}

	/** The serving engine. Flags are kept as written; compare them with {@link #normaliseFlag}. */
	public record Engine(String name, @Nullable String version, Map<String, String> flags, List<String> warnings) {

		/** Flag names compare without leading dashes, case-insensitively, with - and _ equal. */
		public static String normaliseFlag(String name) {
			return name.replaceFirst("^-+", "").toLowerCase(java.util.Locale.ROOT).replace('_', '-');
		}
	}

	/** The benchmark harness. */
	public record Harness(String name, @Nullable String version, @Nullable String command,
			@Nullable String tokenCounting) {
	}

	/**
	 * The declared workload: what the run intended to do.
	 *
	 * @param dataset the dataset
	 * @param outputTokens intended output tokens per request
	 * @param reasoning the declared reasoning mode, free text
	 * @param requestParams extra request parameters, any JSON object
	 * @param warmupRequests warm-up requests before measuring; {@code null} = unknown
	 */
	public record Workload(@Nullable String dataset, @Nullable Integer outputTokens, @Nullable String reasoning,
			@Nullable JsonNode requestParams, @Nullable Integer warmupRequests) {
	}

	public MetricCatalogue catalogue() {
		return MetricCatalogue.of(metricDefinitions);
	}

}
