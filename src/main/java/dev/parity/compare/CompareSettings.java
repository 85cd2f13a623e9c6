package dev.parity.compare;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.parity.run.Provenance;
import org.jspecify.annotations.Nullable;

/**
 * The thresholds, the compared statistic and the varied variable of a comparison (or of a
 * run's checks), each settable from the URL under its own name.
 *
 * @param band a cell is within the band when |ratio − 1| ≤ band ({@code band})
 * @param outputTolerance how far median output tokens may differ, from the other side or
 * from the declaration ({@code output_tolerance})
 * @param failureTolerance the fraction of a cell's requests that may fail or be cancelled
 * ({@code failure_tolerance})
 * @param runaway a request longer than this many times the cell's median output runs away
 * ({@code runaway})
 * @param spike a TTFT this many times that of a later, busier cell is a spike
 * ({@code spike})
 * @param unstableCv the coefficient of variation of output tokens beyond which a cell is
 * unstable ({@code unstable_cv})
 * @param skew a mean this many times the median is skewed ({@code skew})
 * @param outlierZ the robust z beyond which a sample is an outlier ({@code outlier_z})
 * @param warningFactor a cell this many times below an engine warning's limit cannot be
 * explained by it ({@code warning_factor})
 * @param implausible a ratio beyond this factor either way is implausible
 * ({@code implausible})
 * @param stat the compared statistic: {@code median}, {@code mean}, {@code std},
 * {@code min}, {@code max} or a percentile {@code p1} … {@code p99} ({@code stat})
 * @param vary the one variable the comparison varies, which is annotated rather than
 * greyed ({@code vary})
 * @param criticalFlags engine flags whose difference greys the comparison, normalised as
 * {@link Provenance.Engine#normaliseFlag} does ({@code critical_flags})
 * @param slo the service-level objectives goodput is counted against ({@code slo_ttft_s},
 * {@code slo_tpot_ms}, {@code slo_e2e_s}, {@code slo_share}); they grey nothing
 */
public record CompareSettings(double band, double outputTolerance, double failureTolerance, double runaway,
		double spike, double unstableCv, double skew, double outlierZ, double warningFactor, double implausible,
		String stat, String vary, Set<String> criticalFlags, ServiceLevels slo) {

	/** Settings without service-level objectives. */
	public CompareSettings(double band, double outputTolerance, double failureTolerance, double runaway, double spike,
			double unstableCv, double skew, double outlierZ, double warningFactor, double implausible, String stat,
			String vary, Set<String> criticalFlags) {
		this(band, outputTolerance, failureTolerance, runaway, spike, unstableCv, skew, outlierZ, warningFactor,
				implausible, stat, vary, criticalFlags, ServiceLevels.NONE);
	}

	/** The variables a comparison may vary, the default first. */
	public static final List<String> VARIES = List.of("system", "engine", "flags", "checkpoint", "dataset", "harness",
			"environment");

	private static final Pattern PERCENTILE = Pattern.compile("p(\\d{1,2}(?:\\.\\d+)?)");

	private static final Set<String> STATISTICS = Set.of("median", "mean", "std", "min", "max");

	private static final CompareSettings DEFAULTS = new CompareSettings(0.10, 0.10, 0, 10, 2, 0.5, 2, 5, 10, 5,
			"median", "system", new LinkedHashSet<>(List.of("kv-cache-dtype", "quantization", "dtype",
					"speculative-config", "num-speculative-tokens", "enable-prefix-caching")));

	public CompareSettings {
		Bound.check("band", band, null);
		Bound.check("output_tolerance", outputTolerance, null);
		Bound.check("failure_tolerance", failureTolerance, null);
		Bound.check("runaway", runaway, null);
		Bound.check("spike", spike, null);
		Bound.check("unstable_cv", unstableCv, null);
		Bound.check("skew", skew, null);
		Bound.check("outlier_z", outlierZ, null);
		Bound.check("warning_factor", warningFactor, null);
		Bound.check("implausible", implausible, null);
		stat = statistic(stat);
		vary = vary(vary);
		Set<String> flags = new LinkedHashSet<>();
		criticalFlags.forEach(flag -> flags.add(Provenance.Engine.normaliseFlag(flag.strip())));
		flags.remove("");
		criticalFlags = Collections.unmodifiableSet(flags);
	}

	/**
	 * The defaults of src/docs/design/PRODUCT.md: band ±10 %, median,
	 * {@code vary=system}.
	 */
	public static CompareSettings defaults() {
		return DEFAULTS;
	}

	/**
	 * These settings with the URL's parameters applied. Unknown names are ignored, and so
	 * are blank values (an empty form field keeps the setting); {@code critical_flags} is
	 * a comma list, {@code none} for no critical flag.
	 * @throws IllegalArgumentException naming the parameter and what is wrong with its
	 * value
	 */
	public CompareSettings withOverrides(Map<String, String> query) {
		if (query.isEmpty()) {
			return this; // most requests: every page and API call asks for its settings
		}
		Map<String, Object> values = new LinkedHashMap<>(asMap());
		values.keySet().removeAll(ServiceLevels.NAMES);
		query.forEach((name, raw) -> {
			if (raw == null || raw.isBlank() || !values.containsKey(name)) {
				return;
			}
			String value = raw.strip();
			values.put(name, switch (name) {
				case "stat", "vary" -> value;
				case "critical_flags" -> value.equalsIgnoreCase("none") ? List.of() : List.of(value.split(","));
				default -> Bound.parse(name, value);
			});
		});
		return fromMap(values, slo.withOverrides(query));
	}

	/**
	 * Every threshold in force, the statistic, the varied variable and the critical
	 * flags, under their URL names; then the service-level objectives that are set
	 * ({@link ServiceLevels#asMap()}).
	 */
	public Map<String, Object> asMap() {
		Map<String, Object> map = new LinkedHashMap<>();
		map.put("band", band);
		map.put("output_tolerance", outputTolerance);
		map.put("failure_tolerance", failureTolerance);
		map.put("runaway", runaway);
		map.put("spike", spike);
		map.put("unstable_cv", unstableCv);
		map.put("skew", skew);
		map.put("outlier_z", outlierZ);
		map.put("warning_factor", warningFactor);
		map.put("implausible", implausible);
		map.put("stat", stat);
		map.put("vary", vary);
		map.put("critical_flags", List.copyOf(criticalFlags));
		map.putAll(slo.asMap());
		return Collections.unmodifiableMap(map);
	}

	/**
	 * Whether a difference in this variable is the one the comparison sets out to show.
	 */
	public boolean varies(String variable) {
		return vary.equals(variable);
	}

	@SuppressWarnings("unchecked")
	private static CompareSettings fromMap(Map<String, Object> values, ServiceLevels slo) {
		return new CompareSettings((double) values.get("band"), (double) values.get("output_tolerance"),
				(double) values.get("failure_tolerance"), (double) values.get("runaway"), (double) values.get("spike"),
				(double) values.get("unstable_cv"), (double) values.get("skew"), (double) values.get("outlier_z"),
				(double) values.get("warning_factor"), (double) values.get("implausible"), (String) values.get("stat"),
				(String) values.get("vary"), new LinkedHashSet<>((List<String>) values.get("critical_flags")), slo);
	}

	private static String statistic(String stat) {
		String name = stat.strip().toLowerCase(Locale.ROOT);
		Matcher percentile = PERCENTILE.matcher(name);
		boolean valid = STATISTICS.contains(name) || (percentile.matches()
				&& Double.parseDouble(percentile.group(1)) >= 1 && Double.parseDouble(percentile.group(1)) < 100);
		if (!valid) {
			throw new IllegalArgumentException(
					"stat must be median, mean, std, min, max or a percentile p1 … p99, not '" + stat + "'");
		}
		return name;
	}

	private static String vary(String vary) {
		String name = vary.strip().toLowerCase(Locale.ROOT);
		if (!VARIES.contains(name)) {
			throw new IllegalArgumentException(
					"vary must be one of " + String.join(", ", VARIES) + ", not '" + vary + "'");
		}
		return name;
	}

	/** The range a threshold may take, with the words that explain it. */
	private enum Bound {

		FRACTION(0, Double.POSITIVE_INFINITY, "a number ≥ 0"), SHARE(0, 1, "a number from 0 to 1"),
		FACTOR(1, Double.POSITIVE_INFINITY, "a number ≥ 1");

		private final double min;

		private final double max;

		private final String words;

		Bound(double min, double max, String words) {
			this.min = min;
			this.max = max;
			this.words = words;
		}

		private static final Map<String, Bound> BY_NAME = Map.of("band", FRACTION, "output_tolerance", FRACTION,
				"failure_tolerance", SHARE, "runaway", FACTOR, "spike", FACTOR, "unstable_cv", FRACTION, "skew", FACTOR,
				"outlier_z", FRACTION, "warning_factor", FACTOR, "implausible", FACTOR);

		static double parse(String name, String raw) {
			double value;
			try {
				value = Double.parseDouble(raw);
			}
			catch (NumberFormatException ex) {
				value = Double.NaN;
			}
			check(name, value, raw);
			return value;
		}

		static void check(String name, double value, @Nullable String raw) {
			Bound bound = BY_NAME.get(name);
			if (!(value >= bound.min && value <= bound.max) || Double.isInfinite(value)) {
				throw new IllegalArgumentException(name + " must be " + bound.words + ", not '"
						+ (raw == null ? Figures.number(value) : raw) + "'");
			}
		}

	}

}
