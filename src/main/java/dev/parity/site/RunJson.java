package dev.parity.site;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.parity.compare.GoodputView;
import dev.parity.compare.Pareto;
import dev.parity.run.Cell;
import dev.parity.run.MetricDefinition;
import dev.parity.run.MetricValue;
import dev.parity.run.Params;
import dev.parity.run.Provenance;
import dev.parity.run.RequestCounts;
import dev.parity.run.Run;
import dev.parity.run.RunSummary;
import dev.parity.run.Sample;
import dev.parity.run.TokenStats;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The JSON shape of runs in the API: the provenance and cells as in the run document,
 * plus id, links, upload facts and the flags computed for the run.
 */
final class RunJson {

	private RunJson() {
	}

	/**
	 * A page of the run list.
	 *
	 * @param total how many runs match
	 * @param page this page's number, from 0
	 * @param size the page's size
	 * @param runs the runs on this page, newest first
	 */
	@JsonPropertyOrder({ "total", "page", "size", "runs" })
	record RunList(long total, int page, int size, List<Listed> runs) {
	}

	/**
	 * A run in the list, marked when retracted or superseded.
	 *
	 * @param recordStatus {@code retracted} or {@code superseded}; {@code null} when
	 * neither
	 */
	@Schema(name = "ListedRun")
	@JsonInclude(JsonInclude.Include.ALWAYS)
	@JsonPropertyOrder({ "id", "url", "title", "role", "system", "model", "engine", "harness", "cells",
			"workload_fingerprint", "recorded_at", "uploaded_at", "uploaded_by", "retracted", "record_status" })
	record Listed(String id, String url, String title, String role, String system, ModelRef model, String engine,
			String harness, int cells, @JsonProperty("workload_fingerprint") String workloadFingerprint,
			@JsonProperty("recorded_at") @Nullable String recordedAt, @JsonProperty("uploaded_at") String uploadedAt,
			@JsonProperty("uploaded_by") String uploadedBy, boolean retracted,
			@JsonProperty("record_status") @Nullable String recordStatus) {
	}

	/** A run's model; {@code pinned} only on the run itself. */
	@Schema(name = "RunModel")
	@JsonPropertyOrder({ "repo", "revision", "commit", "pinned" })
	record ModelRef(@JsonInclude(JsonInclude.Include.ALWAYS) String repo,
			@JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String revision,
			@JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String commit,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Boolean pinned) {
	}

	/**
	 * A run: its provenance and cells as in the run document, with id, links, upload
	 * facts and the flags computed for it; {@code source}, {@code context} and
	 * {@code environment} only when the document has them.
	 */
	@Schema(name = "Run")
	@JsonInclude(JsonInclude.Include.ALWAYS)
	@JsonPropertyOrder({ "id", "url", "document_url", "title", "role", "recorded_at", "uploaded_at", "uploaded_by",
			"workload_fingerprint", "source", "system", "model", "engine", "harness", "workload", "metric_definitions",
			"caveats", "context", "environment", "files", "flags", "cells" })
	record RunView(String id, String url, @JsonProperty("document_url") String documentUrl, String title, String role,
			@JsonProperty("recorded_at") @Nullable String recordedAt, @JsonProperty("uploaded_at") String uploadedAt,
			@JsonProperty("uploaded_by") String uploadedBy,
			@JsonProperty("workload_fingerprint") String workloadFingerprint,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable SourceView source, SystemView system, ModelRef model,
			EngineView engine, HarnessView harness, WorkloadView workload,
			@JsonProperty("metric_definitions") Map<String, Definition> metricDefinitions, List<String> caveats,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable ContextView context,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable EnvironmentView environment, List<FileView> files,
			List<FlagView> flags, List<CellView> cells) {
	}

	@Schema(name = "RunSource")
	@JsonInclude(JsonInclude.Include.ALWAYS)
	@JsonPropertyOrder({ "url", "revision", "note" })
	record SourceView(@Nullable String url, @Nullable String revision, @Nullable String note) {
	}

	@Schema(name = "RunHarness")
	@JsonInclude(JsonInclude.Include.ALWAYS)
	@JsonPropertyOrder({ "name", "version", "command", "token_counting" })
	record HarnessView(String name, @Nullable String version, @Nullable String command,
			@JsonProperty("token_counting") @Nullable String tokenCounting) {
	}

	@Schema(name = "RunSystem")
	@JsonInclude(JsonInclude.Include.ALWAYS)
	@JsonPropertyOrder({ "name", "hardware", "nodes" })
	record SystemView(String name, @Nullable String hardware, @Nullable Integer nodes) {
	}

	@Schema(name = "RunEngine")
	@JsonInclude(JsonInclude.Include.ALWAYS)
	@JsonPropertyOrder({ "name", "version", "commit", "flags", "warnings" })
	record EngineView(String name, @Nullable String version, @Nullable String commit, Map<String, String> flags,
			List<String> warnings) {
	}

	@Schema(name = "RunWorkload")
	@JsonInclude(JsonInclude.Include.ALWAYS)
	@JsonPropertyOrder({ "dataset", "output_tokens", "reasoning", "request_params", "warmup_requests" })
	record WorkloadView(@Nullable String dataset, @JsonProperty("output_tokens") @Nullable Integer outputTokens,
			@Nullable String reasoning,
			@JsonProperty("request_params") @Schema(type = "object",
					description = "the request parameters as the run document gives them") @Nullable JsonNode requestParams,
			@JsonProperty("warmup_requests") @Nullable Integer warmupRequests) {
	}

	@Schema(name = "RunMetricDefinition")
	@JsonPropertyOrder({ "unit", "better", "output_sensitive" })
	record Definition(String unit, String better, @JsonProperty("output_sensitive") boolean outputSensitive) {
	}

	@Schema(name = "RunContext")
	@JsonInclude(JsonInclude.Include.ALWAYS)
	@JsonPropertyOrder({ "branch", "pull_request", "ci_url", "labels" })
	record ContextView(@Nullable String branch, @JsonProperty("pull_request") @Nullable String pullRequest,
			@JsonProperty("ci_url") @Nullable String ciUrl, Map<String, String> labels) {
	}

	@Schema(name = "RunEnvironment")
	@JsonInclude(JsonInclude.Include.ALWAYS)
	@JsonPropertyOrder({ "gpu", "gpu_count", "driver", "cuda", "container_image", "container_digest", "os", "kernel",
			"python_packages", "other" })
	record EnvironmentView(@Nullable String gpu, @JsonProperty("gpu_count") @Nullable Integer gpuCount,
			@Nullable String driver, @Nullable String cuda,
			@JsonProperty("container_image") @Nullable String containerImage,
			@JsonProperty("container_digest") @Nullable String containerDigest, @Nullable String os,
			@Nullable String kernel, @JsonProperty("python_packages") Map<String, String> pythonPackages,
			Map<String, String> other) {
	}

	@Schema(name = "RunFile")
	@JsonPropertyOrder({ "name", "media_type", "sha256", "size_bytes", "url" })
	record FileView(String name, @JsonProperty("media_type") String mediaType, String sha256,
			@JsonProperty("size_bytes") long sizeBytes, String url) {
	}

	/** A flag a run's own checks raise: {@code {rule, short, message, greys}}. */
	@Schema(name = "RunFlag")
	@JsonInclude(JsonInclude.Include.ALWAYS)
	@JsonPropertyOrder({ "rule", "short", "message", "greys" })
	record FlagView(String rule, @JsonProperty("short") String shortForm, String message, List<String> greys) {
	}

	/**
	 * A cell: its params, anchor, order, request counts, token statistics ({@code null}
	 * when not recorded), metrics (a number, or its statistics), flags and samples.
	 */
	@Schema(name = "RunCell")
	@JsonInclude(JsonInclude.Include.ALWAYS)
	@JsonPropertyOrder({ "params", "anchor", "order", "requests", "output_tokens", "reasoning_tokens", "metrics",
			"flags", "samples" })
	record CellView(Map<String, Object> params, String anchor, @Nullable Integer order, Requests requests,
			@JsonProperty("output_tokens") @Nullable Tokens outputTokens,
			@JsonProperty("reasoning_tokens") @Nullable Tokens reasoningTokens,
			@Schema(description = "by metric: a number, or its statistics {median, p90, …}") Map<String, Object> metrics,
			List<FlagView> flags, List<SampleView> samples) {
	}

	@Schema(name = "RunRequests")
	@JsonInclude(JsonInclude.Include.ALWAYS)
	@JsonPropertyOrder({ "completed", "failed", "cancelled" })
	record Requests(@Nullable Integer completed, @Nullable Integer failed, @Nullable Integer cancelled) {
	}

	@Schema(name = "RunTokens")
	@JsonInclude(JsonInclude.Include.NON_NULL)
	@JsonPropertyOrder({ "median", "min", "max", "mean" })
	record Tokens(@Nullable Double median, @Nullable Double min, @Nullable Double max, @Nullable Double mean) {
	}

	/** A request's sample: its status and tokens when recorded, then its measures. */
	@Schema(name = "RunSample")
	@JsonInclude(JsonInclude.Include.NON_NULL)
	@JsonPropertyOrder({ "status", "output_tokens", "reasoning_tokens" })
	record SampleView(@Nullable String status, @JsonProperty("output_tokens") @Nullable Double outputTokens,
			@JsonProperty("reasoning_tokens") @Nullable Double reasoningTokens,
			@Schema(hidden = true) Map<String, Double> measures) {

		@JsonAnyGetter
		@JsonInclude(JsonInclude.Include.ALWAYS)
		public Map<String, Double> measures() {
			return measures;
		}

	}

	/**
	 * The answer of {@code /api/runs/{id}}, as the OpenAPI document describes it: the
	 * run, its sweep views, caveats, notices and retraction.
	 */
	@Schema(name = "RunAnswer", allOf = RunView.class)
	record Answer(Pareto pareto, @Nullable GoodputView goodput, List<Map<String, Object>> caveats, List<String> notices,
			@Schema(description = "when superseded: by, by_title, url, reason, at") @Nullable Map<String, Object> superseded,
			@Schema(description = "when retracted: reason, at") @Nullable Map<String, Object> retracted,
			@Schema(description = "the latest retraction or supersession: kind, reason, replacement, at, by") @Nullable Map<String, Object> retraction) {
	}

	static Listed summary(RunSummary run, boolean retracted, @Nullable String recordStatus) {
		return new Listed(run.getId(), run.getUrl(), run.getTitle(), run.getRole(), run.getSystemName(),
				new ModelRef(run.getModelRepo(), run.getModelRevision(), run.getModelCommit(), null),
				run.getEngineName(), run.getHarnessName(), run.getCellCount(), run.getWorkloadFingerprint(),
				run.getRecordedAt() == null ? null : run.getRecordedAt().toString(), run.getUploadedAt().toString(),
				run.getUploadedBy(), retracted, recordStatus);
	}

	static RunView run(Run run, List<RunPage.PageFlag> runFlags, Map<String, List<RunPage.PageFlag>> cellFlags) {
		Provenance provenance = run.provenance();
		Provenance.Model model = provenance.model();
		Provenance.Engine engine = provenance.engine();
		Provenance.Workload declared = provenance.workload();
		Map<String, Definition> definitions = new LinkedHashMap<>();
		for (MetricDefinition definition : provenance.metricDefinitions()) {
			definitions.put(definition.name(),
					new Definition(definition.unit(), definition.better(), definition.outputSensitive()));
		}
		Provenance.Context given = provenance.context();
		Provenance.Environment environment = provenance.environment();
		List<CellView> cells = new ArrayList<>(run.cells().size());
		for (Cell cell : run.cells()) {
			cells.add(cell(cell, cellFlags.getOrDefault(cell.anchor(), List.of())));
		}
		return new RunView(run.id().value(), run.url(), "/api/runs/" + run.id() + "/document", run.title(),
				run.role().id(), run.document().recordedAt() == null ? null : run.document().recordedAt().toString(),
				run.uploadedAt().toString(), run.uploadedBy(), run.workloadFingerprint(),
				provenance.source() == null ? null
						: new SourceView(provenance.source().url(), provenance.source().revision(),
								provenance.source().note()),
				new SystemView(provenance.system().name(), provenance.system().hardware(), provenance.system().nodes()),
				new ModelRef(model.repo(), model.revision(), model.commit() == null ? null : model.commit().value(),
						model.pinned()),
				new EngineView(engine.name(), engine.version(),
						engine.commit() == null ? null : engine.commit().value(), engine.flags(), engine.warnings()),
				new HarnessView(provenance.harness().name(), provenance.harness().version(),
						provenance.harness().command(), provenance.harness().tokenCounting()),
				new WorkloadView(declared.dataset(), declared.outputTokens(), declared.reasoning(),
						declared.requestParams(), declared.warmupRequests()),
				definitions, List.copyOf(provenance.caveats()),
				given == null ? null
						: new ContextView(given.branch(), given.pullRequest(), given.ciUrl(), given.labels()),
				environment == null ? null
						: new EnvironmentView(environment.gpu(), environment.gpuCount(), environment.driver(),
								environment.cuda(), environment.containerImage(), environment.containerDigest(),
								environment.os(), environment.kernel(), environment.pythonPackages(),
								environment.other()),
				run.files()
					.stream()
					.map(file -> new FileView(file.fileName(), file.mediaType(), file.sha256(), file.sizeBytes(),
							"/api/runs/" + run.id() + "/files/" + file.position()))
					.toList(),
				flags(runFlags), cells);
	}

	private static CellView cell(Cell cell, List<RunPage.PageFlag> flags) {
		RequestCounts counts = cell.requests();
		Map<String, Object> metrics = new LinkedHashMap<>();
		cell.metrics().forEach((name, value) -> metrics.put(name, metric(value)));
		List<SampleView> samples = new ArrayList<>(cell.samples().size());
		for (Sample sample : cell.samples()) {
			samples.add(
					new SampleView(sample.status(), sample.outputTokens(), sample.reasoningTokens(), sample.metrics()));
		}
		return new CellView(params(cell.params()), cell.anchor(), cell.order(),
				new Requests(counts.completed(), counts.failed(), counts.cancelled()), tokens(cell.outputTokens()),
				tokens(cell.reasoningTokens()), metrics, flags(flags), samples);
	}

	/** Params with whole numbers without a fraction, other numbers as written. */
	static Map<String, Object> params(Params params) {
		Map<String, Object> values = new LinkedHashMap<>();
		params.values().forEach((name, value) -> {
			if (value instanceof BigDecimal number) {
				values.put(name, number.scale() <= 0 ? number.setScale(0) : number);
			}
			else {
				values.put(name, value.toString());
			}
		});
		return values;
	}

	/** A single value as a number, else its statistics. */
	private static Object metric(MetricValue value) {
		if (value.single()) {
			return value.median().getAsDouble();
		}
		return value.statistics();
	}

	private static @Nullable Tokens tokens(@Nullable TokenStats tokens) {
		return tokens == null ? null : new Tokens(tokens.median(), tokens.min(), tokens.max(), tokens.mean());
	}

	static List<FlagView> flags(List<RunPage.PageFlag> flags) {
		return flags.stream()
			.map(flag -> new FlagView(flag.rule(), flag.shortForm(), flag.message(),
					flag.greys().stream().sorted().toList()))
			.toList();
	}

}
