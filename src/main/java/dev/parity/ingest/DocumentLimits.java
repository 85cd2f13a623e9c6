package dev.parity.ingest;

import java.util.ArrayList;
import java.util.List;

import dev.parity.ingest.harness.JsonLimits;
import dev.parity.web.Problem;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How large a run may be: cells, samples, JSON nesting depth and string length
 * ({@code parity.limits.*}). A document over a limit is refused with the limit named.
 *
 * @param maxCells cells per run
 * @param maxSamples per-request samples per run, all cells together
 * @param maxJsonDepth nesting depth of a JSON document
 * @param maxStringLength characters in any one JSON string
 * @param maxJsonNodes JSON values read into memory at once: in a harness upload, all its
 * files together; in a run document, its cells one at a time and the rest; unset, eight
 * per sample of {@code maxSamples}
 * @param maxJsonArrayLength values in any one JSON array; unset, {@code maxSamples}
 */
@ConfigurationProperties("parity.limits")
public record DocumentLimits(int maxCells, int maxSamples, int maxJsonDepth, int maxStringLength, long maxJsonNodes,
		int maxJsonArrayLength) {

	public DocumentLimits {
		maxCells = maxCells <= 0 ? 10_000 : maxCells;
		maxSamples = maxSamples <= 0 ? 2_000_000 : maxSamples;
		maxJsonDepth = maxJsonDepth <= 0 ? 64 : maxJsonDepth;
		maxStringLength = maxStringLength <= 0 ? 1_000_000 : maxStringLength;
		maxJsonNodes = maxJsonNodes <= 0 ? 8L * maxSamples : maxJsonNodes;
		maxJsonArrayLength = maxJsonArrayLength <= 0 ? maxSamples : maxJsonArrayLength;
	}

	public static DocumentLimits defaults() {
		return new DocumentLimits(0, 0, 0, 0, 0, 0);
	}

	/** The limits of reading JSON (or YAML) into memory. */
	public JsonLimits jsonLimits() {
		return new JsonLimits(maxJsonNodes, maxJsonArrayLength, maxJsonDepth);
	}

	/**
	 * A strict reader within these limits: a duplicate key or trailing garbage is an
	 * error too.
	 */
	JsonMapper mapper() {
		JsonFactory factory = JsonFactory.builder()
			.streamReadConstraints(StreamReadConstraints.builder()
				.maxNestingDepth(maxJsonDepth)
				.maxStringLength(maxStringLength)
				.build())
			.build();
		return JsonMapper.builder(factory)
			.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
			.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
			.build();
	}

	/** The problems of a document over the cell or sample limit. */
	List<Problem> check(JsonNode document) {
		JsonNode cells = document.path("cells");
		long samples = 0;
		for (JsonNode cell : cells) {
			samples += cell.path("samples").size();
		}
		return check(cells.isArray() ? cells.size() : 0, samples);
	}

	/** The problems of so many cells and samples. */
	List<Problem> check(int cells, long samples) {
		List<Problem> problems = new ArrayList<>();
		if (cells > maxCells) {
			problems.add(new Problem("$.cells", "more than " + maxCells + " cells (parity.limits.max-cells)"));
		}
		if (samples > maxSamples) {
			problems.add(new Problem("$.cells[*].samples",
					"more than " + maxSamples + " samples per run (parity.limits.max-samples)"));
		}
		return problems;
	}

}
