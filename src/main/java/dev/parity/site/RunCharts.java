package dev.parity.site;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.jspecify.annotations.Nullable;

/**
 * The data of a run page's charts ({@code data-charts}, {@code /runs/{id}/charts.json}),
 * as {@link RunPage} builds it.
 *
 * @param x the grid coordinate along the x axis; {@code null} when none is numeric (then
 * no value chart)
 * @param distributions per metric found in successful samples, each cell's sorted values
 * @param charts per metric, its median against x, one series per value of the other
 * coordinates
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({ "x", "distributions", "charts" })
record RunCharts(@Nullable String x, List<Distribution> distributions, List<Chart> charts) {

	/** A metric's values per cell, for a CDF. */
	@JsonInclude(JsonInclude.Include.ALWAYS)
	@JsonPropertyOrder({ "metric", "unit", "cells" })
	record Distribution(String metric, @Nullable String unit, List<CellValues> cells) {
	}

	/**
	 * A cell's sorted values: at most a few hundred evenly spaced ones of {@code count}.
	 */
	@JsonPropertyOrder({ "label", "values", "count" })
	record CellValues(String label, List<Double> values, int count) {
	}

	/** A metric's chart. */
	@JsonInclude(JsonInclude.Include.ALWAYS)
	@JsonPropertyOrder({ "metric", "unit", "series" })
	record Chart(String metric, @Nullable String unit, List<Series> series) {
	}

	/** One value of the other coordinates along x. */
	@JsonPropertyOrder({ "label", "points" })
	record Series(String label, List<ComparisonCharts.Point> points) {
	}

}
