package dev.parity.site;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

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
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON shape of runs in the API: the provenance and cells as in the run document,
 * plus id, links, upload facts and the flags computed for the run.
 */
final class RunJson {

	private final JsonMapper json;

	RunJson(JsonMapper json) {
		this.json = json;
	}

	ObjectNode summary(RunSummary run) {
		ObjectNode node = json.createObjectNode();
		node.put("id", run.getId());
		node.put("url", run.getUrl());
		node.put("title", run.getTitle());
		node.put("role", run.getRole());
		node.put("system", run.getSystemName());
		ObjectNode model = node.putObject("model");
		model.put("repo", run.getModelRepo());
		model.put("revision", run.getModelRevision());
		model.put("commit", run.getModelCommit());
		node.put("engine", run.getEngineName());
		node.put("harness", run.getHarnessName());
		node.put("cells", run.getCellCount());
		node.put("workload_fingerprint", run.getWorkloadFingerprint());
		node.put("recorded_at", run.getRecordedAt() == null ? null : run.getRecordedAt().toString());
		node.put("uploaded_at", run.getUploadedAt().toString());
		node.put("uploaded_by", run.getUploadedBy());
		return node;
	}

	ObjectNode run(Run run, List<RunPage.PageFlag> runFlags, Map<String, List<RunPage.PageFlag>> cellFlags) {
		ObjectNode node = json.createObjectNode();
		node.put("id", run.id().value());
		node.put("url", run.url());
		node.put("document_url", "/api/runs/" + run.id() + "/document");
		node.put("title", run.title());
		node.put("role", run.role().id());
		node.put("recorded_at", run.document().recordedAt() == null ? null : run.document().recordedAt().toString());
		node.put("uploaded_at", run.uploadedAt().toString());
		node.put("uploaded_by", run.uploadedBy());
		node.put("workload_fingerprint", run.workloadFingerprint());
		Provenance provenance = run.provenance();
		if (provenance.source() != null) {
			ObjectNode source = node.putObject("source");
			source.put("url", provenance.source().url());
			source.put("revision", provenance.source().revision());
			source.put("note", provenance.source().note());
		}
		ObjectNode system = node.putObject("system");
		system.put("name", provenance.system().name());
		system.put("hardware", provenance.system().hardware());
		system.put("nodes", provenance.system().nodes());
		ObjectNode model = node.putObject("model");
		model.put("repo", provenance.model().repo());
		model.put("revision", provenance.model().revision());
		model.put("commit", provenance.model().commit() == null ? null : provenance.model().commit().value());
		model.put("pinned", provenance.model().pinned());
		ObjectNode engine = node.putObject("engine");
		engine.put("name", provenance.engine().name());
		engine.put("version", provenance.engine().version());
		engine.put("commit", provenance.engine().commit() == null ? null : provenance.engine().commit().value());
		ObjectNode flags = engine.putObject("flags");
		provenance.engine().flags().forEach(flags::put);
		ArrayNode warnings = engine.putArray("warnings");
		provenance.engine().warnings().forEach(warnings::add);
		ObjectNode harness = node.putObject("harness");
		harness.put("name", provenance.harness().name());
		harness.put("version", provenance.harness().version());
		harness.put("command", provenance.harness().command());
		harness.put("token_counting", provenance.harness().tokenCounting());
		ObjectNode workload = node.putObject("workload");
		Provenance.Workload declared = provenance.workload();
		workload.put("dataset", declared.dataset());
		workload.put("output_tokens", declared.outputTokens());
		workload.put("reasoning", declared.reasoning());
		workload.set("request_params", declared.requestParams());
		workload.put("warmup_requests", declared.warmupRequests());
		ObjectNode definitions = node.putObject("metric_definitions");
		for (MetricDefinition definition : provenance.metricDefinitions()) {
			ObjectNode d = definitions.putObject(definition.name());
			d.put("unit", definition.unit());
			d.put("better", definition.better());
			d.put("output_sensitive", definition.outputSensitive());
		}
		ArrayNode caveats = node.putArray("caveats");
		provenance.caveats().forEach(caveats::add);
		if (provenance.context() != null) {
			Provenance.Context given = provenance.context();
			ObjectNode context = node.putObject("context");
			context.put("branch", given.branch());
			context.put("pull_request", given.pullRequest());
			context.put("ci_url", given.ciUrl());
			ObjectNode labels = context.putObject("labels");
			given.labels().forEach(labels::put);
		}
		if (provenance.environment() != null) {
			Provenance.Environment given = provenance.environment();
			ObjectNode environment = node.putObject("environment");
			environment.put("gpu", given.gpu());
			environment.put("gpu_count", given.gpuCount());
			environment.put("driver", given.driver());
			environment.put("cuda", given.cuda());
			environment.put("container_image", given.containerImage());
			environment.put("container_digest", given.containerDigest());
			environment.put("os", given.os());
			environment.put("kernel", given.kernel());
			ObjectNode packages = environment.putObject("python_packages");
			given.pythonPackages().forEach(packages::put);
			ObjectNode other = environment.putObject("other");
			given.other().forEach(other::put);
		}
		ArrayNode files = node.putArray("files");
		for (Run.RunFile file : run.files()) {
			ObjectNode f = files.addObject();
			f.put("name", file.fileName());
			f.put("media_type", file.mediaType());
			f.put("sha256", file.sha256());
			f.put("size_bytes", file.sizeBytes());
			f.put("url", "/api/runs/" + run.id() + "/files/" + file.position());
		}
		node.set("flags", flags(runFlags));
		ArrayNode cells = node.putArray("cells");
		for (Cell cell : run.cells()) {
			cells.add(cell(cell, cellFlags.getOrDefault(cell.anchor(), List.of())));
		}
		return node;
	}

	private ObjectNode cell(Cell cell, List<RunPage.PageFlag> flags) {
		ObjectNode node = json.createObjectNode();
		node.set("params", params(cell.params()));
		node.put("anchor", cell.anchor());
		node.put("order", cell.order());
		RequestCounts counts = cell.requests();
		ObjectNode requests = node.putObject("requests");
		requests.put("completed", counts.completed());
		requests.put("failed", counts.failed());
		requests.put("cancelled", counts.cancelled());
		putTokens(node, "output_tokens", cell.outputTokens());
		putTokens(node, "reasoning_tokens", cell.reasoningTokens());
		ObjectNode metrics = node.putObject("metrics");
		cell.metrics().forEach((name, value) -> metrics.set(name, metric(value)));
		node.set("flags", flags(flags));
		ArrayNode samples = node.putArray("samples");
		for (Sample sample : cell.samples()) {
			ObjectNode s = samples.addObject();
			if (sample.status() != null) {
				s.put("status", sample.status());
			}
			if (sample.outputTokens() != null) {
				s.put("output_tokens", sample.outputTokens());
			}
			if (sample.reasoningTokens() != null) {
				s.put("reasoning_tokens", sample.reasoningTokens());
			}
			sample.metrics().forEach(s::put);
		}
		return node;
	}

	ObjectNode params(Params params) {
		ObjectNode node = json.createObjectNode();
		params.values().forEach((name, value) -> {
			if (value instanceof BigDecimal number) {
				node.put(name, number.scale() <= 0 ? number.setScale(0) : number);
			}
			else {
				node.put(name, value.toString());
			}
		});
		return node;
	}

	private tools.jackson.databind.JsonNode metric(MetricValue value) {
		if (value.single()) {
			return json.getNodeFactory().numberNode(value.median().getAsDouble());
		}
		ObjectNode statistics = json.createObjectNode();
		value.statistics().forEach(statistics::put);
		return statistics;
	}

	private static void putTokens(ObjectNode node, String field, @Nullable TokenStats tokens) {
		if (tokens == null) {
			node.putNull(field);
			return;
		}
		ObjectNode stats = node.putObject(field);
		if (tokens.median() != null) {
			stats.put("median", tokens.median());
		}
		if (tokens.min() != null) {
			stats.put("min", tokens.min());
		}
		if (tokens.max() != null) {
			stats.put("max", tokens.max());
		}
		if (tokens.mean() != null) {
			stats.put("mean", tokens.mean());
		}
	}

	ArrayNode flags(List<RunPage.PageFlag> flags) {
		ArrayNode array = json.createArrayNode();
		for (RunPage.PageFlag flag : flags) {
			ObjectNode f = array.addObject();
			f.put("rule", flag.rule());
			f.put("short", flag.shortForm());
			f.put("message", flag.message());
			ArrayNode greys = f.putArray("greys");
			flag.greys().stream().sorted().forEach(greys::add);
		}
		return array;
	}

}
