package dev.parity.site;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.jspecify.annotations.Nullable;

/**
 * The data of a comparison's ratio and value charts ({@code data-charts},
 * {@code …/charts.json}), as {@link ComparisonPage} builds it and the charts (the page's
 * script, the PNG and SVG images) read it.
 *
 * @param band the band the ratios are drawn against
 * @param x the grid coordinate along the value charts' x axis; {@code null} when none is
 * numeric
 * @param charts one per metric
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({ "band", "x", "charts" })
record ComparisonCharts(double band, @Nullable String x, List<Chart> charts) {

	/** A metric's ratio per cell and both sides' values, one series per line. */
	@JsonInclude(JsonInclude.Include.ALWAYS)
	@JsonPropertyOrder({ "metric", "unit", "bars", "series" })
	record Chart(String metric, @Nullable String unit, List<Bar> bars, List<Series> series) {
	}

	/** A cell's ratio, greyed with the reasons when a flag greys it. */
	@JsonPropertyOrder({ "label", "anchor", "ratio", "greyed", "reasons" })
	record Bar(String label, String anchor, double ratio, boolean greyed, List<String> reasons) {
	}

	/**
	 * A side's values along x for one value of the other coordinates.
	 *
	 * @param side {@code baseline} or {@code contender}
	 */
	@JsonPropertyOrder({ "label", "side", "points" })
	record Series(String label, String side, List<Point> points) {
	}

	/**
	 * A value; {@code y} is {@code null} where the cell has none (a gap), {@code reasons}
	 * only on a greyed one.
	 */
	@JsonPropertyOrder({ "x", "y", "greyed", "reasons" })
	record Point(double x, @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable Double y, boolean greyed,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable List<String> reasons) {
	}

}
