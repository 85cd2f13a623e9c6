package dev.parity.compare;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

import dev.parity.run.Cell;
import dev.parity.run.CommitSha;
import dev.parity.run.MetricDefinition;
import dev.parity.run.MetricValue;
import dev.parity.run.Params;
import dev.parity.run.Provenance;
import dev.parity.run.RequestCounts;
import dev.parity.run.Role;
import dev.parity.run.Run;
import dev.parity.run.RunDocument;
import dev.parity.run.RunId;
import dev.parity.run.Sample;
import dev.parity.run.TokenStats;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Test data: a small, pinned, warmed run with one default cell per {@code cell(..)} call,
 * changed only where a test says so, e.g.
 * {@code aRun().commit("…").flag("kv-cache-dtype", "fp8").cell(c -> c.ttft(0.9)).build()}.
 */
final class TestRuns {

	static final String COMMIT = "4f2a9c1e7b3d5a0f8c6e2d1b9a7f5e3c1d0b8a6f";

	static final String OTHER_COMMIT = "d81e07c4a95b3f26e1c0b7a48d3f9e25c6a1b0d7";

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private TestRuns() {
	}

	static RunBuilder aRun() {
		return new RunBuilder();
	}

	/** The defaults with some settings changed: {@code settings("band", "0.05")}. */
	static CompareSettings settings(String... namesAndValues) {
		Map<String, String> query = new LinkedHashMap<>();
		for (int i = 0; i < namesAndValues.length; i += 2) {
			query.put(namesAndValues[i], namesAndValues[i + 1]);
		}
		return CompareSettings.defaults().withOverrides(query);
	}

	/** What a run check sees of this run under these settings. */
	static RunContext context(RunDocument run, CompareSettings settings) {
		return new RunContext(run, settings, MetricScope.of(run));
	}

	/** A run rule's flags for every cell of the run, in cell order. */
	static List<Flag> check(CellRule rule, RunBuilder run, CompareSettings settings) {
		RunDocument document = run.document();
		RunContext context = context(document, settings);
		return document.cells().stream().flatMap(cell -> rule.check(cell, context).stream()).toList();
	}

	/** What a comparison check sees under these settings. */
	static ComparisonContext comparisonContext(CompareSettings settings, RunBuilder... runs) {
		return new ComparisonContext(settings,
				MetricScope.of(Arrays.stream(runs).map(RunBuilder::document).toArray(RunDocument[]::new)));
	}

	/** A provenance rule's flags for two runs. */
	static List<Flag> check(ProvenanceRule rule, RunBuilder baseline, RunBuilder contender, CompareSettings settings) {
		List<ProvenanceDifference> differences = ProvenanceDiff.between(baseline.document().provenance(),
				contender.document().provenance(), settings);
		return rule.check(differences, comparisonContext(settings, baseline, contender));
	}

	/** A cell-pair rule's flags for the first cells of two runs. */
	static List<Flag> check(CellPairRule rule, RunBuilder baseline, RunBuilder contender, CompareSettings settings) {
		return rule.check(baseline.document().cells().get(0), contender.document().cells().get(0),
				comparisonContext(settings, baseline, contender));
	}

	/** A comparison of two runs. */
	static Comparison compare(RunBuilder baseline, RunBuilder contender, CompareSettings settings) {
		return new ComparisonBuilder().compare(baseline.build(), contender.build(), settings);
	}

	static final class RunBuilder {

		private String system = "2x DGX Spark";

		private @Nullable String hardware = "2 nodes";

		private String repo = "example-org/moe-284b";

		private @Nullable String revision = "main";

		private @Nullable String commit = COMMIT;

		private String engine = "vllm";

		private @Nullable String engineVersion = "0.11.2";

		private final Map<String, String> flags = new LinkedHashMap<>();

		private final List<String> warnings = new ArrayList<>();

		private Provenance.@Nullable Environment environment;

		private String harness = "reference-harness";

		private @Nullable String harnessVersion = "1.4.2";

		private @Nullable String dataset = "random";

		private @Nullable Integer outputTokens = 512;

		private @Nullable String reasoning;

		private @Nullable JsonNode requestParams;

		private @Nullable Integer warmup = 32;

		private Role role = Role.MEASURED;

		private final List<MetricDefinition> definitions = new ArrayList<>();

		private final List<Cell> cells = new ArrayList<>();

		RunBuilder role(Role role) {
			this.role = role;
			return this;
		}

		RunBuilder system(String name) {
			this.system = name;
			return this;
		}

		RunBuilder hardware(@Nullable String hardware) {
			this.hardware = hardware;
			return this;
		}

		RunBuilder revision(@Nullable String revision) {
			this.revision = revision;
			return this;
		}

		RunBuilder commit(@Nullable String commit) {
			this.commit = commit;
			return this;
		}

		RunBuilder unpinned() {
			return commit(null);
		}

		RunBuilder engine(String name) {
			this.engine = name;
			return this;
		}

		RunBuilder engineVersion(@Nullable String version) {
			this.engineVersion = version;
			return this;
		}

		RunBuilder flag(String name, String value) {
			flags.put(name, value);
			return this;
		}

		RunBuilder warning(String warning) {
			warnings.add(warning);
			return this;
		}

		RunBuilder harness(String name) {
			this.harness = name;
			return this;
		}

		RunBuilder harnessVersion(@Nullable String version) {
			this.harnessVersion = version;
			return this;
		}

		RunBuilder dataset(@Nullable String dataset) {
			this.dataset = dataset;
			return this;
		}

		RunBuilder declaredOutputTokens(@Nullable Integer tokens) {
			this.outputTokens = tokens;
			return this;
		}

		RunBuilder reasoning(@Nullable String reasoning) {
			this.reasoning = reasoning;
			return this;
		}

		RunBuilder requestParams(String json) {
			this.requestParams = MAPPER.readTree(json);
			return this;
		}

		RunBuilder warmup(@Nullable Integer requests) {
			this.warmup = requests;
			return this;
		}

		RunBuilder metricDefinition(String name, String unit, boolean higherIsBetter, boolean outputSensitive) {
			definitions.add(new MetricDefinition(name, unit, higherIsBetter, outputSensitive));
			return this;
		}

		/**
		 * A cell: 4 requests completed, 512 output tokens each, no metric, changed by
		 * {@code change}.
		 */
		/** The environment the run ran on. */
		RunBuilder environment(Provenance.@Nullable Environment environment) {
			this.environment = environment;
			return this;
		}

		RunBuilder cell(Consumer<CellBuilder> change) {
			CellBuilder cell = new CellBuilder();
			change.accept(cell);
			cells.add(cell.build());
			return this;
		}

		RunDocument document() {
			Provenance provenance = new Provenance(null, new Provenance.SystemUnderTest(system, hardware, 2),
					new Provenance.Model(repo, revision, commit == null ? null : CommitSha.of(commit)),
					new Provenance.Engine(engine, engineVersion, flags, warnings),
					new Provenance.Harness(harness, harnessVersion, null, null),
					new Provenance.Workload(dataset, outputTokens, reasoning, requestParams, warmup), definitions,
					List.of(), null, environment);
			return new RunDocument("test run", role, null, provenance, cells);
		}

		Run build() {
			return new Run(RunId.random(), document(), "fp", Instant.now(), "test", List.of());
		}

		/**
		 * The run with this id (10 characters from [a-z0-9]), e.g. to seed its resampling
		 * the same every time.
		 */
		Run build(String id) {
			return new Run(new RunId(id), document(), "fp", Instant.now(), "test", List.of());
		}

	}

	static final class CellBuilder {

		private final Map<String, Object> params = new TreeMap<>(Map.of("prompt_tokens", 1024, "concurrency", 1));

		private @Nullable Integer order;

		private RequestCounts requests = new RequestCounts(4, 0, 0);

		private @Nullable TokenStats outputTokens = new TokenStats(512.0, 512.0, 515.0, null);

		private final Map<String, MetricValue> metrics = new LinkedHashMap<>();

		private final List<SampleBuilder> samples = new ArrayList<>();

		/**
		 * Replaces the params: {@code params("prompt_tokens", 280, "concurrency", 4)}.
		 */
		CellBuilder params(Object... namesAndValues) {
			params.clear();
			for (int i = 0; i < namesAndValues.length; i += 2) {
				params.put((String) namesAndValues[i], namesAndValues[i + 1]);
			}
			return this;
		}

		CellBuilder order(@Nullable Integer order) {
			this.order = order;
			return this;
		}

		CellBuilder requests(@Nullable Integer completed, @Nullable Integer failed, @Nullable Integer cancelled) {
			this.requests = new RequestCounts(completed, failed, cancelled);
			return this;
		}

		/** Measured output tokens per request: the median only. */
		CellBuilder outputTokens(double median) {
			this.outputTokens = new TokenStats(median, null, null, null);
			return this;
		}

		CellBuilder outputTokens(double median, double min, double max) {
			this.outputTokens = new TokenStats(median, min, max, null);
			return this;
		}

		CellBuilder noOutputTokens() {
			this.outputTokens = null;
			return this;
		}

		CellBuilder metric(String name, double value) {
			metrics.put(name, MetricValue.of(value));
			return this;
		}

		/**
		 * A statistics object:
		 * {@code metric("ttft_s", Map.of("median", 0.045, "mean", 0.217))}.
		 */
		CellBuilder metric(String name, Map<String, Double> statistics) {
			metrics.put(name, new MetricValue(statistics, false));
			return this;
		}

		CellBuilder ttft(double seconds) {
			return metric("ttft_s", seconds);
		}

		CellBuilder prefill(double tokensPerSecond) {
			return metric("prefill_tps", tokensPerSecond);
		}

		CellBuilder decode(double tokensPerSecond) {
			return metric("decode_tps", tokensPerSecond);
		}

		CellBuilder throughput(double tokensPerSecond) {
			return metric("throughput_tps", tokensPerSecond);
		}

		/** Completed samples with these output tokens, in completion order. */
		CellBuilder sampleOutputTokens(double... tokens) {
			for (int i = 0; i < tokens.length; i++) {
				sample(i).outputTokens = tokens[i];
			}
			return this;
		}

		/** Completed samples with these values of one metric, in completion order. */
		CellBuilder sampleValues(String metric, double... values) {
			for (int i = 0; i < values.length; i++) {
				sample(i).metrics.put(metric, values[i]);
			}
			return this;
		}

		/** Marks a sample (0-based) with a status other than ok. */
		CellBuilder sampleStatus(int index, String status) {
			sample(index).status = status;
			return this;
		}

		private SampleBuilder sample(int index) {
			while (samples.size() <= index) {
				samples.add(new SampleBuilder());
			}
			return samples.get(index);
		}

		Cell build() {
			return new Cell(Params.of(params), order, requests, outputTokens, null, metrics,
					samples.stream().map(SampleBuilder::build).toList());
		}

	}

	private static final class SampleBuilder {

		private String status = "ok";

		private @Nullable Double outputTokens;

		private final Map<String, Double> metrics = new LinkedHashMap<>();

		Sample build() {
			return new Sample(status, outputTokens, null, metrics);
		}

	}

}
