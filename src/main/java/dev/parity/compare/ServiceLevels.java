package dev.parity.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.parity.run.Sample;
import org.jspecify.annotations.Nullable;

/**
 * Service-level objectives a request must meet to count as goodput, each settable from
 * the URL: a time to first token ({@code slo_ttft_s}, seconds), a time per output token
 * ({@code slo_tpot_ms}, milliseconds) and an end-to-end latency ({@code slo_e2e_s},
 * seconds); and the share of a cell's requests that must meet them for the cell to meet
 * them ({@code slo_share}, default 0.9). None is set by default. They choose what a view
 * shows and grey nothing, so they are not thresholds a publication must give a reason
 * for.
 *
 * @param ttftS the longest time to first token, in seconds; {@code null} = no objective
 * @param tpotMs the longest time per output token, in milliseconds; {@code null} = no
 * objective
 * @param e2eS the longest end-to-end latency, in seconds; {@code null} = no objective
 * @param share the share of requests (0–1) that must meet every objective set
 */
public record ServiceLevels(@Nullable Double ttftS, @Nullable Double tpotMs, @Nullable Double e2eS, double share) {

	/** The URL names, in the order of {@link #asMap()}. */
	public static final List<String> NAMES = List.of("slo_ttft_s", "slo_tpot_ms", "slo_e2e_s", "slo_share");

	public static final double DEFAULT_SHARE = 0.9;

	/** No objective. */
	public static final ServiceLevels NONE = new ServiceLevels(null, null, null, DEFAULT_SHARE);

	public ServiceLevels {
		positive("slo_ttft_s", ttftS);
		positive("slo_tpot_ms", tpotMs);
		positive("slo_e2e_s", e2eS);
		if (!(share > 0 && share <= 1)) {
			throw new IllegalArgumentException("slo_share must be a number above 0 and at most 1, not '" + share + "'");
		}
	}

	/** Whether any objective is set. */
	public boolean any() {
		return ttftS != null || tpotMs != null || e2eS != null;
	}

	/**
	 * These objectives with the URL's parameters applied; a blank value keeps the
	 * objective.
	 * @throws IllegalArgumentException naming the parameter and what is wrong with its
	 * value
	 */
	public ServiceLevels withOverrides(Map<String, String> query) {
		Double ttft = ttftS;
		Double tpot = tpotMs;
		Double e2e = e2eS;
		double shareOf = share;
		for (Map.Entry<String, String> entry : query.entrySet()) {
			String raw = entry.getValue();
			if (raw == null || raw.isBlank()) {
				continue;
			}
			switch (entry.getKey()) {
				case "slo_ttft_s" -> ttft = parse("slo_ttft_s", raw);
				case "slo_tpot_ms" -> tpot = parse("slo_tpot_ms", raw);
				case "slo_e2e_s" -> e2e = parse("slo_e2e_s", raw);
				case "slo_share" -> shareOf = parse("slo_share", raw);
				default -> {
				}
			}
		}
		return new ServiceLevels(ttft, tpot, e2e, shareOf);
	}

	/**
	 * The objectives set, under their URL names, and {@code slo_share} when any is set;
	 * empty when none is (so a comparison without objectives has the settings it had
	 * before they existed).
	 */
	public Map<String, Object> asMap() {
		Map<String, Object> map = new LinkedHashMap<>();
		if (ttftS != null) {
			map.put("slo_ttft_s", ttftS);
		}
		if (tpotMs != null) {
			map.put("slo_tpot_ms", tpotMs);
		}
		if (e2eS != null) {
			map.put("slo_e2e_s", e2eS);
		}
		if (any()) {
			map.put("slo_share", share);
		}
		return map;
	}

	/**
	 * Whether a request meets every objective set: it completed and each measure an
	 * objective bounds is at most that bound. The time per output token is the sample's
	 * {@code tpot_ms}, else (e2e − ttft) / (output tokens − 1).
	 * @return {@code null} when the sample does not record a measure an objective needs
	 */
	public @Nullable Boolean met(Sample sample) {
		if (!sample.ok()) {
			return false;
		}
		Double ttft = sample.metrics().get("ttft_s");
		Double e2e = sample.metrics().get("e2e_latency_s");
		Double tpot = tpot(sample);
		if ((ttftS != null && ttft == null) || (tpotMs != null && tpot == null) || (e2eS != null && e2e == null)) {
			return null;
		}
		return (ttftS == null || ttft <= ttftS) && (tpotMs == null || tpot <= tpotMs) && (e2eS == null || e2e <= e2eS);
	}

	/**
	 * The measures the objectives set need, by metric name, for saying which one a sample
	 * lacks.
	 */
	public List<String> measures() {
		List<String> measures = new ArrayList<>();
		if (ttftS != null) {
			measures.add("ttft_s");
		}
		if (tpotMs != null) {
			measures.add("tpot_ms");
		}
		if (e2eS != null) {
			measures.add("e2e_latency_s");
		}
		return measures;
	}

	/** The objectives in words: "TTFT ≤ 2 s, TPOT ≤ 50 ms for 90 % of requests". */
	public String words() {
		List<String> parts = new ArrayList<>();
		if (ttftS != null) {
			parts.add("TTFT ≤ " + Figures.number(ttftS) + " s");
		}
		if (tpotMs != null) {
			parts.add("TPOT ≤ " + Figures.number(tpotMs) + " ms");
		}
		if (e2eS != null) {
			parts.add("end-to-end ≤ " + Figures.number(e2eS) + " s");
		}
		return String.join(", ", parts) + " for " + Figures.number(share * 100) + " % of requests";
	}

	private static @Nullable Double tpot(Sample sample) {
		Double recorded = sample.metrics().get("tpot_ms");
		if (recorded != null) {
			return recorded;
		}
		Double ttft = sample.metrics().get("ttft_s");
		Double e2e = sample.metrics().get("e2e_latency_s");
		Double tokens = sample.outputTokens();
		if (ttft == null || e2e == null || tokens == null || tokens <= 1) {
			return null;
		}
		return (e2e - ttft) * 1000 / (tokens - 1);
	}

	private static double parse(String name, String raw) {
		try {
			return Double.parseDouble(raw.strip());
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException(name + " must be a number, not '" + raw + "'");
		}
	}

	private static void positive(String name, @Nullable Double value) {
		if (value != null && !(value > 0 && Double.isFinite(value))) {
			throw new IllegalArgumentException(name + " must be a number above 0, not '" + value + "'");
		}
	}

}
