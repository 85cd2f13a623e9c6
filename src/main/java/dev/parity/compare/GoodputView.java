package dev.parity.compare;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * Goodput under service-level objectives (see {@link Goodput}) as the pages, the API, the
 * exports and a publication have it: the objectives, and for a run its side
 * ({@code run}), for a comparison each side's matched cells ({@code baseline},
 * {@code contender}).
 *
 * @param objectives the objectives, with their words
 * @param run a run's goodput; {@code null} (absent) for a comparison
 * @param baseline the baseline's goodput; {@code null} (absent) for a run
 * @param contender the contender's goodput; {@code null} (absent) for a run
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({ "objectives", "run", "baseline", "contender" })
public record GoodputView(Objectives objectives, @Nullable Side run, @Nullable Side baseline,
		@Nullable Side contender) {

	/**
	 * The sides present, by name, in the order {@code run}, {@code baseline},
	 * {@code contender}.
	 */
	public Map<String, Side> sides() {
		Map<String, Side> sides = new LinkedHashMap<>();
		if (run != null) {
			sides.put("run", run);
		}
		if (baseline != null) {
			sides.put(Flag.BASELINE, baseline);
		}
		if (contender != null) {
			sides.put(Flag.CONTENDER, contender);
		}
		return sides;
	}

	/** The objectives: each bound ({@code null} when not set), the share, in words. */
	@JsonIgnoreProperties(ignoreUnknown = true)
	@JsonInclude(JsonInclude.Include.ALWAYS)
	@JsonPropertyOrder({ "slo_ttft_s", "slo_tpot_ms", "slo_e2e_s", "slo_share", "words" })
	@Schema(name = "GoodputObjectives")
	public record Objectives(@JsonProperty("slo_ttft_s") @Nullable Double ttftS,
			@JsonProperty("slo_tpot_ms") @Nullable Double tpotMs, @JsonProperty("slo_e2e_s") @Nullable Double e2eS,
			@JsonProperty("slo_share") double share, String words) {

		static Objectives of(ServiceLevels slo) {
			return new Objectives(slo.ttftS(), slo.tpotMs(), slo.e2eS(), slo.share(), slo.words());
		}
	}

	/** One side's cells and its highest concurrencies meeting the objectives. */
	@JsonIgnoreProperties(ignoreUnknown = true)
	@JsonPropertyOrder({ "cells", "highest_concurrency" })
	@Schema(name = "GoodputSide")
	public record Side(List<Cell> cells, @JsonProperty("highest_concurrency") List<Highest> highestConcurrency) {

		public Side {
			cells = cells == null ? List.of() : List.copyOf(cells);
			highestConcurrency = highestConcurrency == null ? List.of() : List.copyOf(highestConcurrency);
		}
	}

	/**
	 * A cell's goodput.
	 *
	 * @param share the share of its requests meeting the objectives; {@code null} when
	 * unknown
	 * @param meets whether it meets them; {@code null} when unknown
	 * @param missing why the share is unknown, else {@code null}
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	@JsonInclude(JsonInclude.Include.ALWAYS)
	@JsonPropertyOrder({ "anchor", "label", "params", "requests", "meeting", "share", "meets", "greyed", "greyed_by",
			"missing" })
	@Schema(name = "GoodputCell")
	public record Cell(String anchor, String label, Map<String, Object> params, int requests, int meeting,
			@Nullable Double share, @Nullable Boolean meets, boolean greyed,
			@JsonProperty("greyed_by") List<String> greyedBy, @Nullable String missing) {

		public Cell {
			params = params == null ? Map.of() : params;
			greyedBy = greyedBy == null ? List.of() : List.copyOf(greyedBy);
		}
	}

	/**
	 * The highest concurrency meeting the objectives among cells whose other coordinates
	 * are {@code params}.
	 *
	 * @param concurrency {@code null} when none meets them or when it is unknown
	 * @param missing why it is unknown; absent when it is known
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	@JsonPropertyOrder({ "params", "label", "concurrency", "missing" })
	@Schema(name = "GoodputHighest")
	public record Highest(Map<String, Object> params, String label,
			@JsonInclude(JsonInclude.Include.ALWAYS) @Nullable BigDecimal concurrency,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String missing) {

		public Highest {
			params = params == null ? Map.of() : params;
		}
	}

}
