package dev.parity.ingest.harness;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleUnaryOperator;

import org.jspecify.annotations.Nullable;

/**
 * How AIPerf's metric tags map onto the catalogue. AIPerf's "inter token latency" is
 * (latency − TTFT) / (output − 1) per request, which is the catalogue's TPOT; its "inter
 * chunk latency" (the gaps between streamed chunks) is the catalogue's ITL.
 */
final class AiperfMetrics {

	/**
	 * AIPerf tag → catalogue metric. Old (0.1) tags ({@code ttft}) and new ones both
	 * appear.
	 */
	private static final Map<String, String> CATALOGUE = Map.ofEntries(Map.entry("time_to_first_token", "ttft_s"),
			Map.entry("ttft", "ttft_s"), Map.entry("request_latency", "e2e_latency_s"),
			Map.entry("inter_token_latency", "tpot_ms"), Map.entry("inter_chunk_latency", "itl_ms"),
			Map.entry("output_token_throughput_per_user", "decode_tps"),
			Map.entry("prefill_throughput_per_user", "prefill_tps"),
			Map.entry("output_token_throughput", "throughput_tps"),
			Map.entry("request_throughput", "request_throughput"));

	private AiperfMetrics() {
	}

	static Optional<String> catalogueName(String tag) {
		return Optional.ofNullable(CATALOGUE.get(tag));
	}

	/**
	 * Whether the catalogue metric is one aggregate value for the whole benchmark (a
	 * throughput).
	 */
	static boolean aggregate(String metric) {
		return metric.equals("throughput_tps") || metric.equals("request_throughput");
	}

	/**
	 * The conversion of a value in AIPerf's unit into the catalogue unit of the metric,
	 * or {@code null} when the unit is unknown or measures something else.
	 */
	static @Nullable DoubleUnaryOperator conversion(String metric, @Nullable String unit) {
		MetricUnit target = MetricUnit.ofCatalogueMetric(metric).orElse(null);
		MetricUnit given = unit == null ? null : MetricUnit.parse(unit).orElse(null);
		if (target == null || given == null || !given.convertibleTo(target)) {
			return null;
		}
		return given.to(target);
	}

	/** Whether an error is a cancellation: HTTP 499 or a cancellation error type. */
	static boolean cancellation(@Nullable Integer code, @Nullable String type) {
		return (code != null && code == 499) || (type != null && type.toLowerCase(Locale.ROOT).contains("cancel"));
	}

}
