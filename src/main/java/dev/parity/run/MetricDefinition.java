package dev.parity.run;

/**
 * What a metric measures: its unit, which direction is better, and whether longer outputs
 * distort it.
 *
 * @param name the metric's name, e.g. {@code ttft_s}
 * @param unit its unit, e.g. {@code s}
 * @param higherIsBetter whether a larger value is better
 * @param outputSensitive whether a change in output length per request distorts it
 * (decode rate does, TTFT does not)
 */
public record MetricDefinition(String name, String unit, boolean higherIsBetter, boolean outputSensitive) {

	/** {@code higher} or {@code lower}, as documents write it. */
	public String better() {
		return higherIsBetter ? "higher" : "lower";
	}

	/**
	 * The name people say: {@code decode_tps} → decode, {@code ttft_s} → TTFT,
	 * {@code e2e_latency_s} → latency; a metric without a short name keeps its own.
	 */
	public String shortName() {
		return shortName(name);
	}

	/**
	 * The name people say for a metric's name ({@link #shortName()}), for a metric known
	 * only by its name.
	 */
	public static String shortName(String name) {
		return switch (name) {
			case "ttft_s" -> "TTFT";
			case "prefill_tps" -> "prefill";
			case "decode_tps" -> "decode";
			case "throughput_tps" -> "throughput";
			case "tpot_ms" -> "TPOT";
			case "itl_ms" -> "ITL";
			case "e2e_latency_s" -> "latency";
			case "request_throughput" -> "requests/s";
			default -> name;
		};
	}

}
