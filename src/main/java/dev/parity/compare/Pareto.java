package dev.parity.compare;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.parity.run.Params;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * The Pareto view of a run or of both sides of a comparison (see {@link SweepViews}), as
 * the pages, the API, the exports and a publication have it: the axes, the load
 * coordinate, one front per side and value of the other coordinates, and the contender's
 * throughput against the baseline's at equal interactivity.
 *
 * @param interactivityMetric {@code decode_tps}, else {@code tpot_ms}
 * @param interactivityUnit the interactivity's unit
 * @param throughputMetric {@code throughput_tps}
 * @param throughputUnit per GPU or not
 * @param perGpu whether throughput is divided by the GPU count
 * @param load the coordinate along a front; {@code null} when the grid has none
 * @param sides one entry per side and value of the other coordinates
 * @param equalInteractivity one entry per such value where both sides' fronts share
 * interactivities; empty for a run
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({ "interactivity_metric", "interactivity_unit", "throughput_metric", "throughput_unit", "per_gpu",
		"load", "sides", "equal_interactivity" })
public record Pareto(@JsonProperty("interactivity_metric") String interactivityMetric,
		@JsonProperty("interactivity_unit") String interactivityUnit,
		@JsonProperty("throughput_metric") String throughputMetric,
		@JsonProperty("throughput_unit") String throughputUnit, @JsonProperty("per_gpu") boolean perGpu,
		@Nullable String load, List<Side> sides,
		@JsonProperty("equal_interactivity") List<EqualInteractivity> equalInteractivity) {

	public Pareto {
		sides = sides == null ? List.of() : List.copyOf(sides);
		equalInteractivity = equalInteractivity == null ? List.of() : List.copyOf(equalInteractivity);
	}

	/**
	 * One side's front among the cells whose other coordinates are {@code params}.
	 *
	 * @param side {@code run}, {@code baseline} or {@code contender}
	 * @param run the side's (first) run
	 * @param title its title
	 * @param group the other coordinates in words ({@code all cells} when none)
	 * @param params the other coordinates
	 * @param gpuCount the GPUs throughput is divided by; {@code null} when it is not
	 * @param points every cell's point
	 * @param front the anchors on the front, from the highest interactivity down
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	@JsonInclude(JsonInclude.Include.ALWAYS)
	@JsonPropertyOrder({ "side", "run", "title", "group", "params", "gpu_count", "points", "front" })
	@Schema(name = "ParetoSide")
	public record Side(String side, String run, String title, String group, Map<String, Object> params,
			@JsonProperty("gpu_count") @Nullable Integer gpuCount, List<Point> points, List<String> front) {

		public Side {
			params = params == null ? Map.of() : params;
			points = points == null ? List.of() : List.copyOf(points);
			front = front == null ? List.of() : List.copyOf(front);
		}
	}

	/** A cell's point: greyed when a check greys either number, then never on a front. */
	@JsonIgnoreProperties(ignoreUnknown = true)
	@JsonPropertyOrder({ "anchor", "label", "interactivity", "throughput", "greyed", "greyed_by", "on_front" })
	@Schema(name = "ParetoPoint")
	public record Point(String anchor, String label, double interactivity, double throughput, boolean greyed,
			@JsonProperty("greyed_by") List<String> greyedBy, @JsonProperty("on_front") boolean onFront) {

		public Point {
			greyedBy = greyedBy == null ? List.of() : List.copyOf(greyedBy);
		}
	}

	/**
	 * The contender's throughput against the baseline's where both fronts of a group
	 * share interactivities, from {@code low} to {@code high}.
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	@JsonInclude(JsonInclude.Include.ALWAYS)
	@JsonPropertyOrder({ "group", "params", "low", "high", "lowest_ratio", "highest_ratio", "points" })
	@Schema(name = "EqualInteractivity")
	public record EqualInteractivity(String group, Map<String, Object> params, double low, double high,
			@JsonProperty("lowest_ratio") double lowestRatio, @JsonProperty("highest_ratio") double highestRatio,
			List<Ratio> points) {

		public EqualInteractivity {
			params = params == null ? Map.of() : params;
			points = points == null ? List.of() : List.copyOf(points);
		}
	}

	/** Both throughputs at one interactivity, and their ratio. */
	@JsonPropertyOrder({ "interactivity", "baseline", "contender", "ratio" })
	@Schema(name = "ParetoRatio")
	public record Ratio(double interactivity, double baseline, double contender, double ratio) {
	}

	/**
	 * Params with numbers as JSON numbers (whole numbers without a fraction, others as
	 * written) and strings as strings.
	 */
	static Map<String, Object> params(Params params) {
		Map<String, Object> values = new LinkedHashMap<>();
		params.values().forEach((name, value) -> {
			if (value instanceof BigDecimal number) {
				values.put(name, number.signum() == 0 || number.scale() <= 0 ? number.toBigInteger() : number);
			}
			else {
				values.put(name, value.toString());
			}
		});
		return values;
	}

}
