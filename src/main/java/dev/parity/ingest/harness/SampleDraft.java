package dev.parity.ingest.harness;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * One request (or one repetition) of a cell being imported, before it is written as a
 * sample.
 */
final class SampleDraft {

	static final String OK = "ok";

	static final String FAILED = "failed";

	static final String CANCELLED = "cancelled";

	private final String status;

	private @Nullable Double outputTokens;

	private @Nullable Double reasoningTokens;

	private final Map<String, Double> metrics = new LinkedHashMap<>();

	private @Nullable Double finishedAt;

	SampleDraft(String status) {
		this.status = status;
	}

	static SampleDraft ok() {
		return new SampleDraft(OK);
	}

	String status() {
		return status;
	}

	SampleDraft outputTokens(@Nullable Double tokens) {
		this.outputTokens = tokens;
		return this;
	}

	SampleDraft reasoningTokens(@Nullable Double tokens) {
		this.reasoningTokens = tokens;
		return this;
	}

	/** A metric in its catalogue unit; an absent or non-finite value is left out. */
	SampleDraft metric(String name, @Nullable Double value) {
		if (value != null && Double.isFinite(value)) {
			metrics.put(name, value);
		}
		return this;
	}

	/**
	 * When the request finished, on any clock shared by the cell's samples; used only to
	 * order them.
	 */
	SampleDraft finishedAt(@Nullable Double time) {
		this.finishedAt = time;
		return this;
	}

	@Nullable Double outputTokens() {
		return outputTokens;
	}

	@Nullable Double reasoningTokens() {
		return reasoningTokens;
	}

	@Nullable Double metric(String name) {
		return metrics.get(name);
	}

	Map<String, Double> metrics() {
		return metrics;
	}

	@Nullable Double finishedAt() {
		return finishedAt;
	}

	ObjectNode toJson() {
		ObjectNode sample = HarnessJson.object();
		sample.put("status", status);
		if (outputTokens != null) {
			sample.set("output_tokens", HarnessJson.number(outputTokens));
		}
		if (reasoningTokens != null) {
			sample.set("reasoning_tokens", HarnessJson.number(reasoningTokens));
		}
		metrics.forEach((name, value) -> sample.set(name, HarnessJson.number(value)));
		return sample;
	}

}
