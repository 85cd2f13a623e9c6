package dev.parity.run;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One request (or one repetition) of a cell, in completion order.
 *
 * @param status {@code ok}, {@code failed} or {@code cancelled}; {@code null} when not given
 * @param outputTokens output tokens, reasoning included
 * @param reasoningTokens the reasoning part of the output, where known
 * @param metrics per-request metric values
 */
public record Sample(@Nullable String status, @Nullable Double outputTokens, @Nullable Double reasoningTokens,
		Map<String, Double> metrics) {

	public Sample {
		metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
	}

	public boolean ok() {
		return status == null || "ok".equals(status);
	}

}
