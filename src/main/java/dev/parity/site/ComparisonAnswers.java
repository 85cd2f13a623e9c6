package dev.parity.site;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.parity.compare.ComparisonSnapshot;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The answers of {@code /api/compare/…} as the OpenAPI document describes them. The
 * bodies are written from the kept snapshots' JSON with the caveats appended (see
 * {@code ComparisonController}); these types give them their schema.
 */
final class ComparisonAnswers {

	private ComparisonAnswers() {
	}

	/**
	 * A comparison of two runs (or groups of replicates): the snapshot, with the
	 * comparison's caveats as its last field.
	 *
	 * @param caveats the caveats on the comparison, its runs and its cells, read now
	 */
	@Schema(name = "Comparison", allOf = ComparisonSnapshot.class)
	record Pairwise(List<Map<String, Object>> caveats) {
	}

	/**
	 * Several contenders against one baseline.
	 *
	 * @param baseline the baseline's path
	 * @param path the comparison's path, {@code baseline...c1,c2}
	 * @param comparisons each pairwise comparison's API address, in order
	 * @param contenders each pairwise comparison's body, in order
	 */
	@Schema(name = "Contenders")
	@JsonPropertyOrder({ "baseline", "path", "comparisons", "contenders" })
	record Several(String baseline, String path, List<String> comparisons, List<Pairwise> contenders) {
	}

}
