package dev.parity.run;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import tools.jackson.databind.JsonNode;

/**
 * A stable hash of the declared workload plus the grid definition. Two runs with the same
 * fingerprint <em>intend</em> the same work: same dataset, output tokens, reasoning mode,
 * request parameters, warm-up, and the same set of cell params. Whether they <em>did</em>
 * the same work is decided by measurement (output tokens per request), never by this
 * declaration.
 *
 * <p>
 * Canonical form: JSON with object keys sorted, numbers written without trailing zeros,
 * the grid as the sorted list of each cell's sorted params; SHA-256 of its UTF-8 bytes,
 * in hex.
 */
public final class WorkloadFingerprint {

	private WorkloadFingerprint() {
	}

	/**
	 * The declared workload alone (no grid: grids grow), canonically serialised as for
	 * the fingerprint: what a series of runs keeps constant.
	 */
	public static String declared(Provenance.Workload workload) {
		StringBuilder canonical = new StringBuilder("{");
		appendObject(canonical, fields(workload));
		return canonical.append('}').toString();
	}

	public static String of(Provenance.Workload workload, List<Cell> cells) {
		StringBuilder canonical = new StringBuilder("{\"grid\":[");
		cells.stream()
			.map(cell -> canonical(cell.params().values()))
			.sorted()
			.reduce((a, b) -> a + "," + b)
			.ifPresent(canonical::append);
		canonical.append("],\"workload\":{");
		appendObject(canonical, fields(workload));
		canonical.append("}}");
		return sha256(canonical.toString());
	}

	private static Map<String, String> fields(Provenance.Workload workload) {
		Map<String, String> fields = new TreeMap<>();
		if (workload.dataset() != null) {
			fields.put("dataset", quote(workload.dataset()));
		}
		if (workload.outputTokens() != null) {
			fields.put("output_tokens", workload.outputTokens().toString());
		}
		if (workload.reasoning() != null) {
			fields.put("reasoning", quote(workload.reasoning()));
		}
		if (workload.requestParams() != null) {
			fields.put("request_params", canonical(workload.requestParams()));
		}
		if (workload.warmupRequests() != null) {
			fields.put("warmup_requests", workload.warmupRequests().toString());
		}
		return fields;
	}

	private static String canonical(Map<String, Object> params) {
		Map<String, String> fields = new TreeMap<>();
		params.forEach((name, value) -> fields.put(name,
				value instanceof BigDecimal number ? number(number) : quote(value.toString())));
		StringBuilder out = new StringBuilder("{");
		appendObject(out, fields);
		return out.append('}').toString();
	}

	private static String canonical(JsonNode node) {
		if (node.isObject()) {
			Map<String, String> fields = new TreeMap<>();
			node.forEachEntry((name, value) -> fields.put(name, canonical(value)));
			StringBuilder out = new StringBuilder("{");
			appendObject(out, fields);
			return out.append('}').toString();
		}
		if (node.isArray()) {
			StringBuilder out = new StringBuilder("[");
			for (int i = 0; i < node.size(); i++) {
				out.append(i == 0 ? "" : ",").append(canonical(node.get(i)));
			}
			return out.append(']').toString();
		}
		if (node.isNumber()) {
			return number(node.decimalValue());
		}
		if (node.isString()) {
			return quote(node.asString());
		}
		return node.toString();
	}

	private static void appendObject(StringBuilder out, Map<String, String> fields) {
		boolean first = true;
		for (Map.Entry<String, String> field : fields.entrySet()) {
			out.append(first ? "" : ",").append(quote(field.getKey())).append(':').append(field.getValue());
			first = false;
		}
	}

	private static String number(BigDecimal number) {
		return number.signum() == 0 ? "0" : number.stripTrailingZeros().toPlainString();
	}

	private static String quote(String text) {
		StringBuilder out = new StringBuilder("\"");
		for (char c : text.toCharArray()) {
			switch (c) {
				case '"' -> out.append("\\\"");
				case '\\' -> out.append("\\\\");
				default -> {
					if (c < 0x20) {
						out.append(String.format("\\u%04x", (int) c));
					}
					else {
						out.append(c);
					}
				}
			}
		}
		return out.append('"').toString();
	}

	private static String sha256(String text) {
		return Sha256.hex(text.getBytes(StandardCharsets.UTF_8));
	}

}
