package dev.parity.run;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Where a run's numbers come from: the system, the checkpoint, the engine, the harness
 * and the declared workload.
 *
 * @param source where published numbers come from (references)
 * @param system the system under test
 * @param model the model repository, requested revision and resolved commit
 * @param engine the serving engine with its flags and the warnings it printed
 * @param harness the benchmark harness
 * @param workload the declared workload (intent, not measurement)
 * @param metricDefinitions metrics beyond the catalogue
 * @param caveats caveats the uploader disclosed
 * @param context where the run came from in a team's stream of runs; {@code null} when
 * not given
 * @param environment what the run ran on beyond the system's name; {@code null} when not
 * given
 */
public record Provenance(@Nullable Source source, SystemUnderTest system, Model model, Engine engine, Harness harness,
		Workload workload, List<MetricDefinition> metricDefinitions, List<String> caveats, @Nullable Context context,
		@Nullable Environment environment) {

	/**
	 * A provenance without context or environment (documents from before those fields).
	 */
	public Provenance(@Nullable Source source, SystemUnderTest system, Model model, Engine engine, Harness harness,
			Workload workload, List<MetricDefinition> metricDefinitions, List<String> caveats) {
		this(source, system, model, engine, harness, workload, metricDefinitions, caveats, null, null);
	}

	/** Where published numbers come from. */
	public record Source(@Nullable String url, @Nullable String revision, @Nullable String note) {
	}

	/** The system under test. */
	public record SystemUnderTest(String name, @Nullable String hardware, @Nullable Integer nodes) {
	}

	/**
	 * The checkpoint: what was asked for ({@code revision}) and what it resolved to
	 * ({@code commit}). Without a commit the run is unpinned: "main" moves.
	 */
	public record Model(String repo, @Nullable String revision, @Nullable CommitSha commit) {

		public boolean pinned() {
			return commit != null;
		}
	}

	/**
	 * The serving engine. Flags are kept as written; compare them with
	 * {@link #normaliseFlag}. The commit is the code under test (the engine's, or the
	 * team's serving code): what varies along a series.
	 */
	public record Engine(String name, @Nullable String version, Map<String, String> flags, List<String> warnings,
			@Nullable CommitSha commit) {

		/** An engine whose commit is not recorded. */
		public Engine(String name, @Nullable String version, Map<String, String> flags, List<String> warnings) {
			this(name, version, flags, warnings, null);
		}

		/**
		 * Flag names compare without leading dashes, case-insensitively, with - and _
		 * equal.
		 */
		public static String normaliseFlag(String name) {
			int start = 0;
			while (start < name.length() && name.charAt(start) == '-') {
				start++; // the leading dashes, without compiling an expression for every
							// flag of every comparison
			}
			return name.substring(start).toLowerCase(Locale.ROOT).replace('_', '-');
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

	/**
	 * Where a run came from in a stream of runs.
	 *
	 * @param branch the branch the engine commit came from; {@code null} = the default
	 * line
	 * @param pullRequest a pull-request number or URL, as written
	 * @param ciUrl the CI job that produced the run
	 * @param labels free-form tags
	 */
	public record Context(@Nullable String branch, @Nullable String pullRequest, @Nullable String ciUrl,
			Map<String, String> labels) {
	}

	/**
	 * What the run ran on. A different gpu, gpu count, driver, cuda (major.minor) or
	 * container digest makes two runs incomparable; the rest is shown side by side.
	 */
	public record Environment(@Nullable String gpu, @Nullable Integer gpuCount, @Nullable String driver,
			@Nullable String cuda, @Nullable String containerImage, @Nullable String containerDigest,
			@Nullable String os, @Nullable String kernel, Map<String, String> pythonPackages,
			Map<String, String> other) {
	}

	/** The branch this run belongs to, or {@code null} for the default line. */
	public @Nullable String branch() {
		return context == null ? null : context.branch();
	}

	public MetricCatalogue catalogue() {
		return MetricCatalogue.of(metricDefinitions);
	}

}
