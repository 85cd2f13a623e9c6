package dev.parity.ingest.harness;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.parity.run.MetricCatalogue;
import dev.parity.run.Params;
import dev.parity.run.TokenStats;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One cell being imported: params under their conventional names, request counts
 * ({@code null} when the harness does not record them), measured tokens, metrics in
 * catalogue units and samples. Written out as a {@code cells[]} item of a run document.
 */
final class CellDraft {

	private final String source;

	private final Map<String, Object> params = new LinkedHashMap<>();

	private @Nullable Integer order;

	private @Nullable Integer completed;

	private @Nullable Integer failed;

	private @Nullable Integer cancelled;

	private @Nullable TokenStats outputTokens;

	private @Nullable TokenStats reasoningTokens;

	private final Map<String, Statistics> metrics = new LinkedHashMap<>();

	private final List<SampleDraft> samples = new ArrayList<>();

	/**
	 * @param source where the cell comes from, for messages: a file name, with a line
	 * where it helps
	 */
	CellDraft(String source) {
		this.source = source;
	}

	String source() {
		return source;
	}

	/** A grid coordinate: a number, or a string such as {@code "inf"}. */
	CellDraft param(String name, Object value) {
		if (value instanceof Double number && number == Math.rint(number) && Math.abs(number) < 1e15) {
			value = number.longValue();
		}
		if (!(value instanceof Number) && !(value instanceof String)) {
			throw new IllegalArgumentException("a param is a number or a string, not " + value);
		}
		params.put(name, value);
		return this;
	}

	Map<String, Object> params() {
		return params;
	}

	/** The params as the run model compares them: numbers numerically. */
	Params comparableParams() {
		Map<String, Object> values = new LinkedHashMap<>();
		params.forEach((name, value) -> values.put(name,
				value instanceof Number number ? new BigDecimal(number.toString()) : value));
		return Params.of(values);
	}

	String label() {
		return params.isEmpty() ? "(no params)" : comparableParams().label();
	}

	CellDraft order(@Nullable Integer order) {
		this.order = order;
		return this;
	}

	@Nullable Integer order() {
		return order;
	}

	CellDraft requests(@Nullable Integer completed, @Nullable Integer failed, @Nullable Integer cancelled) {
		this.completed = completed;
		this.failed = failed;
		this.cancelled = cancelled;
		return this;
	}

	@Nullable Integer completed() {
		return completed;
	}

	@Nullable Integer failed() {
		return failed;
	}

	@Nullable Integer cancelled() {
		return cancelled;
	}

	CellDraft outputTokens(@Nullable TokenStats tokens) {
		this.outputTokens = tokens == null || tokens.isEmpty() ? null : tokens;
		return this;
	}

	@Nullable TokenStats outputTokens() {
		return outputTokens;
	}

	CellDraft reasoningTokens(@Nullable TokenStats tokens) {
		this.reasoningTokens = tokens == null || tokens.isEmpty() ? null : tokens;
		return this;
	}

	@Nullable TokenStats reasoningTokens() {
		return reasoningTokens;
	}

	/** A metric in its catalogue unit; empty statistics are left out. */
	CellDraft metric(String name, Statistics statistics) {
		if (!statistics.isEmpty()) {
			metrics.put(name, statistics);
		}
		return this;
	}

	/**
	 * A metric given by one aggregate value (a throughput); an absent value is left out.
	 */
	CellDraft metric(String name, @Nullable Double value) {
		if (value != null && Double.isFinite(value)) {
			metrics.put(name, Statistics.single(value));
		}
		return this;
	}

	Map<String, Statistics> metrics() {
		return metrics;
	}

	CellDraft sample(SampleDraft sample) {
		samples.add(sample);
		return this;
	}

	List<SampleDraft> samples() {
		return samples;
	}

	/**
	 * Puts the samples in completion order when every one knows when it finished.
	 * @return whether they could be ordered
	 */
	boolean orderSamplesByCompletion() {
		if (samples.isEmpty() || samples.stream().map(SampleDraft::finishedAt).anyMatch(Objects::isNull)) {
			return false;
		}
		samples.sort(Comparator.comparing(SampleDraft::finishedAt));
		return true;
	}

	/**
	 * Drops the metrics a harness writes for zero completed requests (vLLM's 0.0
	 * latencies): they are absent, not zero.
	 */
	CellDraft withoutMetricsWhenNothingCompleted() {
		if (completed != null && completed == 0) {
			metrics.clear();
			outputTokens = null;
			reasoningTokens = null;
		}
		return this;
	}

	ObjectNode toJson() {
		ObjectNode cell = HarnessJson.object();
		ObjectNode paramsNode = cell.putObject("params");
		params.forEach((name, value) -> {
			if (value instanceof String text) {
				paramsNode.put(name, text);
			}
			else {
				paramsNode.set(name, HarnessJson.number(((Number) value).doubleValue()));
			}
		});
		if (order != null) {
			cell.put("order", order);
		}
		ObjectNode requests = cell.putObject("requests");
		putCount(requests, "completed", completed);
		putCount(requests, "failed", failed);
		putCount(requests, "cancelled", cancelled);
		if (outputTokens != null) {
			cell.set("output_tokens", tokens(outputTokens));
		}
		if (reasoningTokens != null) {
			cell.set("reasoning_tokens", tokens(reasoningTokens));
		}
		ObjectNode metricsNode = cell.putObject("metrics");
		inCatalogueOrder(metrics).forEach((name, statistics) -> {
			if (statistics.single()) {
				metricsNode.set(name, HarnessJson.number(statistics.values().get("median")));
			}
			else {
				ObjectNode values = metricsNode.putObject(name);
				statistics.values().forEach((statistic, value) -> values.set(statistic, HarnessJson.number(value)));
			}
		});
		if (!samples.isEmpty()) {
			ArrayNode samplesNode = cell.putArray("samples");
			samples.forEach(sample -> samplesNode.add(sample.toJson()));
		}
		return cell;
	}

	/** The catalogue's metrics first, in its order, then any others as they came. */
	private static Map<String, Statistics> inCatalogueOrder(Map<String, Statistics> metrics) {
		Map<String, Statistics> ordered = new LinkedHashMap<>();
		MetricCatalogue.defaults().all().forEach(definition -> {
			if (metrics.containsKey(definition.name())) {
				ordered.put(definition.name(), metrics.get(definition.name()));
			}
		});
		metrics.forEach(ordered::putIfAbsent);
		return ordered;
	}

	private static void putCount(ObjectNode requests, String name, @Nullable Integer count) {
		if (count == null) {
			requests.putNull(name);
		}
		else {
			requests.put(name, count);
		}
	}

	private static ObjectNode tokens(TokenStats stats) {
		ObjectNode node = HarnessJson.object();
		putIfPresent(node, "median", stats.median());
		putIfPresent(node, "min", stats.min());
		putIfPresent(node, "max", stats.max());
		putIfPresent(node, "mean", stats.mean());
		return node;
	}

	private static void putIfPresent(ObjectNode node, String name, @Nullable Double value) {
		if (value != null) {
			node.set(name, HarnessJson.number(value));
		}
	}

}
