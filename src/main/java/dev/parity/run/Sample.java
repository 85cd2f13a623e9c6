package dev.parity.run;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One request (or one repetition) of a cell, in completion order.
 *
 * @param status {@code ok}, {@code failed} or {@code cancelled}; {@code null} when not
 * given
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

	/**
	 * These metric names in the order a stored sample gives them back: PostgreSQL's
	 * {@code jsonb} keeps an object's keys shorter first, then byte by byte (UTF-8),
	 * whatever order they were uploaded in.
	 */
	public static List<String> storedOrder(Collection<String> names) {
		List<String> sorted = new ArrayList<>(names);
		sorted.sort(STORED_ORDER);
		return sorted;
	}

	private static final Comparator<String> STORED_ORDER = (a, b) -> {
		byte[] x = a.getBytes(StandardCharsets.UTF_8);
		byte[] y = b.getBytes(StandardCharsets.UTF_8);
		return x.length != y.length ? Integer.compare(x.length, y.length) : Arrays.compareUnsigned(x, y);
	};

}
