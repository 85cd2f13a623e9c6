package dev.parity.ingest.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.parity.ingest.RunFileRejected;
import dev.parity.ingest.RunIngest;
import dev.parity.ingest.UploadTooLarge;
import dev.parity.ingest.harness.HarnessFormat;
import dev.parity.ingest.harness.InputFile;
import dev.parity.ingest.harness.MetricColumn;
import dev.parity.ingest.harness.TableMapping;
import dev.parity.web.Problem;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.util.StringUtils;
import org.springframework.web.multipart.MultipartFile;

/**
 * The parts of an import request, read and checked: the files, the format if one was
 * picked, the provenance (run-document shape, no cells) and a published table's column
 * mapping.
 */
final class ImportRequest {

	private ImportRequest() {
	}

	/**
	 * The names of the file parts that came empty, when every part did: a chosen file of
	 * 0 bytes is named, never taken for no file at all.
	 */
	static List<String> emptyFiles(@Nullable List<MultipartFile> parts) {
		if (parts == null || parts.stream().anyMatch(part -> !part.isEmpty())) {
			return List.of();
		}
		return parts.stream().map(MultipartFile::getOriginalFilename).filter(StringUtils::hasText).toList();
	}

	static List<InputFile> files(@Nullable List<MultipartFile> parts) {
		List<InputFile> files = new ArrayList<>();
		if (parts == null) {
			return files;
		}
		for (MultipartFile part : parts) {
			if (part.isEmpty()) {
				continue;
			}
			try {
				files.add(new InputFile(StringUtils.hasText(part.getOriginalFilename()) ? part.getOriginalFilename()
						: "file-" + (files.size() + 1), part.getBytes()));
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		return files;
	}

	static @Nullable HarnessFormat format(@Nullable String id) {
		if (!StringUtils.hasText(id) || id.equals("auto")) {
			return null;
		}
		return HarnessFormat.ofId(id.strip())
			.orElseThrow(() -> new RunFileRejected("format", "unknown format '" + id + "'; one of "
					+ Arrays.stream(HarnessFormat.values()).map(HarnessFormat::id).toList()));
	}

	/** The provenance part: a JSON object in the run-document shape. */
	static ObjectNode provenance(@Nullable String text) {
		if (!StringUtils.hasText(text)) {
			return (ObjectNode) RunIngest.parse("{}".getBytes(StandardCharsets.UTF_8));
		}
		JsonNode node;
		try {
			node = RunIngest.parse(text.getBytes(StandardCharsets.UTF_8));
		}
		catch (UploadTooLarge tooLarge) {
			throw new UploadTooLarge("provenance", tooLarge.problems().get(0).message());
		}
		catch (RunFileRejected rejected) {
			throw new RunFileRejected("provenance", rejected.problems().get(0).message());
		}
		if (!node.isObject()) {
			throw new RunFileRejected("provenance",
					"must be a JSON object in the run-document shape (title, system, model, …)");
		}
		return (ObjectNode) node;
	}

	/**
	 * A table mapping in JSON:
	 * {@code {"prompt_column", "concurrency_column", "metrics": {"column": {"metric",
	 * "unit", "statistic"}}, "source_url", "source_revision", "param_columns": {"column":
	 * "param"}, "table"}}; a metric's {@code unit} may be left out when the header states
	 * it or the column is in the catalogue's unit, {@code table} (1-based) picks one of
	 * several tables.
	 */
	static @Nullable TableMapping mapping(@Nullable String text, @Nullable HarnessFormat format) {
		if (!StringUtils.hasText(text)) {
			return null;
		}
		JsonNode node;
		try {
			node = RunIngest.parse(text.getBytes(StandardCharsets.UTF_8));
		}
		catch (UploadTooLarge tooLarge) {
			throw new UploadTooLarge("mapping", tooLarge.problems().get(0).message());
		}
		catch (RunFileRejected rejected) {
			throw new RunFileRejected("mapping", rejected.problems().get(0).message());
		}
		List<Problem> problems = new ArrayList<>();
		String prompt = node.path("prompt_column").asString("");
		String source = node.path("source_url").asString("");
		if (prompt.isBlank()) {
			problems.add(new Problem("mapping.prompt_column", "which column holds the prompt length?"));
		}
		if (source.isBlank()) {
			problems.add(new Problem("mapping.source_url", "where was the table published?"));
		}
		Map<String, MetricColumn> metrics = new LinkedHashMap<>();
		node.path("metrics").forEachEntry((column, metric) -> {
			if (!metric.path("metric").isString()
					|| metric.has("unit") && !metric.get("unit").isString() && !metric.get("unit").isNull()) {
				problems.add(new Problem("mapping.metrics." + column,
						"needs a metric, and a unit unless the header states it or the column is in the metric's unit"));
				return;
			}
			metrics.put(column,
					new MetricColumn(metric.get("metric").asString(),
							metric.path("unit").isString() ? metric.get("unit").asString() : null,
							metric.path("statistic").isString() ? metric.get("statistic").asString() : null));
		});
		if (metrics.isEmpty()) {
			problems.add(new Problem("mapping.metrics", "which columns hold which metric, in which unit?"));
		}
		Map<String, String> params = new LinkedHashMap<>();
		node.path("param_columns").forEachEntry((column, param) -> params.put(column, param.asString()));
		Integer table = null;
		if (node.has("table") && !node.get("table").isNull()) {
			if (node.get("table").canConvertToInt() && node.get("table").isIntegralNumber()
					&& node.get("table").intValue() >= 1) {
				table = node.get("table").intValue();
			}
			else {
				problems.add(
						new Problem("mapping.table", "which table to read: 1 for the first, 2 for" + " the second, …"));
			}
		}
		if (!problems.isEmpty()) {
			throw new RunFileRejected(problems);
		}
		String concurrency = node.path("concurrency_column").asString("");
		String revision = node.path("source_revision").asString("");
		return new TableMapping(prompt, concurrency.isBlank() ? null : concurrency, metrics, source,
				revision.isBlank() ? null : revision, params, table);
	}

}
