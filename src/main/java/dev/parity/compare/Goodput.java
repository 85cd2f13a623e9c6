package dev.parity.compare;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.parity.run.Cell;
import dev.parity.run.Params;
import dev.parity.run.Sample;
import org.jspecify.annotations.Nullable;

/**
 * Goodput against service-level objectives, counted from a cell's per-request samples:
 * the share of its requests that completed and met every objective (a failed or cancelled
 * request meets none), and, for each value of the other grid coordinates, the highest
 * concurrency whose cell meets them for at least the required share. A cell a check greys
 * keeps its share, shown greyed, and never counts as the highest concurrency.
 */
public final class Goodput {

	private Goodput() {
	}

	/**
	 * One cell's goodput.
	 *
	 * @param params the cell's params
	 * @param requests the requests counted: the samples, or the cell's request counts
	 * when those are more (samples of completed requests only)
	 * @param meeting the requests that completed and met every objective
	 * @param share {@code meeting / requests}; {@code null} without samples or when a
	 * sample lacks a measure
	 * @param missing why there is no share, else {@code null}
	 * @param greyedBy the rules that grey a measure an objective bounds, empty when none
	 */
	public record CellGoodput(Params params, int requests, int meeting, @Nullable Double share,
			@Nullable String missing, List<String> greyedBy) {

		public CellGoodput {
			greyedBy = List.copyOf(greyedBy);
		}

		/**
		 * Whether the cell meets the objectives for at least {@code required} of its
		 * requests: {@code null} when that is unknown (no share: no per-request samples,
		 * or a sample lacks a measure), {@code false} when a check greys a measure they
		 * bound.
		 */
		public @Nullable Boolean meets(double required) {
			if (share == null) {
				return null;
			}
			return share >= required && greyedBy.isEmpty();
		}

	}

	/**
	 * The highest concurrency meeting the objectives among cells whose other coordinates
	 * are {@code others}.
	 *
	 * @param concurrency the highest such concurrency; {@code null} when no cell meets
	 * them, or when it is unknown
	 * @param missing why it is unknown (a cell above the highest known to meet them has
	 * no share), else {@code null}
	 */
	public record Highest(Params others, @Nullable BigDecimal concurrency, @Nullable String missing) {
	}

	/**
	 * A cell's goodput under these objectives; {@code greyedBy} are the rules greying a
	 * measure they bound.
	 */
	public static CellGoodput of(Cell cell, ServiceLevels slo, List<String> greyedBy) {
		List<Sample> samples = cell.samples();
		if (samples.isEmpty()) {
			return new CellGoodput(cell.params(), cell.requests().knownTotal(), 0, null, "no per-request samples",
					greyedBy);
		}
		int meeting = 0;
		for (Sample sample : samples) {
			Boolean met = slo.met(sample);
			if (met == null) {
				return new CellGoodput(cell.params(), samples.size(), 0, null,
						"a sample does not record " + String.join(" or ", slo.measures()), greyedBy);
			}
			if (met) {
				meeting++;
			}
		}
		int requests = Math.max(samples.size(), cell.requests().knownTotal());
		return new CellGoodput(cell.params(), requests, meeting, (double) meeting / requests, null, greyedBy);
	}

	/**
	 * For each value of the grid's other coordinates, in the cells' order, the highest
	 * concurrency meeting them. It is unknown when a cell of a higher concurrency than
	 * the highest known to meet them has no share: that cell might.
	 */
	public static List<Highest> highest(List<CellGoodput> cells, double required) {
		Map<Params, BigDecimal> best = new LinkedHashMap<>();
		Map<Params, CellGoodput> highestUnknown = new LinkedHashMap<>();
		for (CellGoodput cell : cells) {
			BigDecimal concurrency = cell.params().number("concurrency").orElse(null);
			if (concurrency == null) {
				continue;
			}
			Params others = cell.params().without("concurrency");
			best.putIfAbsent(others, null);
			Boolean meets = cell.meets(required);
			if (meets == null) {
				CellGoodput known = highestUnknown.get(others);
				if (known == null || concurrency.compareTo(known.params().number("concurrency").orElseThrow()) > 0) {
					highestUnknown.put(others, cell);
				}
			}
			else if (meets && (best.get(others) == null || concurrency.compareTo(best.get(others)) > 0)) {
				best.put(others, concurrency);
			}
		}
		List<Highest> highest = new ArrayList<>();
		best.forEach((others, concurrency) -> {
			CellGoodput unknown = highestUnknown.get(others);
			if (unknown != null && (concurrency == null
					|| unknown.params().number("concurrency").orElseThrow().compareTo(concurrency) > 0)) {
				highest.add(new Highest(others, null, unknown.missing()));
			}
			else {
				highest.add(new Highest(others, concurrency, null));
			}
		});
		return highest;
	}

	/**
	 * A side's goodput as the views have it: each cell's share and the highest
	 * concurrencies.
	 */
	public static GoodputView.Side side(List<Cell> cells, ServiceLevels slo, Function<Cell, List<String>> greyedBy) {
		List<CellGoodput> goodput = cells.stream().map(cell -> of(cell, slo, greyedBy.apply(cell))).toList();
		List<GoodputView.Cell> rows = new ArrayList<>(goodput.size());
		for (CellGoodput cell : goodput) {
			rows.add(new GoodputView.Cell(cell.params().anchor(), cell.params().label(), Pareto.params(cell.params()),
					cell.requests(), cell.meeting(), cell.share(), cell.meets(slo.share()), !cell.greyedBy().isEmpty(),
					cell.greyedBy(), cell.missing()));
		}
		List<GoodputView.Highest> highest = new ArrayList<>();
		for (Highest best : highest(goodput, slo.share())) {
			highest.add(new GoodputView.Highest(Pareto.params(best.others()),
					best.others().values().isEmpty() ? "all cells" : best.others().label(), best.concurrency(),
					best.missing()));
		}
		return new GoodputView.Side(rows, highest);
	}

}
