package dev.parity.ingest.mapping;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.parity.ingest.harness.ImportRejected;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads one parsed JSON file with a {@link FieldMapping} into cells of a
 * {@code benchmark-run/1} document. What the mapping names and the file lacks is absent,
 * never invented: a missing metric is not measured, unmapped request counts are unknown
 * (null).
 */
final class MappedReader {

	private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

	/**
	 * The cells read, what was noted, and the mapping keys that read something (to refuse
	 * a mapping that reads nothing of its sample).
	 */
	record Read(List<ObjectNode> cells, List<String> notes, Set<String> keysRead) {
	}

	private final FieldMapping mapping;

	private final String file;

	private final Set<String> keysRead = new LinkedHashSet<>();

	private final Map<String, Integer> missing = new LinkedHashMap<>();

	private MappedReader(FieldMapping mapping, String file) {
		this.mapping = mapping;
		this.file = file;
	}

	/**
	 * @param document the file's JSON as plain values (maps, lists, numbers, strings)
	 * @throws ImportRejected naming the file, the cell and the mapping key
	 */
	static Read read(FieldMapping mapping, Object document, String file) {
		return new MappedReader(mapping, file).read(document);
	}

	private Read read(Object document) {
		Object found = mapping.cells().read(document);
		List<?> items = found instanceof List<?> list ? list : found == null ? List.of() : List.of(found);
		if (items.isEmpty()) {
			throw new ImportRejected(file + ": cells: " + mapping.cells().text() + " finds no cell in the file");
		}
		keysRead.add("cells");
		List<ObjectNode> cells = new ArrayList<>();
		for (int i = 0; i < items.size(); i++) {
			cells.add(cell(items.get(i), "cells[" + i + "]"));
		}
		List<String> notes = new ArrayList<>();
		missing.forEach((key, count) -> notes
			.add(file + ": " + key + " not found (" + count + (count == 1 ? " time" : " times") + "): left absent"));
		return new Read(cells, notes, keysRead);
	}

	private ObjectNode cell(Object item, String where) {
		if (!(item instanceof Map<?, ?>)) {
			throw new ImportRejected(file + ": " + where + " (cells " + mapping.cells().text() + ") is not an object: "
					+ describe(item));
		}
		ObjectNode cell = NODES.objectNode();
		ObjectNode params = cell.putObject("params");
		mapping.params().forEach((name, path) -> {
			Object value = path.read(item);
			String key = "params." + name;
			if (value == null) {
				throw new ImportRejected(file + ": " + where + ": " + key + ": " + path.text() + " is not in the cell");
			}
			keysRead.add(key);
			if (value instanceof Number number) {
				params.set(name, number(number.doubleValue()));
			}
			else if (value instanceof String || value instanceof Boolean) {
				params.put(name, value.toString());
			}
			else {
				throw new ImportRejected(file + ": " + where + ": " + key + ": " + path.text()
						+ " must be a number or a string, not " + describe(value));
			}
		});
		List<ObjectNode> samples = samples(item, where);
		ObjectNode requests = cell.putObject("requests");
		FieldMapping.Requests counts = mapping.requests();
		if (counts.fromSamples()) {
			for (String status : List.of("completed", "failed", "cancelled")) {
				String wanted = status.equals("completed") ? "ok" : status;
				requests.put(status,
						(int) samples.stream().filter(s -> s.path("status").asString("ok").equals(wanted)).count());
			}
			keysRead.add("requests.from_samples");
		}
		else {
			count(item, where, "completed", counts.completed(), requests);
			count(item, where, "failed", counts.failed(), requests);
			count(item, where, "cancelled", counts.cancelled(), requests);
		}
		if (mapping.outputTokens() != null) {
			Double tokens = number(item, mapping.outputTokens(), where, "output_tokens");
			if (tokens != null) {
				cell.putObject("output_tokens").set("median", number(tokens));
			}
		}
		else {
			double[] tokens = samples.stream()
				.filter(s -> s.path("output_tokens").isNumber())
				.mapToDouble(s -> s.get("output_tokens").asDouble())
				.sorted()
				.toArray();
			if (tokens.length > 0) {
				ObjectNode statistics = cell.putObject("output_tokens");
				statistics.set("median", number(median(tokens)));
				statistics.set("mean", number(Arrays.stream(tokens).average().orElseThrow()));
				statistics.set("min", number(tokens[0]));
				statistics.set("max", number(tokens[tokens.length - 1]));
			}
		}
		ObjectNode metrics = cell.putObject("metrics");
		mapping.metrics().forEach((name, read) -> {
			ObjectNode statistics = NODES.objectNode();
			read.statistics().forEach((statistic, path) -> {
				String key = "metrics." + name + (read.single() ? "" : "." + statistic);
				Double value = number(item, path, where, key);
				if (value != null) {
					statistics.set(statistic, number(read.toCatalogueUnit().applyAsDouble(value)));
				}
			});
			if (!statistics.isEmpty()) {
				metrics.set(name, read.single() ? statistics.get("median") : statistics);
			}
		});
		if (!samples.isEmpty()) {
			ArrayNode array = cell.putArray("samples");
			samples.forEach(array::add);
		}
		else if (mapping.samples() != null) {
			cell.putArray("samples");
		}
		return cell;
	}

	private List<ObjectNode> samples(Object cell, String where) {
		FieldMapping.Samples mapped = mapping.samples();
		if (mapped == null) {
			return List.of();
		}
		Object found = mapped.path().read(cell);
		if (!(found instanceof List<?> items) || items.isEmpty()) {
			missing.merge("samples.path " + mapped.path().text(), 1, Integer::sum);
			return List.of();
		}
		keysRead.add("samples.path");
		List<ObjectNode> samples = new ArrayList<>();
		for (int i = 0; i < items.size(); i++) {
			Object item = items.get(i);
			String here = where + ".samples[" + i + "]";
			if (!(item instanceof Map<?, ?>)) {
				throw new ImportRejected(file + ": " + here + " (samples.path " + mapped.path().text()
						+ ") is not an object: " + describe(item));
			}
			ObjectNode sample = NODES.objectNode();
			if (mapped.status() != null) {
				Object status = mapped.status().read(item);
				if (status == null) {
					missing.merge("samples.status " + mapped.status().text(), 1, Integer::sum);
				}
				else {
					keysRead.add("samples.status");
					String text = status.toString();
					String mappedStatus = mapped.statusMap().isEmpty() ? text : mapped.statusMap().get(text);
					if (mappedStatus == null || !Set.of("ok", "failed", "cancelled").contains(mappedStatus)) {
						throw new ImportRejected(file + ": " + here + ": samples.status: " + mapped.status().text()
								+ " is " + describe(status)
								+ (mapped.statusMap().isEmpty()
										? ", not ok, failed or cancelled: add a map, e.g. " + "{\"path\": \""
												+ mapped.status().text() + "\", \"map\": {\"" + text + "\": \"ok\"}}"
										: ", which samples.status.map does not map"));
					}
					sample.put("status", mappedStatus);
				}
			}
			if (mapped.outputTokens() != null) {
				Double tokens = number(item, mapped.outputTokens(), here, "samples.output_tokens");
				if (tokens != null) {
					sample.set("output_tokens", number(tokens));
				}
			}
			if (mapped.reasoningTokens() != null) {
				Double tokens = number(item, mapped.reasoningTokens(), here, "samples.reasoning_tokens");
				if (tokens != null) {
					sample.set("reasoning_tokens", number(tokens));
				}
			}
			mapped.metrics().forEach((name, read) -> {
				Double value = number(item, read.statistics().get("median"), here, "samples.metrics." + name);
				if (value != null) {
					sample.set(name, number(read.toCatalogueUnit().applyAsDouble(value)));
				}
			});
			samples.add(sample);
		}
		return samples;
	}

	private void count(Object item, String where, String name, @Nullable MappingPath path, ObjectNode requests) {
		if (path == null) {
			requests.putNull(name);
			return;
		}
		Double value = number(item, path, where, "requests." + name);
		if (value == null) {
			requests.putNull(name);
		}
		else if (value < 0 || value != Math.rint(value) || value > Integer.MAX_VALUE) {
			throw new ImportRejected(file + ": " + where + ": requests." + name + ": " + path.text()
					+ " must be a whole number of requests, not " + describe(value));
		}
		else {
			requests.put(name, (int) value.doubleValue());
		}
	}

	/** The number at the path; {@code null} (noted) when absent or null. */
	private @Nullable Double number(Object item, MappingPath path, String where, String key) {
		Object value = path.read(item);
		if (value == null) {
			missing.merge(key + " " + path.text(), 1, Integer::sum);
			return null;
		}
		if (!(value instanceof Number number)) {
			throw new ImportRejected(file + ": " + where + ": " + key + ": " + path.text() + " must be a number, not "
					+ describe(value));
		}
		keysRead.add(key);
		return number.doubleValue();
	}

	private static JsonNode number(double value) {
		if (value == Math.rint(value) && Math.abs(value) < 1e15) {
			return NODES.numberNode((long) value);
		}
		return NODES.numberNode(value);
	}

	private static double median(double[] sorted) {
		int n = sorted.length;
		return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	}

	private static String describe(@Nullable Object value) {
		if (value instanceof Map<?, ?>) {
			return "an object";
		}
		if (value instanceof List<?>) {
			return "a list";
		}
		if (value instanceof String text) {
			return "\"" + (text.length() > 40 ? text.substring(0, 40) + "…" : text) + "\"";
		}
		return String.valueOf(value);
	}

}
