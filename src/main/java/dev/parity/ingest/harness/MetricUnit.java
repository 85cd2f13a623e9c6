package dev.parity.ingest.harness;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.DoubleUnaryOperator;

/**
 * The units harness outputs and published tables use, and the conversion into the
 * catalogue's unit of a metric ({@code ttft_s} in s, {@code tpot_ms} in ms, rates per
 * second).
 */
public enum MetricUnit {

	SECONDS(Dimension.TIME, 1, 1, "s", "sec", "secs", "second", "seconds"),
	MILLISECONDS(Dimension.TIME, 1, 1_000, "ms", "msec", "millisecond", "milliseconds"),
	MICROSECONDS(Dimension.TIME, 1, 1_000_000, "us", "µs", "μs", "microsecond", "microseconds"),
	NANOSECONDS(Dimension.TIME, 1, 1_000_000_000, "ns", "nanosecond", "nanoseconds"),
	MINUTES(Dimension.TIME, 60, 1, "min", "minute", "minutes"),
	TOKENS_PER_SECOND(Dimension.TOKEN_RATE, 1, 1, "tokens/s", "tokens/sec", "token/s", "tok/s", "t/s", "tps",
			"tokens/sec/user", "tokens/s/user"),
	TOKENS_PER_MINUTE(Dimension.TOKEN_RATE, 1, 60, "tokens/min", "tok/min"),
	REQUESTS_PER_SECOND(Dimension.REQUEST_RATE, 1, 1, "requests/s", "requests/sec", "req/s", "rps", "request/s"),
	REQUESTS_PER_MINUTE(Dimension.REQUEST_RATE, 1, 60, "requests/min", "req/min", "rpm");

	private final Dimension dimension;

	/**
	 * The unit in its dimension's base unit (s, per s) as a fraction of whole numbers: 1
	 * ms = 1/1000 s.
	 */
	private final long numerator;

	private final long denominator;

	private final List<String> names;

	MetricUnit(Dimension dimension, long numerator, long denominator, String... names) {
		this.dimension = dimension;
		this.numerator = numerator;
		this.denominator = denominator;
		this.names = List.of(names);
	}

	/** The unit's usual name, e.g. {@code ms}. */
	public String symbol() {
		return names.get(0);
	}

	public static Optional<MetricUnit> parse(String name) {
		String wanted = name.trim().toLowerCase(Locale.ROOT);
		return Arrays.stream(values()).filter(unit -> unit.names.contains(wanted)).findFirst();
	}

	/**
	 * The unit the catalogue uses for a metric; empty for a metric outside the catalogue.
	 */
	public static Optional<MetricUnit> ofCatalogueMetric(String metric) {
		return Optional.ofNullable(switch (metric) {
			case "ttft_s", "e2e_latency_s" -> SECONDS;
			case "tpot_ms", "itl_ms" -> MILLISECONDS;
			case "prefill_tps", "decode_tps", "throughput_tps" -> TOKENS_PER_SECOND;
			case "request_throughput" -> REQUESTS_PER_SECOND;
			default -> null;
		});
	}

	public boolean convertibleTo(MetricUnit other) {
		return dimension == other.dimension;
	}

	/**
	 * The value, given in this unit, in the other unit; the units must measure the same
	 * thing.
	 */
	public double convert(double value, MetricUnit to) {
		if (!convertibleTo(to)) {
			throw new IllegalArgumentException(symbol() + " cannot be converted to " + to.symbol());
		}
		if (this == to) {
			return value;
		}
		// By whole numbers only, so a conversion and its inverse give back what was
		// written.
		return value * (numerator * to.denominator) / (denominator * to.numerator);
	}

	/** The conversion of values in this unit to the other, as a function. */
	public DoubleUnaryOperator to(MetricUnit other) {
		if (!convertibleTo(other)) {
			throw new IllegalArgumentException(symbol() + " cannot be converted to " + other.symbol());
		}
		return value -> convert(value, other);
	}

	private enum Dimension {

		TIME, TOKEN_RATE, REQUEST_RATE

	}

}
